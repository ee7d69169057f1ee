#!/usr/bin/env python3
"""Every declaration of the stand-ins (AppleCheck/StandIns/), with its source and availability.

    python3 AppleCheck/standins.py            # the table: module, declaration, source, availability
    python3 AppleCheck/standins.py --check    # fails, naming them, when one lacks either

A stand-in is only as good as its transcription: each public declaration names the page of
Apple's documentation it was transcribed from (a C declaration of Darwin: its header), and its
availability, as an `@available` attribute (its own or its enclosing declaration's) or in its
documentation comment (`(iOS 13, macOS 10.15)`; Darwin's file says it for all of it). What only
makes the stand-ins compile (the `StandIn…` types, a view's `body`, a result builder's `build…`
functions, which Apple documents on the builder's page), and the underscored hooks the compiler
calls for bridging (`_bridgeToObjectiveC`, `_convertErrorToNSError`), which Apple documents
nowhere, are scaffolding, counted apart.
`AppleCheck/check.py` runs the check before it builds anything, so CI fails on a declaration
without either.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STAND_INS = os.path.join(HERE, "StandIns")

DECLARATION = re.compile(
    r"^(?P<indent>\s*)(?:@[\w()., *:]+\s+)*(?:(?:nonisolated|public|open|static|final|mutating|override|"
    r"indirect|required|convenience|@MainActor|@preconcurrency|@discardableResult)\s+)*"
    r"(?P<access>public|open)\s+(?:(?:static|final|nonisolated|mutating|override|required|convenience|"
    r"indirect)\s+)*(?P<kind>class|struct|enum|protocol|typealias|actor|func|var|let|init\??|subscript|case)"
    r"\b\s*(?P<name>[\w`]+)?")
EXTENSION = re.compile(r"^(?P<indent>\s*)(?:@[\w()., *:]+\s+)*extension\s+(?P<name>[\w.]+)")
LINK = re.compile(r"https://developer\.apple\.com/documentation/\S+?(?=[:.,;]?(\s|$))")
HEADER = re.compile(r"`[\w/]+\.h`")
AVAILABILITY_TEXT = re.compile(r"\b(iOS|macOS) \d+(\.\d+)?\b|not (iOS|macOS)\b")
SCAFFOLDING_NAMES = re.compile(r"^(StandIn\w*|body|build\w+|_\w+)$")


def module_of(path):
    relative = os.path.relpath(path, STAND_INS)
    folder = os.path.dirname(relative)
    return folder or os.path.basename(path).split("+")[0].replace(".swift", "")


def files():
    for directory, _, names in sorted(os.walk(STAND_INS)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def declarations():
    """Every public declaration: (module, name, file:line, source, availability, scaffolding)."""
    found = []
    for path in files():
        lines = open(path).read().split("\n")
        header = "\n".join(line for line in lines[:12] if line.startswith("//"))
        file_availability = "iOS 2.0, macOS 10.0 (the file's header)" if "in iOS since" in header else None
        comment, attributes = [], []
        # The enclosing declarations: (indent, name, source, availability).
        stack = []
        section_header = None
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            indent = len(line) - len(line.lstrip())
            if stripped.startswith("// MARK:"):
                headers = re.findall(r"[\w/]+\.h\b", stripped)
                section_header = ", ".join(f"`{h}`" for h in headers) or None
            if stripped.startswith("}"):
                while stack and stack[-1][0] >= indent:
                    stack.pop()
            if stripped.startswith("///"):
                comment.append(stripped)
                continue
            if stripped.startswith("@") and not re.match(r"@\w+(\(.*\))?\s+\S", stripped.replace("@available", "@x")):
                attributes.append(stripped)
                continue
            if stripped.startswith("@available"):
                attributes.append(stripped)
            text = " ".join(comment)
            own_availability = next((a for a in attributes if a.startswith("@available")), None)
            if re.search(r"@available\(", line) and not own_availability:
                own_availability = re.search(r"@available\([^)]*\)", line).group(0)
            extension = EXTENSION.match(line)
            match = DECLARATION.match(line) if not extension else None
            if extension:
                availability = own_availability or (stack[-1][3] if stack else None)
                if not availability and AVAILABILITY_TEXT.search(text):
                    availability = AVAILABILITY_TEXT.search(text).group(0) + " (documentation comment)"
                source = LINK.search(text)
                if "{" in line and not line.rstrip().endswith("}"):
                    stack.append((indent, extension.group("name"), source.group(0) if source else None, availability))
            elif match:
                kind = match.group("kind")
                name = match.group("name") or kind
                if kind.startswith("init"):
                    name = "init"
                source = (LINK.search(text) or HEADER.search(text))
                source = source.group(0) if source else None
                availability = own_availability
                if not availability and AVAILABILITY_TEXT.search(text):
                    availability = AVAILABILITY_TEXT.search(text).group(0) + " (documentation comment)"
                if not availability:
                    availability = next((s[3] for s in reversed(stack) if s[3]), None) or file_availability
                # A member without a page of its own: its type's page, which lists it among its
                # topics; a C declaration: the header its section names (`// MARK: … (sys/stat.h)`).
                if not source and stack and any(s[2] for s in stack):
                    source = next(s[2] for s in reversed(stack) if s[2]) + " (its type's page)"
                if not source and section_header:
                    source = section_header + " (its section's header)"
                owner = ".".join(s[1] for s in stack if s[1])
                qualified = f"{owner}.{name}" if owner else name
                scaffolding = bool(SCAFFOLDING_NAMES.match(name)) or owner.split(".")[0].startswith("StandIn")
                found.append((module_of(path), qualified, f"{os.path.relpath(path, HERE)}:{number}", source,
                              availability, scaffolding))
                if kind in ("class", "struct", "enum", "protocol", "actor") and "{" in line \
                        and not line.rstrip().endswith("}"):
                    stack.append((indent, name, source, availability))
            elif "{" in line and not line.rstrip().endswith("}") and stripped and not stripped.startswith("//"):
                stack.append((indent, None, None, None))
            comment, attributes = [], []
    return found


def main():
    rows = declarations()
    lacking = [r for r in rows if not r[5] and (not r[3] or not r[4])]
    if "--check" in sys.argv[1:]:
        for module, name, where, source, availability, _ in lacking:
            missing = " and ".join(w for w, v in (("its source", source), ("its availability", availability)) if not v)
            print(f"{where}: {module} {name} lacks {missing}: add the Apple documentation link and "
                  f"`@available` it was transcribed from", file=sys.stderr)
        documented = len([r for r in rows if not r[5]])
        print(f"stand-ins: {documented - len(lacking)} of {documented} declarations name their source and "
              f"availability ({len(rows) - documented} scaffolding)")
        sys.exit(1 if lacking else 0)
    print("| module | declaration | source | availability |")
    print("|---|---|---|---|")
    for module, name, where, source, availability, scaffolding in rows:
        if scaffolding:
            continue
        print(f"| {module} | `{name}` | {source or 'NONE'} | {availability or 'NONE'} |")


if __name__ == "__main__":
    main()
