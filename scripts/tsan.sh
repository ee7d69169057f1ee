#!/usr/bin/env bash
# Builds and runs every test under ThreadSanitizer, in its own scratch folder. Run it inside the
# keyring session so the Secret Service tests run too:
#   dbus-run-session -- .ci/with-keyring scripts/tsan.sh [swift test flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests --sanitize thread --scratch-path .build-tsan
# halt_on_error: the first race fails the run with its report instead of scrolling past.
TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" swift test --skip-build --sanitize thread --scratch-path .build-tsan "$@"
