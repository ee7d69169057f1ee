#!/usr/bin/env python3
"""Checks that every target declares in Package.swift the modules it imports, declares none it does
not import, and that the layers point one way: no library product imports test or emulator code,
and the CLI imports neither the test library nor the UI library.

    scripts/check-imports.py        # exit 1 with the offending targets listed
"""
import glob, json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl", "Darwin",
          "Synchronization", "Testing", "XCTest", "Security", "Observation", "os", "_Concurrency", "SwiftUI",
          "UIKit", "AppKit", "AuthenticationServices"}
FORBIDDEN = {
    "SpotifyWebAPI": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
    "SpotifyAuth": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
    "SpotifyAuthLoopback": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
    "PlaylistLinks": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
    "SpotifyLinkUI": {"SpotifyTesting", "SpotifyEmulator"},
    "SpotifyEmulator": {"SpotifyWebAPI", "SpotifyAuth", "PlaylistLinks", "SpotifyTesting"},
    "SpotLink": {"SpotifyTesting", "SpotifyLinkUI"},
}
IMPORT = re.compile(r"^\s*(?:@testable |public |package |internal |@_implementationOnly )?import (\w+)\s*$", re.M)

package = json.loads(subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True, cwd=ROOT,
                                    check=True).stdout)
problems = []
for target in package["targets"]:
    name = target["name"]
    path = os.path.join(ROOT, target.get("path") or (("Tests/" if target["type"] == "test" else "Sources/") + name))
    declared = {value[0] for dependency in target["dependencies"] for value in dependency.values()}
    imported = set()
    for file in glob.glob(os.path.join(path, "**", "*.swift"), recursive=True):
        # Lower-case names are Python modules in scripts embedded in strings, not Swift imports.
        imported |= {m for m in IMPORT.findall(open(file, encoding="utf-8").read()) if m[0].isupper()}
    undeclared = sorted(imported - declared - SYSTEM - {name})
    unused = sorted(declared - imported)
    forbidden = sorted((imported | declared) & FORBIDDEN.get(name, set()))
    for kind, names in (("imports undeclared", undeclared), ("declares unused", unused), ("must not use", forbidden)):
        if names:
            problems.append(f"{name} {kind}: {', '.join(names)}")
if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"imports: {len(package['targets'])} targets declare what they import, and the layers point one way")
