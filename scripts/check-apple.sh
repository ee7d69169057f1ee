#!/usr/bin/env bash
# Compiles the Apple half of SpotifyLink for an Apple target with the real compiler, on Linux:
#
#     scripts/check-apple.sh ios      # iOS at the package's iOS deployment target (Package.swift)
#     scripts/check-apple.sh macos    # macOS at its macOS deployment target
#
# AppleCheck/check.py builds a small Apple SDK from the toolchain's own interfaces (the standard
# library keeps Apple's availability; Foundation, Dispatch and the dependencies are printed from
# their modules) and stand-ins transcribed from Apple's documentation, with real `@available`
# attributes; then compiles the library targets an app links and, for iOS, the README's and DocC's
# app examples, with warnings as errors: a symbol or runtime feature newer than the deployment target
# fails, as in Xcode. Then every probe of AppleCheck/probes.py (a mistake Apple rejects, and valid
# code it accepts) must be refused, or accepted, as Apple's compiler would. Needs the Linux debug
# build (`swift build`) first: the dependencies' interfaces are printed from it.
set -euo pipefail
cd "$(dirname "$0")/.."
flavor="${1:-}"
case "$flavor" in
  ios | macos) ;;
  *)
    echo "usage: scripts/check-apple.sh ios|macos" >&2
    exit 64
    ;;
esac
python3 AppleCheck/check.py "$flavor" --probes
