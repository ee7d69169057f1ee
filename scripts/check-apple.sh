#!/usr/bin/env bash
# Type-checks the Apple half of SpotifyLink on Linux, for iOS or for macOS:
#
#     scripts/check-apple.sh ios
#     scripts/check-apple.sh macos
#
# AppleCheck/ is a small package that compiles the library targets an app links (from Sources/)
# beside stand-in modules named as Apple's frameworks, whose declarations are transcribed from
# Apple's documentation with their availability (AppleCheck/Package.swift says how). Every line of
# Sources/ under `canImport(UIKit)` (the iOS family), `canImport(AppKit)` (macOS),
# `canImport(Security)` or `canImport(AuthenticationServices)` compiles as that platform compiles it;
# a symbol used but not declared, or unavailable on the platform, fails the check. In the ios
# flavor the README's and DocC's app examples compile too, as files of an app. Warnings are errors.
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
echo "== Apple check ($flavor): the Apple-only lines of Sources/ and the app examples, against the stand-ins"
SPOTLINK_APPLE_FLAVOR="$flavor" swift build --package-path AppleCheck --scratch-path ".build-apple-$flavor" \
  -Xswiftc -warnings-as-errors "${@:2}"
echo "Apple check ($flavor): passed"
