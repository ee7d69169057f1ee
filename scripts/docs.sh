#!/usr/bin/env bash
# Builds the DocC documentation of every library product from the compiler's symbol graphs and
# each target's catalog, failing on any warning (a broken symbol link, an undocumented parameter).
# Archives land in .build/docs/MODULE.doccarchive. The SPI of store and transport implementers is
# documented too, each page tagged "SPI".
set -euo pipefail
cd "$(dirname "$0")/.."
# Every library product of Package.swift: a new product fails here until it has its catalog.
modules=$(grep -o '\.library(name: "[A-Za-z]*"' Package.swift | sed 's/.*"\(.*\)"/\1/' | tr '\n' ' ')
[ "${1:-}" = "--no-dump" ] || swift package --traits PostgreSQL dump-symbol-graph --minimum-access-level public --include-spi-symbols >/dev/null
graphs=$(ls -d .build/*/symbolgraph | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p .build/docs
status=0
for module in $modules; do
  mkdir -p "$work/$module"
  cp "$graphs/$module.symbols.json" "$work/$module/"
  cp "$graphs/$module"@*.symbols.json "$work/$module/" 2>/dev/null || true
  if ! docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$work/$module" \
      --fallback-display-name "$module" --fallback-bundle-identifier "dev.spotifylink.$module" \
      --output-path ".build/docs/$module.doccarchive" --warnings-as-errors > "$work/$module.log" 2>&1; then
    echo "== $module: documentation has warnings" >&2
    grep -E "warning|error" "$work/$module.log" >&2 || cat "$work/$module.log" >&2
    status=1
  else
    echo "$module: documentation built clean"
  fi
done
exit $status
