#!/usr/bin/env python3
"""Copies the compiled README examples (Tests/DocumentationTests, between `// README example N
begins` and `… ends`) into the README's Nth ```swift block, keeping that block's import lines.
ReadmeTests checks the two agree; this writes the README side after an example changed.

    scripts/sync-readme-examples.py
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sources = "\n".join(open(os.path.join(ROOT, "Tests/DocumentationTests", name), encoding="utf-8").read()
                    for name in ("ReadmeExamples.swift", "ReadmeSwiftUIExample.swift"))
lines = sources.split("\n")
examples = {}
for index, line in enumerate(lines):
    match = re.search(r"// README example (\d+) begins$", line)
    if not match:
        continue
    number = int(match.group(1))
    end = next(i for i in range(index, len(lines)) if lines[i].endswith(f"// README example {number} ends"))
    indent = len(line) - len(line.lstrip(" "))
    examples[number] = [l[indent:] if l.startswith(" " * indent) else l for l in lines[index + 1:end]]

readme_path = os.path.join(ROOT, "README.md")
readme = open(readme_path, encoding="utf-8").read().split("\n")
out, block, number = [], None, 0
for line in readme:
    if block is None and line == "```swift":
        number += 1
        block = []
        out.append(line)
    elif block is not None and line == "```":
        if number in examples:
            imports = [l for l in block if l.startswith("import ")]
            out.extend(imports + ([""] if imports else []) + examples[number])
        else:
            out.extend(block)
        out.append(line)
        block = None
    elif block is not None:
        block.append(line)
    else:
        out.append(line)
open(readme_path, "w", encoding="utf-8").write("\n".join(out))
print(f"README: examples {sorted(examples)} written")
