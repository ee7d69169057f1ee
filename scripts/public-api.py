#!/usr/bin/env python3
"""Lists the public API of the library products from the compiler's symbol graphs.

    swift package dump-symbol-graph --minimum-access-level public
    scripts/public-api.py                 # writes API/public-api.txt
    scripts/public-api.py --check         # fails, with a diff, when the API differs from it, and
                                          # when a public symbol has no doc comment
    scripts/public-api.py --stats         # counts per module, and symbols without a doc comment

One line per public symbol (module, kind, path and declaration) and per public conformance. Synthesized members (from
protocol extensions of other modules) are left out; they follow from the conformances listed. So are the conformances
the compiler implies (SendableMetatype of every Sendable type, Copyable and Escapable), which a toolchain bump would
otherwise churn.
"""
import difflib, glob, json, os, sys

PRODUCTS = ["SpotifyWebAPI", "SpotifyAuth", "SpotifyAuthLoopback", "PlaylistLinks", "PlaylistLinksSQLite", "SpotifyNowPlaying", "PlaylistLinksPostgres", "SpotifyLinkCore", "SpotifyLinkUI", "SpotifyEmulator", "SpotifyTesting", "VirtualTime"]
# Outside the semantic-versioning promise (README, "Versions"): they follow Spotify's changes.
TEST_SUPPORT = {"SpotifyEmulator", "SpotifyTesting", "VirtualTime"}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "API", "public-api.txt")


def graphs():
    found = glob.glob(os.path.join(ROOT, ".build", "*", "symbolgraph")) + glob.glob(os.path.join(ROOT, ".build", "symbolgraph"))
    if not found:
        sys.exit("no symbol graphs: run 'swift package dump-symbol-graph --minimum-access-level public' first")
    return found[0]


# Conformances the compiler adds by itself: they say nothing about the API and change with the toolchain.
IMPLIED_CONFORMANCES = {"Swift.SendableMetatype", "Swift.Copyable", "Swift.Escapable"}

# Members that implement a standard protocol's requirement take its documentation.
STANDARD_WITNESSES = {"description", "debugDescription", "init(from:)", "encode(to:)", "hash(into:)", "==(_:_:)", "<(_:_:)",
                      "rawValue", "init(rawValue:)", "allCases", "id", "errorDescription", "testDescription", "~=(_:_:)",
                      "makeIterator()", "next()", "makeAsyncIterator()"}


def inherited_docs(graph):
    """Members documented by the protocol requirement they implement (DocC shows its comment)."""
    requirements, conformances, members = {}, {}, {}
    titles = {symbol["identifier"]["precise"]: symbol["names"]["title"] for symbol in graph["symbols"]}
    for relation in graph.get("relationships", []):
        if relation["kind"] in ("requirementOf", "optionalRequirementOf"):
            requirements.setdefault(relation["target"], set()).add(titles.get(relation["source"]))
        elif relation["kind"] == "conformsTo":
            conformances.setdefault(relation["source"], set()).add(relation["target"])
        elif relation["kind"] == "memberOf":
            members[relation["source"]] = relation["target"]
    inherited = set()
    for member, owner in members.items():
        names = set().union(*(requirements.get(protocol, set()) for protocol in conformances.get(owner, set())))
        if titles.get(member) in names or titles.get(member) in STANDARD_WITNESSES:
            inherited.add(member)
    return inherited


def symbols():
    folder = graphs()
    rows, undocumented = [], {}
    requirements = {}
    for module in PRODUCTS:
        graph = json.load(open(os.path.join(folder, f"{module}.symbols.json")))
        for relation in graph.get("relationships", []):
            if relation["kind"] in ("requirementOf", "optionalRequirementOf"):
                requirements.setdefault(relation["target"], set())
    for module in PRODUCTS:
        files = [os.path.join(folder, f"{module}.symbols.json")] + sorted(glob.glob(os.path.join(folder, f"{module}@*.symbols.json")))
        for path in files:
            if not os.path.exists(path):
                sys.exit(f"missing symbol graph {path}")
            graph = json.load(open(path))
            inherited = inherited_docs(graph)
            names = {symbol["identifier"]["precise"]: ".".join(symbol["pathComponents"]) for symbol in graph["symbols"]
                     if symbol.get("accessLevel") in ("public", "open")}
            for relation in graph.get("relationships", []):
                if relation["kind"] == "conformsTo" and relation["source"] in names:
                    protocol = relation.get("targetFallback") or names.get(relation["target"]) or relation["target"]
                    if protocol in IMPLIED_CONFORMANCES:
                        continue
                    rows.append(f"{module}\tconformance\t{names[relation['source']]}\t: {protocol}")
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                    continue
                declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
                declaration = " ".join(declaration.split())
                extended = os.path.basename(path)[len(module) + 1:-len(".symbols.json")] if "@" in path else ""
                where = ".".join(symbol["pathComponents"])
                if extended:
                    where = f"{extended}:{where}"
                rows.append(f"{module}\t{symbol['kind']['identifier'].removeprefix('swift.')}\t{where}\t{declaration}")
                if not symbol.get("docComment") and symbol["identifier"]["precise"] not in inherited:
                    location = symbol.get("location", {})
                    line = location.get("position", {}).get("line", -1) + 1
                    place = location.get("uri", "").replace("file://" + ROOT + "/", "")
                    undocumented.setdefault(module, []).append(f"{where}  ({place}:{line})")
    return sorted(set(rows)), undocumented


def main():
    rows, undocumented = symbols()
    text = "".join(row + "\n" for row in rows)
    if "--check" in sys.argv:
        baseline = open(BASELINE).read() if os.path.exists(BASELINE) else ""
        if baseline != text:
            sys.stdout.writelines(difflib.unified_diff(baseline.splitlines(True), text.splitlines(True), "API/public-api.txt", "built"))
            print("\nThe public API differs from API/public-api.txt. If the change is meant, run "
                  "scripts/public-api.py and commit the new listing with the change.", file=sys.stderr)
            sys.exit(1)
        missing = [f"{module} {name}" for module, names in undocumented.items() for name in names]
        if missing:
            print("Public symbols without a doc comment:\n  " + "\n  ".join(missing), file=sys.stderr)
            sys.exit(1)
        print(f"public API unchanged: {len(rows)} lines, every symbol documented")
    elif "--stats" in sys.argv:
        for module in PRODUCTS:
            count = sum(1 for row in rows if row.startswith(module + "\t") and "\tconformance\t" not in row)
            print(f"{module}: {count} public, {len(undocumented.get(module, []))} without a doc comment")
        declared = sum(1 for row in rows if "\tconformance\t" not in row)
        support = sum(1 for row in rows if row.split("\t")[0] in TEST_SUPPORT and "\tconformance\t" not in row)
        print(f"total: {declared} public, {sum(len(v) for v in undocumented.values())} without a doc comment")
        print(f"  promised (the README's Versions: the products an app or a server links): {declared - support}")
        print(f"  test support (SpotifyEmulator, SpotifyTesting and the VirtualTime they export; not promised): {support}")
        if "--list" in sys.argv:
            for module, names in undocumented.items():
                for name in names:
                    print(f"  {module} {name}")
    else:
        os.makedirs(os.path.dirname(BASELINE), exist_ok=True)
        open(BASELINE, "w").write(text)
        print(f"wrote {BASELINE}: {len(rows)} lines")


main()
