#!/usr/bin/env python3
"""Copies the compiled examples into the Markdown that shows them: each `// README example N
begins` … `ends` region into the README's Nth ```swift block, and each `// SwiftUIBindings example N`
region into SpotifyLinkUI.docc/SwiftUIBindings.md's Nth block (its block 2 is README example 2).

The regions live in Tests/DocumentationTests/ReadmeExamples.swift (compiled with the tests) and in
AppleCheck/Examples (the SwiftUI apps' files, compiled by scripts/check-apple.sh ios). A region that
begins with its imports is an app's whole file and replaces the block whole; otherwise the block
keeps its own import lines. ReadmeTests checks the two sides agree; this writes the Markdown side
after an example changed.

    scripts/sync-readme-examples.py
"""
import os, re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
paths = [os.path.join(ROOT, "Tests/DocumentationTests/ReadmeExamples.swift")]
examples_root = os.path.join(ROOT, "AppleCheck/Examples")
for app in sorted(os.listdir(examples_root)):
    for name in sorted(os.listdir(os.path.join(examples_root, app))):
        path = os.path.join(examples_root, app, name)
        if not os.path.islink(path):
            paths.append(path)
lines = "\n".join(open(path, encoding="utf-8").read() for path in paths).split("\n")

examples = {}
for index, line in enumerate(lines):
    match = re.search(r"// (\w+) example (\d+) begins$", line)
    if not match:
        continue
    kind, number = match.group(1), int(match.group(2))
    end = next(i for i in range(index, len(lines)) if lines[i].endswith(f"// {kind} example {number} ends"))
    indent = len(line) - len(line.lstrip(" "))
    examples[(kind, number)] = [l[indent:] if l.startswith(" " * indent) else l for l in lines[index + 1:end]]


def write(path, blocks):
    text = open(path, encoding="utf-8").read().split("\n")
    out, block, number = [], None, 0
    for line in text:
        if block is None and line == "```swift":
            number += 1
            block = []
            out.append(line)
        elif block is not None and line == "```":
            example = blocks.get(number)
            if example is None:
                out.extend(block)
            elif example and example[0].startswith("import "):
                out.extend(example)
            else:
                imports = [l for l in block if l.startswith("import ")]
                out.extend(imports + ([""] if imports else []) + example)
            out.append(line)
            block = None
        elif block is not None:
            block.append(line)
        else:
            out.append(line)
    open(path, "w", encoding="utf-8").write("\n".join(out))


readme = {number: lines for (kind, number), lines in examples.items() if kind == "README"}
write(os.path.join(ROOT, "README.md"), readme)
bindings = {number: lines for (kind, number), lines in examples.items() if kind == "SwiftUIBindings"}
bindings[2] = readme[2]
write(os.path.join(ROOT, "Sources/SpotifyLinkUI/SpotifyLinkUI.docc/SwiftUIBindings.md"), bindings)
print(f"README: examples {sorted(readme)} written; SwiftUIBindings.md: {sorted(bindings)}")
