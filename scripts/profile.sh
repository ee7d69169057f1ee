#!/usr/bin/env bash
# Profiles one spotlink-bench group: where its CPU time goes and who allocates, each as the top
# frames, so the next regression is found in minutes.
#
#   scripts/profile.sh GROUP [TOP]      e.g. scripts/profile.sh fetch, scripts/profile.sh request-cost 30
#
# GROUP is a bench group (`spotlink-bench --help` lists them). `request-cost` profiles its worker
# (SpotLinkRequestCost, the measured requests) directly, and reports its own allocation counts. CPU: `perf record` where the kernel allows it, else valgrind's
# callgrind (instructions, 20-50 times slower, repeatable). Heap: heaptrack, else valgrind's massif.
# The release build keeps its symbols; the raw profiles stay in .build/profile/GROUP/ for
# `perf report -i`, `heaptrack_gui` or `callgrind_annotate`. Needs the Debian packages linux-perf
# or valgrind, and heaptrack or valgrind.
set -euo pipefail

[ "$#" -ge 1 ] || { echo "usage: scripts/profile.sh GROUP [TOP]" >&2; exit 2; }
group="$1"
top="${2:-25}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build/profile/$group"
mkdir -p "$out"

swift build --package-path "$root" -c release --product spotlink-bench >/dev/null
swift build --package-path "$root" -c release --product spotify-emulator >/dev/null
swift build --package-path "$root" -c release --product SpotLinkRequestCost >/dev/null
bench="$root/.build/release/spotlink-bench"
if [ "$group" = "request-cost" ]; then
  command=("$root/.build/release/SpotLinkRequestCost" 2000)
else
  command=("$bench" --quick --only "$group")
fi

echo "== CPU: ${command[*]}"
if command -v perf >/dev/null 2>&1 && perf stat -e task-clock true >/dev/null 2>&1; then
  perf record --quiet -F 999 -g -o "$out/perf.data" -- "${command[@]}" >"$out/run.txt" 2>"$out/perf.log" \
    || { cat "$out/perf.log" >&2; exit 1; }
  perf report -i "$out/perf.data" --no-children --sort dso,symbol --stdio -g none >"$out/self.txt" 2>/dev/null
  perf report -i "$out/perf.data" --children --sort symbol --stdio -g none >"$out/children.txt" 2>/dev/null
  echo "-- top $top frames by own time (perf; children excluded)"
  grep -E '^ +[0-9]' "$out/self.txt" | head -n "$top" | cut -c1-160 || true
  echo "-- top $top frames by time including callees"
  grep -E '^ +[0-9]' "$out/children.txt" | head -n "$top" | cut -c1-160 || true
elif command -v valgrind >/dev/null 2>&1; then
  valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$out/callgrind.%p" "${command[@]}" \
    >"$out/run.txt" 2>"$out/callgrind.log" || { tail -n 20 "$out/callgrind.log" >&2; exit 1; }
  largest="$(ls -S "$out"/callgrind.* | grep -v '\.log$' | head -n 1 || true)"
  callgrind_annotate --inclusive=no "$largest" >"$out/self.txt" 2>/dev/null
  echo "-- top $top functions by instructions (callgrind, $largest)"
  grep -E '^ *[0-9,]+ ' "$out/self.txt" | head -n "$top" | cut -c1-160 || true
else
  echo "no CPU profiler: install linux-perf or valgrind" >&2
  exit 3
fi

echo "== heap: ${command[*]}"
if [ "$group" = "request-cost" ]; then
  # The worker links an allocation counter of its own, which heaptrack cannot stand beside:
  # its heap profile is its own count (allocations per request, in the CPU run's output).
  heap=()
else
  heap=("${command[@]}")
fi
if [ "${#heap[@]}" -eq 0 ]; then
  cat "$out/run.txt"
elif command -v heaptrack >/dev/null 2>&1; then
  rm -f "$out"/heaptrack.*
  heaptrack -o "$out/heaptrack" "${heap[@]}" >"$out/heap-run.txt" 2>"$out/heaptrack.log" \
    || { tail -n 20 "$out/heaptrack.log" >&2; exit 1; }
  file="$(ls "$out"/heaptrack.* | grep -v '\.log$' | head -n 1 || true)"
  heaptrack_print -f "$file" --print-peaks 1 --print-allocators 1 --print-leaks 0 --print-temporary 0 \
    --peak-limit "$top" --sub-peak-limit 3 >"$out/heap.txt" 2>/dev/null
  echo "-- totals (heaptrack)"
  grep -E '^(total runtime|calls to allocation|temporary memory|peak heap memory|peak RSS)' "$out/heap.txt" || true
  echo "-- the call sites that allocate most often, then those with the highest peak (first frames; all in $out/heap.txt)"
  grep -E '^[0-9]+ calls|^[0-9.]+[KMG]?B? peak|^PEAK|^MOST CALLS|^    [$_a-zA-Z]' "$out/heap.txt" | head -n $((top * 6)) || true
elif command -v valgrind >/dev/null 2>&1; then
  valgrind --tool=massif --massif-out-file="$out/massif.out" "${heap[@]}" >"$out/heap-run.txt" 2>"$out/massif.log"
  ms_print "$out/massif.out" >"$out/heap.txt"
  head -n $((top + 40)) "$out/heap.txt" || true
else
  echo "no heap profiler: install heaptrack or valgrind" >&2
  exit 3
fi
echo "== profiles in $out"
