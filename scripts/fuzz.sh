#!/usr/bin/env bash
# Fuzzes one parser with libFuzzer and AddressSanitizer.
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer flags...]
#   scripts/fuzz.sh all SECONDS          # every target, SECONDS each
#
# TARGET: callback-query, reference, retry-after, token-response, decoders, fast-decoding, emulator-form,
# sanitize, app-attest, extension-link, search-request.
# The corpus grows in .build-fuzz/corpus/TARGET (seeded from Fuzz/seeds/TARGET, plus the recorded
# fixtures for decoders). A crash is saved to Fuzz/crashes/TARGET/, where FuzzRegressionTests
# replays it on every `swift test`: fix the code, keep the file.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: scripts/fuzz.sh TARGET|all SECONDS [libFuzzer flags...]}"
seconds="${2:?usage: scripts/fuzz.sh TARGET|all SECONDS [libFuzzer flags...]}"
shift 2
targets=(callback-query reference retry-after token-response decoders fast-decoding emulator-form sanitize app-attest extension-link search-request)
if [[ "$target" == all ]]; then
    for each in "${targets[@]}"; do "$0" "$each" "$seconds" "$@"; done
    exit 0
fi
[[ " ${targets[*]} " == *" $target "* ]] || { echo "unknown target '$target'; one of: ${targets[*]}" >&2; exit 2; }

scratch=.build-fuzz
# SwiftPM passes `-sanitize=fuzzer -sanitize=address` to swiftc as two flags, and swiftc keeps only
# the last: the Swift code was built without coverage counters, so libFuzzer fuzzed blind ("Is
# the code instrumented for coverage?"). The combined flag, last on the line, instruments it.
flags=(--product SpotLinkFuzz --scratch-path "$scratch" --sanitize fuzzer --sanitize address
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING)
if [[ -z "${SPOTLINK_FUZZ_NO_BUILD:-}" ]]; then
    swift build "${flags[@]}" 2>&1 | grep -v "Cannot export local symbol" >&2
fi
binary="$(swift build "${flags[@]}" --show-bin-path)/SpotLinkFuzz"

corpus="$scratch/corpus/$target"
crashes="Fuzz/crashes/$target"
mkdir -p "$corpus" "$crashes"
cp -n Fuzz/seeds/"$target"/* "$corpus"/ 2>/dev/null || true
if [[ "$target" == decoders || "$target" == fast-decoding ]]; then cp -n Sources/SpotifyTesting/Fixtures/*.json "$corpus"/; fi

echo "fuzzing $target for ${seconds}s (corpus $corpus: $(ls "$corpus" | wc -l) inputs)" >&2
# SWIFT_BACKTRACE: the Swift runtime's crash handler would fight AddressSanitizer's report.
SPOTLINK_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$binary" "$corpus" \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$crashes/" \
    -print_final_stats=1 "$@"
