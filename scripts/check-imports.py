#!/usr/bin/env python3
"""Checks that every target declares in Package.swift the modules it imports, declares none it does
not import, and that the dependency graph is the one allowed: every library target has an allow-list
of what it may use (an app library never reaches Hummingbird, and SwiftNIO only on Linux, where it
carries the transport), no library product imports test or emulator code, and the CLI imports
neither the test library nor the UI library. A new library target fails until it has its list.

    scripts/check-imports.py        # exit 1 with the offending targets listed
"""
import glob, json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Musl", "Darwin",
          "Synchronization", "Testing", "XCTest", "Security", "Observation", "os", "_Concurrency", "SwiftUI",
          "UIKit", "AppKit", "AuthenticationServices", "WidgetKit", "ActivityKit", "AppIntents", "DeviceCheck",
          "CoreFoundation"}
# The system modules a target may import, where fewer than SYSTEM: an app extension's product
# stays small (a widget's process is killed at about 30 MB), so no SwiftUI, no networking: the C
# library (for lstat) and ActivityKit (its Live Activity's attributes) only.
SYSTEM_ONLY = {"SpotifyLinkExtensions": {"Foundation", "FoundationEssentials", "ActivityKit", "Darwin", "Glibc", "Musl"}}
# What each library target may depend on; LINUX_ONLY dependencies must carry a Linux condition.
ALLOWED = {
    "SpotifyLinkSupport": set(),
    "JSONReading": set(),
    "SpotifyLinkExtensions": set(),
    "AppAttest": {"Crypto", "X509", "SwiftASN1"},
    "SpotifyWebAPI": {"SpotifyLinkSupport", "JSONReading", "HTTPTypes", "HTTPTypesFoundation", "Logging"},
    "SpotifyAuth": {"SpotifyLinkSupport", "SpotifyWebAPI", "Crypto", "HTTPTypes", "Logging"},
    "PlaylistLinks": {"SpotifyLinkSupport", "SpotifyWebAPI", "HTTPTypes"},
    "SpotifyLinkSQLite": {"SpotifyLinkSupport", "SpotifyWebAPI", "PlaylistLinks", "GRDB"},
    "SpotifyNowPlaying": {"SpotifyLinkSupport", "SpotifyWebAPI"},
    "SpotifyLinkServices": {"SpotifyLinkSupport", "SpotifyWebAPI", "SpotifyAuth", "PlaylistLinks", "SpotifyLinkSQLite",
                            "HTTPTypes", "Logging", "SpotifyLinkExtensions"},
    "SpotifyLinkUI": {"SpotifyLinkSupport", "SpotifyWebAPI", "SpotifyAuth", "PlaylistLinks", "SpotifyLinkSQLite",
                      "SpotifyNowPlaying", "SpotifyLinkServices", "SpotifyLinkExtensions"},
    "SpotifyLinkPostgres": {"PlaylistLinks", "SpotifyAuth", "SpotifyWebAPI", "SpotifyLinkSupport", "Crypto", "PostgresNIO", "NIOSSL", "Logging"},
    "LocalHTTPServer": {"SpotifyLinkSupport", "Hummingbird", "HummingbirdCore", "Logging", "NIOCore", "NIOPosix",
                        "ServiceLifecycle"},
    "SpotifyAuthLoopback": {"SpotifyLinkSupport", "SpotifyWebAPI", "SpotifyAuth", "LocalHTTPServer", "HTTPTypes",
                            "Hummingbird", "HummingbirdCore", "Logging", "NIOCore"},
    "SpotifyEmulator": {"SpotifyLinkSupport", "LocalHTTPServer", "Crypto", "HTTPTypes", "Hummingbird", "Logging",
                        "NIOCore"},
    "VirtualTime": {"SpotifyLinkSupport", "SpotifyWebAPI"},
    "SpotifyTesting": {"SpotifyLinkSupport", "SpotifyWebAPI", "SpotifyEmulator", "HTTPTypes", "VirtualTime",
                       "PlaylistLinks", "SpotifyAuth", "LocalHTTPServer", "AppAttest", "Crypto", "X509", "SwiftASN1"},
    # The server for signed-out search: never linked by an app. PostgreSQL only with its trait.
    "SpotifySearchService": {"AppAttest", "SpotifyWebAPI", "SpotifyAuth", "SpotifyLinkSQLite", "LocalHTTPServer",
                             "Crypto", "X509", "GRDB", "HTTPTypes", "Hummingbird", "HummingbirdCore", "Logging",
                             "NIOCore", "Prometheus", "ServiceLifecycle", "UnixSignals", "SpotifyLinkSupport",
                             "SpotifyLinkPostgres", "PostgresNIO"},
    "EmulatorCommandLine": {"SpotifyEmulator", "ArgumentParser"},
    # The cost workers' measuring loop: the allocation counter only.
    "CostMeasure": {"MallocInterposerSwift"},
    # spotlink's platform-specific code, compiled for macOS by the Apple check: Foundation only.
    "SpotLinkSystem": {"SpotifyLinkSupport"},
    "SpotLinkFuzzTargets": {"SpotifyWebAPI", "SpotifyAuth", "SpotifyEmulator", "AppAttest", "SpotifyLinkExtensions",
                            "Crypto", "SpotifySearchService", "HTTPTypes", "Logging"},
    # The test targets' one helper for the PostgreSQL server of a run (Tests/Helpers).
    "PostgresTestServer": {"SpotifyLinkPostgres", "SpotifyWebAPI", "PostgresNIO", "Logging"},
}
LINUX_ONLY = {"SpotifyWebAPI": {"AsyncHTTPClient", "NIOCore", "NIOHTTP1", "NIOPosix"}}
FORBIDDEN = {
    "SpotifyWebAPI": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
    "SpotifyAuth": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
    "SpotifyAuthLoopback": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
    "PlaylistLinks": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
    "SpotifyLinkSQLite": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
    "SpotifyNowPlaying": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI", "PlaylistLinks"},
    "SpotifyLinkServices": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI", "SpotifyNowPlaying"},
    "SpotifyLinkUI": {"SpotifyTesting", "SpotifyEmulator"},
    "SpotifyEmulator": {"SpotifyWebAPI", "SpotifyAuth", "PlaylistLinks", "SpotifyTesting"},
    "SpotLink": {"SpotifyTesting", "SpotifyLinkUI"},
    "SpotifySearchService": {"SpotifyTesting", "SpotifyEmulator", "SpotifyLinkUI"},
}
# What a target must not reach even through the targets it depends on: the server product and the
# links' values link no SQLite, now playing links no store, and no app-facing product carries the
# virtual clock, the emulator or the test helpers.
NEVER_REACHES = {
    "PlaylistLinks": {"GRDB", "SpotifyLinkSQLite", "VirtualTime"},
    "SpotifyLinkUI": {"VirtualTime", "SpotifyTesting", "SpotifyEmulator", "PostgresNIO", "AppAttest", "X509"},
    "SpotifyLinkPostgres": {"GRDB", "SpotifyLinkSQLite"},
    "SpotifyNowPlaying": {"GRDB", "PlaylistLinks", "SpotifyLinkSQLite", "PostgresNIO", "VirtualTime"},
}
IMPORT = re.compile(r"^\s*(?:@_spi\(\w+\) )?(?:@testable |@_exported public |public |package |internal |@_implementationOnly )?import (\w+)\s*$", re.M)

package = json.loads(subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True, cwd=ROOT,
                                    check=True).stdout)
problems = []
direct = {t["name"]: {value[0] for dependency in t["dependencies"] for value in dependency.values()}
          for t in package["targets"]}


def reach(name, seen=None):
    """Every target and product `name` depends on, through the package's own targets."""
    seen = set() if seen is None else seen
    for dependency in direct.get(name, set()):
        if dependency not in seen:
            seen.add(dependency)
            reach(dependency, seen)
    return seen


for name, never in NEVER_REACHES.items():
    reached = sorted(reach(name) & never)
    if reached:
        problems.append(f"{name} reaches {', '.join(reached)} through its dependencies")
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
    if target["type"] == "regular":
        if name not in ALLOWED:
            problems.append(f"{name} has no allow-list in scripts/check-imports.py: add what it may use")
        else:
            linux = LINUX_ONLY.get(name, set())
            system = SYSTEM_ONLY.get(name, SYSTEM)
            outside = sorted((imported | declared) - ALLOWED[name] - linux - system - {name})
            if outside:
                forbidden = sorted(set(forbidden) | set(outside))
            for dependency in target["dependencies"]:
                for value in dependency.values():
                    platforms = ((value[-1] or {}).get("platformNames") if isinstance(value[-1], dict) else None)
                    if value[0] in linux and platforms != ["linux"]:
                        problems.append(f"{name} may use {value[0]} only on Linux (condition: .when(platforms: [.linux]))")
    for kind, names in (("imports undeclared", undeclared), ("declares unused", unused), ("must not use", forbidden)):
        if names:
            problems.append(f"{name} {kind}: {', '.join(names)}")
if problems:
    print("\n".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"imports: {len(package['targets'])} targets declare what they import, and the layers point one way")
