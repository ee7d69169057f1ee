#!/usr/bin/env bash
# Formats the sources in place (default) or only checks them (--lint), with the toolchain's
# swift-format and the committed .swift-format.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=format
[ "${1:-}" = "--lint" ] && mode=lint
if ! swift format --version >/dev/null 2>&1; then
  echo "swift-format is not available in this toolchain" >&2
  exit 1
fi
if [ "$mode" = lint ]; then
  swift format lint --recursive --strict Sources Tests Package.swift
else
  swift format format --in-place --recursive Sources Tests Package.swift
fi
