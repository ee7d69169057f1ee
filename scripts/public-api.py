#!/usr/bin/env python3
"""Lists the public API of the library products from the compiler's symbol graphs.

    swift package dump-symbol-graph --minimum-access-level public --include-spi-symbols
    scripts/public-api.py                 # writes API/public-api.txt and API/spi-api.txt
    scripts/public-api.py --check         # fails, with a diff, when either differs from the build, and
                                          # when a public or SPI symbol has no doc comment
    scripts/public-api.py --stats         # per product: top-level names, entry points (standard
                                          # witnesses and restated requirements apart), SPI symbols,
                                          # and the share of entry points the README, DocC and the
                                          # app examples name

SPI symbols (`@_spi(Storage)`, `@_spi(Transport)`: the interfaces store and transport implementers
import) are outside the promise: they are listed apart in API/spi-api.txt, so a change to them is
seen too.

One line per public symbol (module, kind, path and declaration) and per public conformance. Synthesized members (from
protocol extensions of other modules) are left out; they follow from the conformances listed. So are the conformances
the compiler implies (SendableMetatype of every Sendable type, Copyable and Escapable), which a toolchain bump would
otherwise churn.
"""
import difflib, glob, json, os, re, sys

PRODUCTS = ["SpotifyWebAPI", "SpotifyAuth", "SpotifyAuthLoopback", "PlaylistLinks", "SpotifyLinkSQLite", "SpotifyNowPlaying", "SpotifyLinkPostgres", "SpotifyLinkServices", "SpotifyLinkUI", "SpotifyLinkExtensions", "SpotifyEmulator", "SpotifyTesting", "VirtualTime"]
# Outside the semantic-versioning promise (README, "Versions"): they follow Spotify's changes.
TEST_SUPPORT = {"SpotifyEmulator", "SpotifyTesting", "VirtualTime"}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "API", "public-api.txt")
SPI_BASELINE = os.path.join(ROOT, "API", "spi-api.txt")
ENTRY_KINDS = {"method", "init", "type.method", "func", "func.op"}


def graphs():
    found = glob.glob(os.path.join(ROOT, ".build", "*", "symbolgraph")) + glob.glob(os.path.join(ROOT, ".build", "symbolgraph"))
    if not found:
        sys.exit("no symbol graphs: run 'swift package dump-symbol-graph --minimum-access-level public --include-spi-symbols' first")
    return found[0]


# Conformances the compiler adds by itself: they say nothing about the API and change with the toolchain.
IMPLIED_CONFORMANCES = {"Swift.SendableMetatype", "Swift.Copyable", "Swift.Escapable"}

# Members that implement a standard protocol's requirement take its documentation.
STANDARD_WITNESSES = {"description", "debugDescription", "init(from:)", "encode(to:)", "hash(into:)", "==(_:_:)", "<(_:_:)",
                      "rawValue", "init(rawValue:)", "allCases", "id", "errorDescription", "testDescription", "~=(_:_:)",
                      "makeIterator()", "next()", "makeAsyncIterator()"}


def inherited_docs(graph):
    """Members documented by the protocol requirement they implement (DocC shows its comment)."""
    restated, witnesses = restated_ids(graph)
    return restated | witnesses


def spi_ids(graph):
    """The symbols outside the promise: marked SPI, or members of an SPI type."""
    spi = {symbol["identifier"]["precise"] for symbol in graph["symbols"] if symbol.get("spi")}
    owners = {relation["source"]: relation["target"] for relation in graph.get("relationships", [])
              if relation["kind"] == "memberOf"}
    for symbol in graph["symbols"]:
        precise, seen = symbol["identifier"]["precise"], set()
        owner = owners.get(precise)
        while owner and owner not in seen:
            if owner in spi:
                spi.add(precise)
                break
            seen.add(owner)
            owner = owners.get(owner)
    return spi


def restated_ids(graph):
    """Members that restate a requirement of a protocol their type conforms to, or a standard witness."""
    requirements, conformances, owners = {}, {}, {}
    titles = {symbol["identifier"]["precise"]: symbol["names"]["title"] for symbol in graph["symbols"]}
    for relation in graph.get("relationships", []):
        if relation["kind"] in ("requirementOf", "optionalRequirementOf"):
            requirements.setdefault(relation["target"], set()).add(titles.get(relation["source"]))
        elif relation["kind"] == "conformsTo":
            conformances.setdefault(relation["source"], set()).add(relation["target"])
        elif relation["kind"] == "memberOf":
            owners[relation["source"]] = relation["target"]
    restated, witnesses = set(), set()
    for member, owner in owners.items():
        if titles.get(member) in STANDARD_WITNESSES:
            witnesses.add(member)
        elif titles.get(member) in set().union(*(requirements.get(p, set()) for p in conformances.get(owner, set()))):
            restated.add(member)
    return restated, witnesses


class Symbol:
    def __init__(self, module, kind, where, path, declaration, title, top_level, spi, restated, witness):
        self.module, self.kind, self.where, self.path, self.declaration = module, kind, where, path, declaration
        self.title, self.top_level, self.spi, self.restated, self.witness = title, top_level, spi, restated, witness

    def row(self):
        return f"{self.module}\t{self.kind}\t{self.where}\t{self.declaration}"


def symbols():
    """(public rows, SPI rows, undocumented, the public symbols) from the symbol graphs."""
    folder = graphs()
    rows, spi_rows, undocumented, found = [], [], {}, []
    for module in PRODUCTS:
        files = [os.path.join(folder, f"{module}.symbols.json")] + sorted(glob.glob(os.path.join(folder, f"{module}@*.symbols.json")))
        for path in files:
            if not os.path.exists(path):
                sys.exit(f"missing symbol graph {path}")
            graph = json.load(open(path))
            inherited = inherited_docs(graph)
            spi = spi_ids(graph)
            restated, witnesses = restated_ids(graph)
            names = {symbol["identifier"]["precise"]: ".".join(symbol["pathComponents"]) for symbol in graph["symbols"]
                     if symbol.get("accessLevel") in ("public", "open")}
            for relation in graph.get("relationships", []):
                if relation["kind"] == "conformsTo" and relation["source"] in names:
                    protocol = relation.get("targetFallback") or names.get(relation["target"]) or relation["target"]
                    if protocol in IMPLIED_CONFORMANCES:
                        continue
                    row = f"{module}\tconformance\t{names[relation['source']]}\t: {protocol}"
                    (spi_rows if relation["source"] in spi or relation["target"] in spi else rows).append(row)
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                precise = symbol["identifier"]["precise"]
                if "::SYNTHESIZED::" in precise:
                    continue
                declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
                declaration = " ".join(declaration.split())
                extended = os.path.basename(path)[len(module) + 1:-len(".symbols.json")] if "@" in path else ""
                where = ".".join(symbol["pathComponents"])
                if extended:
                    where = f"{extended}:{where}"
                entry = Symbol(module, symbol["kind"]["identifier"].removeprefix("swift."), where,
                               symbol["pathComponents"], declaration,
                               symbol["names"]["title"], len(symbol["pathComponents"]) == 1 and not extended,
                               precise in spi, precise in restated, precise in witnesses)
                (spi_rows if entry.spi else rows).append(entry.row())
                if not entry.spi:
                    found.append(entry)
                if not symbol.get("docComment") and precise not in inherited:
                    location = symbol.get("location", {})
                    line = location.get("position", {}).get("line", -1) + 1
                    place = location.get("uri", "").replace("file://" + ROOT + "/", "")
                    undocumented.setdefault(module, []).append(f"{where}  ({place}:{line})")
    if not spi_rows:
        sys.exit("no SPI symbol in the graphs: dump them with --include-spi-symbols")
    return sorted(set(rows)), sorted(set(spi_rows)), undocumented, found


def usage_corpus():
    """What the README, the DocC articles and the app examples say: where an app learns its calls."""
    paths = [os.path.join(ROOT, "README.md")]
    paths += glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "**", "*.md"), recursive=True)
    paths += glob.glob(os.path.join(ROOT, "AppleCheck", "Examples", "**", "*.swift"), recursive=True)
    return "\n".join(open(path, encoding="utf-8").read() for path in paths)


def named_in(entry, corpus):
    """Whether `corpus` calls `entry`: an initializer by its type's name, anything else by its base name."""
    base = entry.title.split("(")[0]
    if entry.kind == "init":
        owner = entry.path[-2] if len(entry.path) > 1 else base
        return re.search(r"\b%s\(" % re.escape(owner), corpus) is not None
    if entry.kind == "func.op":
        return True
    return re.search(r"[.\s(]%s\(" % re.escape(base), corpus) is not None


def stats(found, spi_rows, undocumented):
    corpus = usage_corpus()
    print(f"{'product':<22}{'names':>6}{'entry':>7}{'used':>6}{'witn.':>7}{'restated':>9}{'promised':>9}{'SPI':>6}")
    totals = [0] * 7
    for module in PRODUCTS:
        mine = [entry for entry in found if entry.module == module and entry.kind != "conformance"]
        names = sum(entry.top_level for entry in mine)
        entries = [e for e in mine if e.kind in ENTRY_KINDS and not e.witness and not e.restated]
        used = sum(named_in(e, corpus) for e in entries)
        witnesses = sum(e.witness for e in mine)
        restated = sum(e.restated for e in mine)
        spi = sum(1 for row in spi_rows if row.startswith(module + "\t") and "\tconformance\t" not in row)
        share = f"{100 * used // len(entries)}%" if entries else "-"
        support = " (test support)" if module in TEST_SUPPORT else ""
        print(f"{module:<22}{names:>6}{len(entries):>7}{share:>6}{witnesses:>7}{restated:>9}{len(mine):>9}{spi:>6}{support}")
        if module not in TEST_SUPPORT:
            for index, value in enumerate((names, len(entries), used, witnesses, restated, len(mine), spi)):
                totals[index] += value
    names, entries, used, witnesses, restated, promised, spi = totals
    print(f"promised (the README's Versions: the products an app or a server links): {promised} symbols")
    print(f"  without standard witnesses and restated requirements: {promised - witnesses - restated}")
    print(f"  top-level names {names}; entry points {entries}, {used} ({100 * used // max(entries, 1)}%) named in the README, DocC or the app examples")
    print(f"  SPI (storage and transport implementers, API/spi-api.txt): {spi}")
    print(f"  without a doc comment: {sum(len(v) for v in undocumented.values())}")
    if "--list" in sys.argv:
        for entry in found:
            if entry.module not in TEST_SUPPORT and entry.kind in ENTRY_KINDS and not entry.witness \
                    and not entry.restated and not named_in(entry, corpus):
                print(f"  unnamed: {entry.module} {entry.where}")


def check(path, text, name):
    baseline = open(path).read() if os.path.exists(path) else ""
    if baseline != text:
        sys.stdout.writelines(difflib.unified_diff(baseline.splitlines(True), text.splitlines(True), name, "built"))
        print(f"\nThe API differs from {name}. If the change is meant, run "
              "scripts/public-api.py and commit the new listings with the change.", file=sys.stderr)
        sys.exit(1)


def main():
    # Every library product of Package.swift is listed here (VirtualTime is a target SpotifyTesting exports).
    declared = set(re.findall(r'\.library\(name: "(\w+)"', open(os.path.join(ROOT, "Package.swift")).read()))
    if declared - set(PRODUCTS):
        sys.exit(f"library products missing from PRODUCTS in scripts/public-api.py: {sorted(declared - set(PRODUCTS))}")
    rows, spi_rows, undocumented, found = symbols()
    text = "".join(row + "\n" for row in rows)
    spi_text = "".join(row + "\n" for row in spi_rows)
    if "--check" in sys.argv:
        check(BASELINE, text, "API/public-api.txt")
        check(SPI_BASELINE, spi_text, "API/spi-api.txt")
        missing = [f"{module} {name}" for module, names in undocumented.items() for name in names]
        if missing:
            print("Public symbols without a doc comment:\n  " + "\n  ".join(missing), file=sys.stderr)
            sys.exit(1)
        print(f"public API unchanged: {len(rows)} lines, {len(spi_rows)} SPI lines, every symbol documented")
    elif "--stats" in sys.argv:
        stats(found, spi_rows, undocumented)
    else:
        os.makedirs(os.path.dirname(BASELINE), exist_ok=True)
        open(BASELINE, "w").write(text)
        open(SPI_BASELINE, "w").write(spi_text)
        print(f"wrote {BASELINE}: {len(rows)} lines; {SPI_BASELINE}: {len(spi_rows)} lines")


main()
