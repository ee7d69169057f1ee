#!/usr/bin/env bash
# Builds and runs the tests under ThreadSanitizer, in its own scratch folder. Run it inside the
# keyring session so the Secret Service tests run too:
#   dbus-run-session -- .ci/with-keyring scripts/tsan.sh [swift test flags...]
# Every test runs unless flags (such as --filter) say otherwise.
#
# SPOTLINK_TSAN turns the package's Lock into a pthread mutex, which ThreadSanitizer intercepts:
# the toolchain's Mutex hands over contended locks in uninstrumented code, so ThreadSanitizer would
# report races that are not there (Sources/SpotifyLinkSupport/Lock.swift). No report in project code
# is suppressed; scripts/tsan-suppressions.txt names the one third-party pattern and why (an absolute
# path, so the CLI children the tests start, which inherit TSAN_OPTIONS, read it too).
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(--sanitize thread --scratch-path .build-tsan --traits PostgreSQL -Xswiftc -DSPOTLINK_TSAN)
swift build --build-tests "${flags[@]}"
# The transports' answer deadline (10 s) is for Spotify; an emulator answering a CLI child on a
# loaded two-core machine under ThreadSanitizer is slower, as with SPOTLINK_POSTGRES_DEADLINE.
export SPOTLINK_ANSWER_DEADLINE="${SPOTLINK_ANSWER_DEADLINE:-120}"
export SPOTLINK_COMMAND_DEADLINE="${SPOTLINK_COMMAND_DEADLINE:-600}"
# halt_on_error: the first race fails the run with its report instead of scrolling past.
TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" swift test --skip-build "${flags[@]}" "$@"
