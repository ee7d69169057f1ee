#!/usr/bin/env python3
"""The Apple half of SpotifyLink, compiled by the real compiler for an Apple target.

    python3 AppleCheck/check.py ios      # iOS, at the package's iOS deployment target
    python3 AppleCheck/check.py macos    # macOS, at the package's macOS deployment target
    python3 AppleCheck/check.py ios --probes   # and each probe (a mistake Apple rejects) must fail

Nothing here compiles for Linux. Every module, an app example too, is compiled (`-emit-module`:
SIL and its mandatory diagnostics, not only type-checking) with `-target
x86_64-apple-ios<N>-simulator` (or `x86_64-apple-macos<N>`), where N is read from Package.swift,
against a small Apple SDK made here, at check time, from:

- the toolchain's standard library (`Swift`, `_Concurrency`, `_StringProcessing`, `Synchronization`,
  `Observation`): its textual interfaces keep Apple's `@available` attributes, so the compiler
  refuses a symbol newer than the target (`Mutex`, `Int128`) and a runtime feature newer than it
  (typed-throws function types as values, `@isolated(any)`), with Apple's own diagnostics;
- the toolchain's Foundation and Dispatch, printed from their binary modules by
  `swift-synthesize-interface` (FoundationEssentials keeps Apple's availability for most of its
  API, and marks `homeDirectoryForCurrentUser` unavailable in iOS), with the members
  swift-corelibs-foundation has and Apple lacks on the platform marked unavailable, and Apple's
  own members appended (StandIns/Foundation+Apple.swift);
- the package's dependencies (swift-log, swift-http-types, swift-crypto, GRDB), printed from the
  Linux debug build's modules the same way;
- stand-ins for what the toolchain does not carry (StandIns/): Darwin's C library, Security,
  AuthenticationServices and its SwiftUI cross-import overlay, SwiftUI, UIKit (ios) or AppKit
  (macos), each declaration transcribed from Apple's documentation with its real `@available`.

Then the library targets an app links (the `SpotifyLinkUI` product and what it is made of), with
the settings Package.swift gives them, and in the ios flavor the README's and DocC's app examples
(Examples/, with MemberImportVisibility), compile with warnings as errors. `os(iOS)`,
`canImport(UIKit)` and `#available` mean what they mean on the device.
"""

import atexit
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOOLCHAIN_LINUX = None  # set in main: <toolchain>/usr/lib/swift/linux
STAND_INS = os.path.join(HERE, "StandIns")

# The library product an iOS app adds; its targets (and theirs) are what the check compiles.
APP_PRODUCT = "SpotifyLinkUI"
# The library products an app's extensions add (a widget, a Live Activity): compiled too.
EXTENSION_PRODUCTS = ["SpotifyLinkExtensions"]
# What only a Mac runs: spotlink's platform-specific code (its folders under Application Support, the
# system's `open`, the export's `lstat` checks with Darwin's `mode_t`), compiled in the macos flavor.
# The rest of spotlink, SpotifyAuthLoopback and the servers sit on SwiftNIO, whose C shims need an
# Apple SDK's headers: not compiled here (AppleCheck/README.md).
MACOS_TOOL_TARGETS = ["SpotLinkSystem"]
# The app examples (Examples/<name>/): iOS apps, compiled in the ios flavor.
EXAMPLES = ["JournalApp", "RoutineApp", "LearningApp", "SwiftUIBindingsApp", "DocCSnippets", "JournalUITests",
            "RoutineWidgets", "JournalWidgets", "LearningWidgets"]
# The app extensions' examples: they may import SpotifyLinkExtensions and Apple's frameworks, nothing
# else of the package (a widget's process is killed at about 30 MB; its product stays small).
EXTENSION_EXAMPLES = {"RoutineWidgets", "JournalWidgets", "LearningWidgets"}
EXTENSION_IMPORTS = {"SpotifyLinkExtensions", "SwiftUI", "WidgetKit", "ActivityKit", "AppIntents", "Foundation",
                     "Observation"}


def fail(message):
    print(f"Apple check: {message}", file=sys.stderr)
    sys.exit(1)


def run(command, what, check=True):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        notes = not_transcribed(result.stdout + result.stderr)
        if notes:
            result = subprocess.CompletedProcess(
                result.args, result.returncode, result.stdout, result.stderr + "\n" + "\n".join(notes) + "\n")
    if check and result.returncode != 0:
        sys.stderr.write(result.stdout[-20000:] + result.stderr[-20000:])
        fail(f"{what} did not compile (command: {' '.join(command[:6])} …)")
    return result


# Frameworks the check has only as stand-ins (StandIns/): a name they lack may be Apple's.
STAND_IN_MODULES = ["SwiftUI", "UIKit", "AppKit", "AuthenticationServices", "Security", "Darwin", "XCTest", "WidgetKit",
                    "ActivityKit", "AppIntents", "DeviceCheck"]


def not_transcribed(output):
    """The compiler's complaints about a name no stand-in declares, each as a diagnostic of its
    own: "not transcribed", never Apple's verdict. A name missing from a stand-in type (`type
    'UIImage' has no member 'pngData'`) or module, or missing in scope in a file that imports a
    stand-in framework, while nothing in the package or the stand-ins declares it."""
    declared = stand_in_declarations()
    notes = []
    for match in re.finditer(r"^(?P<file>[^:\n]+\.swift):(?P<line>\d+):\d+: error: (?P<message>.*)$", output, re.M):
        message = match.group("message")
        name, owner = None, None
        member = re.match(r"(?:value of )?type '(?P<type>[^']+)' has no member '(?P<name>[^']+)'", message)
        module = re.match(r"module '(?P<module>\w+)' has no member named '(?P<name>[^']+)'", message)
        scope = re.match(r"cannot find (?:type )?'(?P<name>[^']+)' in scope", message)
        if member:
            base = re.sub(r"[<?!(].*", "", member.group("type")).split(".")[-1]
            if base in declared["types"]:
                name, owner = f"{base}.{member.group('name')}", declared["types"][base]
        elif module and module.group("module") in STAND_IN_MODULES:
            name, owner = module.group("name"), module.group("module")
        elif scope:
            imported = stand_in_imports(match.group("file"))
            if imported and not declared_in_project(scope.group("name")):
                name, owner = scope.group("name"), " or ".join(imported)
        if name:
            notes.append(
                f"{match.group('file')}:{match.group('line')}: not transcribed: '{name}': no stand-in of {owner} "
                f"declares it (AppleCheck/StandIns). This red means \"no stand-in yet\", not Apple's verdict: "
                f"find it in Apple's documentation and add it with its page and `@available` "
                f"(AppleCheck/standins.py lists them); if Apple has no such symbol, the error above is real.")
    return notes


_stand_in_declarations = None


def stand_in_declarations():
    """The stand-ins' type names, each with its module."""
    global _stand_in_declarations
    if _stand_in_declarations is None:
        types = {}
        for module in STAND_IN_MODULES + ["_AuthenticationServices_SwiftUI"]:
            folder = os.path.join(STAND_INS, module)
            for name in os.listdir(folder) if os.path.isdir(folder) else []:
                text = open(os.path.join(folder, name)).read()
                # Types the stand-in declares: one it only extends (`Never`, `String`) is the
                # toolchain's, whose missing member is the compiler's verdict.
                for found in re.finditer(r"\b(?:class|struct|enum|protocol|typealias|actor)\s+(\w+)", text):
                    types.setdefault(found.group(1), module.lstrip("_").split("_")[0])
        _stand_in_declarations = {"types": types}
    return _stand_in_declarations


def stand_in_imports(path):
    """The stand-in frameworks `path` imports."""
    try:
        text = open(path).read()
    except OSError:
        return []
    return [m for m in STAND_IN_MODULES if re.search(rf"^\s*(?:@\w+\s+)*(?:public\s+|internal\s+)?import\s+{m}\b", text, re.M)]


def declared_in_project(name):
    """Whether the package, its examples or the stand-ins declare `name`."""
    pattern = re.compile(rf"\b(?:class|struct|enum|protocol|typealias|actor|func|var|let|case)\s+`?{re.escape(name)}\b")
    for base in (os.path.join(ROOT, "Sources"), os.path.join(HERE, "Examples"), STAND_INS):
        for directory, _, names in os.walk(base):
            for file in names:
                if file.endswith(".swift") and pattern.search(open(os.path.join(directory, file)).read()):
                    return True
    return False


# ---------------------------------------------------------------------------------------------
# The package: platforms and targets, from Package.swift alone


class Package:
    def __init__(self, root):
        dump = subprocess.run(
            ["swift", "package", "--package-path", root, "dump-package"], capture_output=True, text=True
        )
        if dump.returncode != 0:
            sys.stderr.write(dump.stderr)
            fail("swift package dump-package failed")
        self.manifest = json.loads(dump.stdout)
        self.platforms = {p["platformName"]: p["version"] for p in self.manifest["platforms"]}
        self.targets = {t["name"]: t for t in self.manifest["targets"]}
        self.products = {p["name"]: p for p in self.manifest["products"]}

    def deployment(self, platform):
        if platform not in self.platforms:
            fail(f"Package.swift declares no {platform} platform")
        return self.platforms[platform]

    def local_dependencies(self, name, platform):
        """The package's own targets `name` depends on, and the external products, on `platform`."""
        local, external = [], []
        for dependency in self.targets[name]["dependencies"]:
            kind, value = next(iter(dependency.items()))
            condition = value[-1]
            if condition and platform not in condition.get("platformNames", [platform]):
                continue
            if kind in ("byName", "target"):
                (local if value[0] in self.targets else external).append(value[0])
            elif kind == "product":
                external.append(value[0])
        return local, external

    def closure(self, roots, platform):
        """Every local target `roots` need, dependencies first."""
        order, seen = [], set()

        def visit(name):
            if name in seen:
                return
            seen.add(name)
            for dependency in self.local_dependencies(name, platform)[0]:
                visit(dependency)
            order.append(name)

        for root in roots:
            visit(root)
        return order

    def upcoming_features(self, name):
        features = []
        for setting in self.targets[name].get("settings", []):
            kind = setting["kind"]
            if "enableUpcomingFeature" in kind:
                features.append(kind["enableUpcomingFeature"]["_0"])
        return features

    def sources(self, name):
        path = self.targets[name].get("path") or os.path.join("Sources", name)
        base = os.path.join(ROOT, path)
        excluded = {os.path.normpath(os.path.join(base, e)) for e in self.targets[name].get("exclude", [])}
        files = []
        for directory, _, names in os.walk(base):
            if any(directory == e or directory.startswith(e + os.sep) for e in excluded):
                continue
            files += [os.path.join(directory, n) for n in names if n.endswith(".swift")]
        return sorted(files)


# ---------------------------------------------------------------------------------------------
# Interfaces: retargeted and patched text


ATTRIBUTE_LINE = re.compile(r"^\s*(@[\w.]+(\([^)]*\))?\s*)+$")


def retarget(text, target):
    """An interface's module flags pointed at `target`; `@backDeployed` dropped where the printed
    declaration has no body (the compiler requires one; availability is unchanged)."""
    text = re.sub(r"-target \S+", "-target " + target, text)
    lines, kept, index = text.split("\n"), [], 0
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith("@backDeployed"):
            following = index + 1
            while following < len(lines) and ATTRIBUTE_LINE.match(lines[following]):
                following += 1
            if following < len(lines) and not lines[following].rstrip().endswith("{"):
                index += 1
                continue
        kept.append(line)
        index += 1
    return "\n".join(kept)


# The language features the toolchain's own interfaces are printed with (lifetimes, ~Escapable).
PRINTED_FEATURES = (
    "-enable-experimental-feature NonescapableTypes -enable-experimental-feature LifetimeDependence "
    "-enable-experimental-feature Lifetimes -enable-experimental-feature AllowUnsafeAttribute "
    "-enable-experimental-feature BitwiseCopyable -enable-experimental-feature ValueGenerics"
)


def interface_header(module, target, flags=""):
    return (
        "// swift-interface-format-version: 1.0\n"
        f"// swift-module-flags: -target {target} -disable-objc-interop -enable-library-evolution "
        f"-swift-version 5 {PRINTED_FEATURES} {flags} -module-name {module}\n"
    )


class SDK:
    """The modules an Apple target sees, built into one folder."""

    def __init__(self, folder, target, platform):
        self.folder = folder
        self.target = target
        self.platform = platform  # "ios" or "macos"
        self.cache = os.path.join(folder, "module-cache")
        os.makedirs(self.cache, exist_ok=True)
        # Each module is rebuilt when what it is made of, or any module built before it, changed.
        self.chain = hashlib.sha256(target.encode()).hexdigest()

    def up_to_date(self, module, *inputs):
        digest = hashlib.sha256(self.chain.encode())
        for item in inputs:
            digest.update(item if isinstance(item, bytes) else str(item).encode())
        self.chain = digest.hexdigest()
        stamp = os.path.join(self.folder, module + ".stamp")
        built = os.path.exists(stamp) and open(stamp).read() == self.chain
        return built, stamp

    def built(self, stamp):
        with open(stamp, "w") as handle:
            handle.write(self.chain)

    def base_flags(self):
        return [
            "-target", self.target, "-I", self.folder, "-module-cache-path", self.cache,
            "-disable-objc-interop", "-enable-cross-import-overlays",
            # The toolchain's macros (@TaskLocal, @Observable) expand as the driver has them expand.
            "-plugin-path", os.path.join(os.path.dirname(TOOLCHAIN_LINUX), "host", "plugins"),
        ]

    def build_interface(self, module, text, extra=()):
        path = os.path.join(self.folder, module + ".swiftinterface")
        done, stamp = self.up_to_date(module, text, extra)
        if done:
            return
        command = (
            ["swiftc", "-frontend", "-compile-module-from-interface", path, "-module-name", module,
             "-o", os.path.join(self.folder, module + ".swiftmodule")] + self.base_flags() + list(extra)
        )
        what = f"the {module} interface (retargeted to {self.target})"
        for _ in range(20):
            with open(path, "w") as handle:
                handle.write(text)
            result = run(command, what, check=False)
            if result.returncode == 0:
                break
            text, fixes = repair_printed_interface(text, result.stderr, path)
            if not fixes:
                run(command, what)  # reports the errors and ends the check
            for fix in fixes:
                print(f"   {module}: {fix}")
        else:
            fail(f"{what}: still failing after 20 rounds of repairs")
        self.built(stamp)

    def build_source(self, module, files, extra=(), what=None, cache=True, output=None):
        """`module` from source files, its module emitted for what imports it. With `what`, a
        failure is returned to the caller (a probe expects one) instead of ending the check; a
        probe's module goes to `output`, outside the SDK."""
        command = (
            ["swiftc", "-frontend", "-emit-module", "-module-name", module, "-parse-as-library",
             "-o", output or os.path.join(self.folder, module + ".swiftmodule")]
            + self.base_flags() + list(extra) + ["-warnings-as-errors"] + files
        )
        done, stamp = self.up_to_date(module, " ".join(command), *(open(f, "rb").read() for f in files))
        if done and cache:
            return None
        result = run(command, what or module, check=what is None)
        if result.returncode == 0 and cache:
            self.built(stamp)
        return result


# Printed interfaces (swift-synthesize-interface) are not always valid interfaces: the printer
# drops the accessors of stored and inlinable properties and subscripts, and prints an `override`
# of an initializer whose overridden one is internal. Each rule repairs one kind of error at the line
# the compiler names, the same way every time, and the check says what it repaired; an error no rule
# knows ends the check.


def _drop_override(lines, index):
    if "override " not in lines[index]:
        return None
    lines[index] = lines[index].replace("override ", "", 1)
    return "dropped an `override` of an internal member"


def _add_accessors(lines, index):
    # A property or subscript printed without its accessors is stored or settable: `{ get set }`
    # (a `let`, `{ get }`). The compiler may point at an attribute line above the declaration.
    while index < len(lines) and ATTRIBUTE_LINE.match(lines[index]):
        index += 1
    line = lines[index].rstrip()
    if line.endswith("}") or not re.search(r"\b(var|let|subscript)\b", line):
        return None
    if re.search(r"\blet\b", line):
        lines[index] = re.sub(r"\blet\b", "var", line, count=1) + " { get }"
    else:
        lines[index] = line + " { get set }"
    return "gave a property printed without accessors its accessors"


def _drop_lazy(lines, index):
    # A lazy property, printed without its initializer: to a caller it is a settable property.
    if "lazy " not in lines[index]:
        return None
    lines[index] = lines[index].replace("lazy ", "", 1)
    _add_accessors(lines, index)
    return "printed a lazy property as a settable one"


def _drop_restricted_setter(lines, index):
    repaired = re.sub(r"\b(private|internal|fileprivate)\(set\) ", "", lines[index], count=1)
    if repaired == lines[index]:
        return None
    lines[index] = repaired
    return "dropped a restricted setter of a read-only property"


def _drop_declaration(lines, index):
    # A declaration naming a type the printer left out (one declared in an extension of a type
    # that is itself declared in an extension of another module's type, as `Date.FormatStyle`'s
    # `DateStyle`): the declaration goes, with its attributes. What the package needs of such
    # types is transcribed from Apple's documentation (StandIns/Foundation+Apple.swift).
    if not lines[index].strip() or lines[index].lstrip().startswith("//"):
        return None
    start = index
    while start > 0 and ATTRIBUTE_LINE.match(lines[start - 1]):
        start -= 1
    end, depth = index, 0
    if "{" in lines[index]:
        for end in range(index, len(lines)):
            depth += lines[end].count("{") - lines[end].count("}")
            if depth == 0:
                break
    for line in range(start, end + 1):
        lines[line] = ""
    return "dropped a declaration naming a type the printer left out"


def _drop_conformance(lines, index, message):
    # A conformance whose witnesses the printer left out (they sit in an extension it lost).
    protocol = re.search(r"does not conform to protocol '([\w.]+)'", message).group(1).split(".")[-1]
    line = lines[index]
    repaired = re.sub(r"(: |, )(\w+\.)*" + protocol + r"\b(?=[,{ ]|$)", lambda m: m.group(1), line, count=1)
    repaired = repaired.replace(": , ", ": ").replace(", , ", ", ").replace(",  {", " {")
    repaired = re.sub(r"(: |, )\s*(where|\{)", r" \2", repaired)
    if repaired == line:
        return None
    lines[index] = repaired
    return f"dropped a conformance to {protocol} whose witnesses the printer left out"


def _unavailable_too(lines, index):
    # An extension of a type Apple lacks on the platform (Process in iOS) is unavailable with it.
    if not lines[index].lstrip().startswith("extension "):
        return None
    lines[index] = NOT_ON_IOS + lines[index]
    return "marked an extension of a type unavailable in iOS unavailable too"


def _raw_value_witnesses(lines, index):
    # An enum with a raw type whose synthesized `init(rawValue:)` the printer did not print, next to
    # an `init(_:)` of its own: the witnesses are written out.
    match = re.search(r"\benum \w+ : ([\w.]+)", lines[index])
    if not match:
        return None
    raw = match.group(1)
    lines[index] += (
        f"\n    public typealias RawValue = {raw}\n    public init?(rawValue: {raw})\n"
        f"    public var rawValue: {raw} {{ get }}"
    )
    return "wrote out the raw-value witnesses of an enum"


def _first_version_only(lines, index):
    # An availability the printer merged from two attributes (a platform named twice): the first stays.
    match = re.match(r"^(\s*)@available\((.*)\)\s*$", lines[index])
    if not match:
        return None
    seen, kept = set(), []
    for item in [part.strip() for part in match.group(2).split(",")]:
        platform = item.split()[0]
        if platform in seen:
            continue
        seen.add(platform)
        kept.append(item)
    lines[index] = f"{match.group(1)}@available({', '.join(kept)})"
    return "kept the first of two versions the printer gave one platform"


REPAIRS = [
    (r"does not override (a designated initializer|any property|any method) from its superclass", _drop_override),
    (r"expected '\{' in subscript to specify getter and setter", _add_accessors),
    (r"extensions must not contain stored properties", _add_accessors),
    (r"stored properties cannot be marked potentially unavailable", _add_accessors),
    (r"attribute cannot be applied to stored properties", _add_accessors),
    (r"cannot override with a stored property", _add_accessors),
    (r"class stored properties not supported", _add_accessors),
    (r"modifier cannot be applied to read-only properties", _drop_restricted_setter),
    (r"invalid redeclaration of", _drop_declaration),
    (r"lazy properties must have an initializer", _drop_lazy),
    (r"cannot have a stored property that recursively contains it", _add_accessors),
    (r"is unavailable in iOS", _unavailable_too),
    (r"version for \w+ already specified", _first_version_only),
    (r"different argument labels from those required by protocol 'RawRepresentable'", _raw_value_witnesses),
    # A type alias of a C type the printer could not name (NSRange): the stand-in declares it.
    (r"expected '=' in type alias declaration", _drop_declaration),
    (r"is not a member type of", _drop_declaration),
    (r"no type for 'Self' can satisfy both", _drop_declaration),
    (r"does not conform to protocol", _drop_conformance),
]


def repair_printed_interface(text, errors, path):
    lines = text.split("\n")
    printed = lines.index(STAND_IN_MARK) if STAND_IN_MARK in lines else len(lines)
    fixes = []
    pattern = re.compile(re.escape(path) + r":(\d+):\d+: error: (.*)")
    for match in pattern.finditer(errors):
        number, message = int(match.group(1)), match.group(2)
        if number > printed:
            continue  # a stand-in's own error: reported, never repaired
        for rule, repair in REPAIRS:
            if re.search(rule, message):
                description = (
                    repair(lines, number - 1, message) if repair is _drop_conformance else repair(lines, number - 1)
                )
                if description:
                    fixes.append(f"line {number}: {description}")
                break
    return "\n".join(lines), fixes


def toolchain_interface(name):
    path = os.path.join(TOOLCHAIN_LINUX, f"{name}.swiftmodule", "x86_64-unknown-linux-gnu.swiftinterface")
    with open(path) as handle:
        return handle.read()


def concurrency_patch(text):
    # `@_implements(…, Failure)` witnesses are printed with the protocol's iOS 13 availability,
    # while the `Failure` they name is iOS 18: give them the availability of what they name.
    return re.sub(
        r"@available\([^)]*\)(\s*@_implements\([^)]*, Failure\))",
        r"@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)\1",
        text,
    )


def darwin_import(text):
    # Apple's standard library and Foundation import Darwin where Linux's import Glibc.
    text = re.sub(r"^import Glibc$", "import Darwin", text, flags=re.M)
    return text.replace("Glibc.", "Darwin.")


def synchronization_patch(text):
    # Mutex's inlinable lock reads the Linux thread ID (a futex word); Darwin's is not needed to
    # type-check a caller, so the inlined call reads 0.
    return darwin_import(text).replace("_swift_stdlib_gettid()", "UInt32(0)")


def synthesize(module, search_paths, extra=()):
    command = ["swift-synthesize-interface", "-module-name", module, "-target", "x86_64-unknown-linux-gnu",
               "-print-fully-qualified-types"]
    for path in search_paths:
        command += ["-I", path]
    result = run(command + list(extra), f"swift-synthesize-interface of {module}")
    return result.stdout


# Members swift-corelibs-foundation has and Apple's Foundation lacks on a platform: marked so.
# (FoundationEssentials already marks homeDirectoryForCurrentUser and homeDirectory(forUser:)
# unavailable in iOS, tvOS and watchOS.)
NOT_ON_IOS = "@available(iOS, unavailable)\n@available(tvOS, unavailable)\n@available(watchOS, unavailable)\n@available(visionOS, unavailable)\n"
CORELIBS_ONLY = [
    # Process and its pipes: macOS only (https://developer.apple.com/documentation/foundation/process).
    (r"^open class Process : ", NOT_ON_IOS),
    # Host: macOS only (https://developer.apple.com/documentation/foundation/host).
    (r"^open class Host : ", NOT_ON_IOS),
    # SocketPort: macOS only (https://developer.apple.com/documentation/foundation/socketport).
    (r"^open class SocketPort : ", NOT_ON_IOS),
    # (PortMessage is macOS and Mac Catalyst only too, .../foundation/portmessage, but corelibs'
    # PortDelegate, a Swift protocol, requires a method taking one, and a Swift protocol's
    # requirement cannot be unavailable: left available, a known gap.)
    # NSAffineTransform: macOS and Mac Catalyst (.../foundation/nsaffinetransform), and the struct it
    # bridges to, macOS 10.10 only (.../foundation/affinetransform): iOS has CGAffineTransform.
    (r"^open class NSAffineTransform : ", NOT_ON_IOS),
    (r"^public struct AffineTransform : ", NOT_ON_IOS),
]


# swift-foundation's CMake build stamps API added since 2024 as macOS 15 / iOS 18; Apple ships some
# of it later, and some members not at all on a platform. Each rule: a declaration line of the
# printed FoundationEssentials, the availability Apple's documentation gives it, and the page. A
# type's own `@available` is replaced; a member in an extension of another availability gets its
# own attribute (narrower than its extension's). A rule that matches nothing fails the check: the
# toolchain changed, and the rule must be looked at again.
APPLE_26 = "@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)"
APPLE_26_4 = "@available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)"
APPLE_AVAILABILITY = [
    # https://developer.apple.com/documentation/foundation/discontiguousattributedsubstring (26.0)
    (r"^@dynamicMemberLookup public struct DiscontiguousAttributedSubstring\b", APPLE_26, "replace", 1),
    (r"^extension FoundationEssentials\.DiscontiguousAttributedSubstring\b", APPLE_26, "replace", None),
    # https://developer.apple.com/documentation/foundation/attributedstring/subscript(_:)-ftoi (26.0),
    # AttributedString(_:) of a discontiguous substring, and the other members that take or give one
    # outside the type: as the type.
    (r"^    public (?:init|subscript|func|var)\b.*\bDiscontiguousAttributedSubstring\b", APPLE_26, "member", None),
    # https://developer.apple.com/documentation/foundation/url/template/init(_:) and
    # .../url/init(template:variables:) (26.0): URL.Template, its extensions, URL(template:variables:).
    (r"^    public struct Template : Swift\.Sendable, Swift\.Hashable \{", APPLE_26, "member", 1),
    (r"^extension FoundationEssentials\.URL\.Template\b", APPLE_26, "replace", None),
    (r"^    public (?!struct Template).*\bURL\.Template\b", APPLE_26, "member", None),
    # https://developer.apple.com/documentation/foundation/formatstyle/iso8601-4smgu (26.0):
    # DateComponents.ISO8601FormatStyle, and every top-level block that names it.
    (r"DateComponents\.ISO8601FormatStyle\b|public struct ISO8601FormatStyle : Swift\.Hashable, Swift\.Sendable, "
     r"Swift\.Codable", APPLE_26, "block", None),
    # https://developer.apple.com/documentation/foundation/notificationcenter/mainactormessage (26.0):
    # the notification center's messages, main-actor and async, and their identifiers.
    (r"\b(MainActorMessage|AsyncMessage|MessageIdentifier)\b", APPLE_26, "block", None),
    # .../notificationcenter/observationtoken and .../notificationcenter/removeobserver(_:)-2gmm0 (26.0).
    (r"^    public (?:struct ObservationToken\b|func removeObserver\(_ token: )", APPLE_26, "member", 2),
    # https://developer.apple.com/documentation/foundation/processinfo/username and
    # .../fullusername: macOS 10.12 only.
    (r"^    public var (?:userName|fullUserName): Swift\.String \{ get \}", "@available(macOS 10.12, *)\n"
     "    @available(iOS, unavailable)\n    @available(tvOS, unavailable)\n    @available(watchOS, unavailable)\n"
     "    @available(visionOS, unavailable)", "member", 2),
    # .../attributecontainer/filter(inheritedbyaddedtext:) and .../filter(runboundaries:) (26.0).
    (r"^    public func filter\((?:inheritedByAddedText|runBoundaries):", APPLE_26, "member", 2),
    # .../attributedstring/writingdirection and .../attributescopes/foundationattributes/writingdirection
    # (26.0): the enumeration, the attribute key and the scope's property.
    (r"^ *public (?:let|var) writingDirection: ", APPLE_26, "member", 1),
    (r"^ *@frozen public enum WritingDirection(?:Attribute)? :", APPLE_26, "member", 2),
    # .../attributedstring/transform(updating:body:)-1b6eb and its three overloads (26.0).
    (r"^    public mutating func transform<E>\(updating ", APPLE_26, "member", None),
    # .../attributedstring/utf8view, .../attributedstring/utf8, .../attributedstringprotocol/utf8 and
    # their UTF-16 twins (26.0): the views, their conformances, and every property that gives one.
    (r"^ *(?:public )?(?:struct UTF(?:8|16)View\b|var utf(?:8|16): FoundationEssentials\.AttributedString\.UTF)",
     APPLE_26, "member", None),
    (r"^extension FoundationEssentials\.AttributedString\.UTF(?:8|16)View\b", APPLE_26, "replace", None),
    # .../attributedstring/index/isvalid(within:)-6wjr6, .../swift/range/isvalid(within:)-8h4h8 and
    # .../swift/rangeset/isvalid(within:)-38qb9 (26.0), each with its AttributedStringProtocol overload.
    (r"^    public func isValid\(within text: ", APPLE_26, "member", 6),
    # .../nscalendar/identifier/bangla, .../vikram (26.0; CFCalendarIdentifier's too): the eleven
    # calendars Calendar.Identifier gained with them.
    (r"^        case (?:bangla|gujarati|kannada|malayalam|marathi|odia|tamil|telugu|vikram|dangi|vietnamese)$",
     APPLE_26, "member", 11),
    # .../datecomponents/isrepeatedday (26.0), and the Calendar.Component case that reads it.
    (r"^ *(?:case isRepeatedDay$|public var isRepeatedDay: )", APPLE_26, "member", 2),
    # .../datecomponents/formatted(_:) and .../datecomponents/init(_:strategy:)-84m93 (26.0): the
    # extension that formats and parses DateComponents.
    (r"F\.FormatInput == FoundationEssentials\.DateComponents\b", APPLE_26, "block", None),
    # https://developer.apple.com/documentation/foundation/attributedstring/removesubranges(_:) (26.0).
    (r"^    public mutating func removeSubranges\(_ subranges: Swift\.RangeSet<FoundationEssentials\.AttributedString"
     r"\.Index>\)", APPLE_26, "member", 1),
    # .../nsdata/base64encodingoptions/base64urlalphabet and .../omitpaddingcharacter (26.4).
    (r"^    public static let (?:base64URLAlphabet|omitPaddingCharacter): ", APPLE_26_4, "member", 2),
    # https://developer.apple.com/documentation/foundation/uuid/random(using:) (26.4).
    (r"^    public static func random\(using generator: inout some Swift\.RandomNumberGenerator\) -> "
     r"FoundationEssentials\.UUID", APPLE_26_4, "member", 1),
]

# The same, for the printed FoundationInternationalization.
APPLE_AVAILABILITY_INTERNATIONALIZATION = [
    # .../locale/region-swift.struct/category-swift.struct/subcontinent and
    # .../locale/region-swift.struct/subcontinent (26.0): the region categories and what reads them.
    (r"^    public (?:struct Category\b|static func isoRegions\(ofCategory|var category: |func subRegions\(ofCategory"
     r"|var subcontinent: )", APPLE_26, "member", 5),
]

# What the build stamps iOS 18 and Apple's pages give as iOS 18 too (macOS 15). Every iOS 18 stamp
# left after the rules above must match one of these or UNCHECKED_18, so a toolchain that prints a
# new one stops the check until it is looked up. Each: the printed declaration, and its page.
CONFIRMED_18 = [
    # .../calendar/component/dayofyear, .../datecomponents/dayofyear
    r"^ *(?:case dayOfYear$|public var dayOfYear: )",
    # .../calendar/dates(byadding:value:startingat:in:wrappingcomponents:) and
    # .../calendar/dates(byadding:startingat:in:wrappingcomponents:); dates(byMatching:…) beside them.
    r"^    public func dates\(by(?:Adding|Matching) ",
    # .../calendar/recurrencerule (and its init, frequency): the rule, its parts and conformances,
    # Calendar's recurrences(of:in:), and the two policies made Codable for it (swift-foundation SF-0009).
    r"^ *(?:public struct RecurrenceRule\b|public var occurrences: |public var date: FoundationEssentials\.Date\?"
    r"|public func recurrences\(of start: )",
    r"^extension FoundationEssentials\.Calendar\.(?:RecurrenceRule\b|RepeatedTimePolicy : Swift\.Codable"
    r"|MatchingPolicy : Swift\.Codable)",
    # .../discreteformatstyle (and discreteinput(after:), input(before:))
    r"^(?:public protocol DiscreteFormatStyle\b|extension FoundationEssentials\.DiscreteFormatStyle\b)",
    # .../expression, .../expression(_:), .../predicateexpressions/expressionevaluate/init(expression:input:)
    r"^(?:public struct Expression<|extension FoundationEssentials\.Expression\b|@freestanding\(expression\) "
    r"public macro Expression<|extension FoundationEssentials\.PredicateExpressions\.ExpressionEvaluate\b)",
    r"^    public (?:struct ExpressionEvaluate<|static func build_evaluate<)",
    # .../predicateexpressions/stringcontainsregex, .../predicateexpressions/build_contains(_:_:)-9ferb
    r"^extension FoundationEssentials\.PredicateExpressions(?: \{|\.StringContainsRegex\b)",
    # FoundationInternationalization: .../currencyformatstyleconfiguration/notation and
    # .../floatingpointformatstyle/currency/notation(_:) (the integer twin beside it);
    # .../date/anchoredrelativeformatstyle (its init takes allowedFields, typed by the relative style's Field)
    r"^ *public (?:typealias Notation = |func notation\(_ notation: )",
    r"^extension FoundationEssentials\.Date \{",
    r"^ *public (?:typealias Field = FoundationEssentials\.Date\.ComponentsFormatStyle\.Field"
    r"|var allowedFields: |init\(allowedFields: )",
]

# Stamped iOS 18 by the build, with no Apple page in the documentation the project can search: left at
# the build's 18 and named here, so the gap is visible.
UNCHECKED_18 = [
    # Locale.preferredLocales: no page found (searched 2026-11-30).
    r"^    public static var preferredLocales: ",
    # String.data(using:allowLossyConversion:) on String itself: Apple's Foundation has it on
    # StringProtocol since iOS 8, and the printed Foundation carries that overload too.
    r"^    public func data\(using encoding: Swift\.String\.Encoding, allowLossyConversion: ",
]

BUILD_18 = "@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)"


def apple_availability(text, module="FoundationEssentials", rules=None):
    """The printed module with Apple's availability where the build's differs, every iOS 18 stamp
    left accounted for (CONFIRMED_18 or UNCHECKED_18)."""
    lines = text.split("\n")
    for pattern, attribute, how, expected in APPLE_AVAILABILITY if rules is None else rules:
        if how == "block":
            count = restamp_blocks(lines, pattern, attribute)
            if count == 0:
                fail(f"{module}: Apple's availability rule {pattern!r} matched no declaration")
            continue
        count = 0
        for index in range(len(lines) - 1, -1, -1):
            line = lines[index]
            if not re.match(pattern, line):
                continue
            count += 1
            if how == "replace":
                above = index - 1
                while above >= 0 and lines[above].startswith("///"):
                    above -= 1
                if lines[above].startswith("@available("):
                    lines[above] = attribute
                else:
                    lines.insert(index, attribute)
            else:
                indent = line[: len(line) - len(line.lstrip())]
                above = lines[index - 1].strip()
                if above.startswith("@available(") and "unavailable" not in above:
                    lines[index - 1] = indent + attribute.strip()
                else:
                    lines.insert(index, indent + attribute.strip())
        if count == 0 or (expected is not None and count != expected):
            fail(f"{module}: Apple's availability rule {pattern!r} matched {count} declarations")
    unaccounted = []
    for index, line in enumerate(lines):
        if line.strip() != BUILD_18:
            continue
        following = index + 1
        while not lines[following].strip() or lines[following].strip().startswith(("///", "@available(", "@_")):
            following += 1
        declaration = lines[following]
        if any(re.match(pattern, declaration) for pattern in CONFIRMED_18 + UNCHECKED_18):
            continue
        if declaration.startswith("extension ") and declaration.endswith("{"):
            # An extension's stamp is accounted for when each member is: stamped by Apple's rules
            # above, or confirmed, or named unchecked.
            members = extension_members(lines, following)
            if members and all(accounted for _, accounted in members):
                continue
            unaccounted += [f"{module}:{number + 1}: {lines[number].strip()[:120]}" for number, accounted in members
                            if not accounted] or [f"{module}:{following + 1}: {declaration.strip()[:120]}"]
        else:
            unaccounted.append(f"{module}:{following + 1}: {declaration.strip()[:120]}")
    if unaccounted:
        fail("declarations the open-source build stamps iOS 18, not checked against Apple's documentation "
             "(look each up, then add a rule to APPLE_AVAILABILITY or a pattern to CONFIRMED_18):\n  "
             + "\n  ".join(unaccounted))
    return "\n".join(lines)


def extension_members(lines, start):
    """The members of the top-level extension opening at `start`: (line number, accounted), where a
    member is accounted for when its own `@available` is not the build's iOS 18 stamp, or it matches
    CONFIRMED_18 or UNCHECKED_18."""
    members = []
    index = start + 1
    while index < len(lines) and lines[index] != "}":
        line = lines[index]
        if re.match(r"^    (?:@\w+(?:\([^)]*\))? )*(?:public |case |static |var |func |init|subscript)", line):
            above = index - 1
            while lines[above].strip().startswith(("///", "@_", "@preconcurrency")):
                above -= 1
            stamp = lines[above].strip()
            accounted = (stamp.startswith("@available(") and stamp != BUILD_18) or any(
                re.match(pattern, line) for pattern in CONFIRMED_18 + UNCHECKED_18)
            members.append((index, accounted))
        index += 1
    return members


def restamp_blocks(lines, pattern, attribute):
    """Gives `attribute` to every top-level declaration (`extension …`, `public …`) whose block
    names `pattern`, in place of its `@available`; returns how many."""
    count = 0
    index = len(lines) - 1
    end = None
    while index >= 0:
        line = lines[index]
        if line == "}":
            end = index
        elif end is not None and re.match(r"^(extension |public |@frozen public |@dynamicMemberLookup public )", line):
            block = "\n".join(lines[index:end + 1])
            if re.search(pattern, block):
                count += 1
                if index > 0 and lines[index - 1].startswith("@available("):
                    lines[index - 1] = attribute
                else:
                    lines.insert(index, attribute)
            end = None
        index -= 1
    return count


def foundation_interface(sdk, parts, apple_members):
    """One Foundation module: the toolchain's corelibs Foundation and FoundationNetworking (on
    Apple platforms URLSession is Foundation's), re-exporting FoundationEssentials and
    FoundationInternationalization as Linux's does, with Apple's members appended."""
    body = []
    for text in parts:
        text = darwin_import(text)
        text = text.replace("FoundationNetworking.", "Foundation.")
        lines = [line for line in text.split("\n") if not line.startswith("import ")]
        body.append("\n".join(lines))
    text = "\n".join(body)
    for pattern, attributes in CORELIBS_ONLY:
        if sdk.platform == "ios":
            text, count = re.subn(pattern, lambda m: attributes + m.group(0), text, flags=re.M)
            if count != 1:
                fail(f"Foundation: expected one declaration matching {pattern!r}, found {count}")
    imports = (
        "@_exported import FoundationEssentials\n@_exported import FoundationInternationalization\n"
        "@_exported import Darwin\n@_exported import Dispatch\nimport Synchronization\n"
    )
    return interface_header("Foundation", sdk.target) + imports + text + "\n" + apple_members


# Where the printed interface ends and the stand-ins' declarations begin: repairs stop here.
STAND_IN_MARK = "// AppleCheck: stand-in declarations"


def supplement(module):
    """What StandIns/<module>+*.swift add to a printed interface: declarations Apple's module has
    that the printed one lacks, transcribed from Apple's documentation."""
    text = "\n" + STAND_IN_MARK + "\n"
    for name in sorted(os.listdir(STAND_INS)):
        if name.startswith(module + "+") and name.endswith(".swift"):
            source = open(os.path.join(STAND_INS, name)).read()
            text += "\n" + "\n".join(line for line in source.split("\n") if not re.match(r"^(public )?import ", line))
    return text


# ---------------------------------------------------------------------------------------------


def build_sdk(sdk, package, linux_modules):
    """The Apple-target SDK, cached by everything it is made of."""
    fingerprint = hashlib.sha256()
    fingerprint.update(sdk.target.encode())
    fingerprint.update(open(__file__, "rb").read())
    fingerprint.update(subprocess.run(["swiftc", "--version"], capture_output=True).stdout)
    for directory, _, names in sorted(os.walk(STAND_INS)):
        for name in sorted(names):
            fingerprint.update(name.encode())
            fingerprint.update(open(os.path.join(directory, name), "rb").read())
    for module in DEPENDENCY_MODULES:
        path = os.path.join(linux_modules, module + ".swiftmodule")
        if os.path.exists(path):
            fingerprint.update(str(os.path.getmtime(path)).encode())
    stamp = os.path.join(sdk.folder, "sdk.stamp")
    digest = fingerprint.hexdigest()
    if os.path.exists(stamp) and open(stamp).read() == digest:
        print(f"== SDK for {sdk.target}: up to date ({sdk.folder})")
        return
    started = time.time()
    print(f"== SDK for {sdk.target}: the standard library, Foundation, the dependencies and the stand-ins")
    sdk.build_interface("Swift", retarget(toolchain_interface("Swift"), sdk.target), ["-parse-stdlib"])
    sdk.build_interface(
        "_Concurrency", concurrency_patch(retarget(toolchain_interface("_Concurrency"), sdk.target)), ["-parse-stdlib"]
    )
    sdk.build_interface("_StringProcessing", retarget(toolchain_interface("_StringProcessing"), sdk.target))
    sdk.build_interface(
        "SwiftOnoneSupport", retarget(toolchain_interface("SwiftOnoneSupport"), sdk.target), ["-parse-stdlib"]
    )
    sdk.build_source("Darwin", [os.path.join(STAND_INS, "Darwin", "Darwin.swift")], ["-swift-version", "6"])
    sdk.build_interface(
        "Synchronization", synchronization_patch(retarget(toolchain_interface("Synchronization"), sdk.target))
    )
    sdk.build_interface("Observation", darwin_import(retarget(toolchain_interface("Observation"), sdk.target)))
    print(f"   standard library: {time.time() - started:.0f} s")

    # Dispatch and Foundation, printed from the toolchain's binary modules.
    dispatch = synthesize("Dispatch", [TOOLCHAIN_LINUX])
    dispatch = re.sub(r"^import CDispatch$", "import Darwin", dispatch, flags=re.M).replace("CDispatch.", "Darwin.")
    dispatch = dispatch.replace("Darwin.dispatch_time_t", "Swift.UInt64").replace("Darwin.dispatch_fd_t", "Swift.Int32")
    sdk.build_interface("Dispatch", interface_header("Dispatch", sdk.target) + dispatch)
    essentials = apple_availability(darwin_import(synthesize("FoundationEssentials", [TOOLCHAIN_LINUX])))
    sdk.build_interface("FoundationEssentials", interface_header("FoundationEssentials", sdk.target) + essentials)
    international = apple_availability(
        darwin_import(synthesize("FoundationInternationalization", [TOOLCHAIN_LINUX])),
        "FoundationInternationalization", APPLE_AVAILABILITY_INTERNATIONALIZATION,
    )
    international += supplement("FoundationInternationalization")
    sdk.build_interface(
        "FoundationInternationalization", interface_header("FoundationInternationalization", sdk.target) + international
    )
    apple = supplement("Foundation")
    foundation = foundation_interface(
        sdk, [synthesize("Foundation", [TOOLCHAIN_LINUX]), synthesize("FoundationNetworking", [TOOLCHAIN_LINUX])],
        apple,
    )
    sdk.build_interface("Foundation", foundation)
    print(f"   Foundation: {time.time() - started:.0f} s")

    build_dependencies(sdk, linux_modules)
    print(f"   dependencies: {time.time() - started:.0f} s")
    build_stand_ins(sdk)
    print(f"   SDK built in {time.time() - started:.0f} s")
    with open(stamp, "w") as handle:
        handle.write(digest)


# The external modules the app-facing targets import, and what their interfaces import in turn:
# printed from the Linux debug build (a fresh clone's `swift build` makes it first).
DEPENDENCY_MODULES = ["Logging", "HTTPTypes", "HTTPTypesFoundation", "Crypto", "GRDB"]


def build_dependencies(sdk, linux_modules):
    sqlite_map = os.path.join(sdk.folder, "sqlite")
    os.makedirs(sqlite_map, exist_ok=True)
    with open(os.path.join(sqlite_map, "module.modulemap"), "w") as handle:
        # Apple's SDK has SQLite3 as a system module; GRDB's Linux build names it GRDBSQLite.
        handle.write('module GRDBSQLite [system] {\n  header "shim.h"\n  export *\n}\n')
    with open(os.path.join(sqlite_map, "shim.h"), "w") as handle:
        handle.write("#include </usr/include/sqlite3.h>\n")
    clang_flags = ["-Xcc", f"-fmodule-map-file={os.path.join(sqlite_map, 'module.modulemap')}"]
    grdb_map = os.path.join(ROOT, ".build", "checkouts", "GRDB.swift", "Sources", "GRDBSQLite", "module.modulemap")
    for module in DEPENDENCY_MODULES:
        text = synthesize(module, [linux_modules, TOOLCHAIN_LINUX], ["-Xcc", f"-fmodule-map-file={grdb_map}"])
        text = darwin_import(text)
        text = re.sub(r"^import (FoundationEssentials|FoundationNetworking|FoundationInternationalization)$",
                      "import Foundation", text, flags=re.M)
        text = re.sub(r"\bFoundation(Essentials|Networking|Internationalization)\.", "Foundation.", text)
        # swift-crypto's BoringSSL wrapper is its Linux implementation (on Apple platforms Crypto is
        # CryptoKit's API); nothing public names it.
        text = re.sub(r"^import CryptoBoringWrapper$", "", text, flags=re.M)
        text += supplement(module)
        sdk.build_interface(module, interface_header(module, sdk.target) + text, clang_flags)


def build_stand_ins(sdk):
    platform_framework = "UIKit" if sdk.platform == "ios" else "AppKit"
    # ActivityKit is iOS only (Apple ships none for macOS): on macOS `canImport(ActivityKit)` is false.
    ios_only = ["ActivityKit"] if sdk.platform == "ios" else []
    order = ["Security", "DeviceCheck", platform_framework, "SwiftUI", "AuthenticationServices", "_AuthenticationServices_SwiftUI",
             "XCTest", "AppIntents"] + ios_only + ["WidgetKit"]
    for module in order:
        folder = os.path.join(STAND_INS, module)
        files = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".swift"))
        sdk.build_source(module, files, ["-swift-version", "6", "-enable-library-evolution"])
    # Apple's cross-import overlay: a file that imports both AuthenticationServices and SwiftUI
    # also sees _AuthenticationServices_SwiftUI (the webAuthenticationSession environment value).
    crossimport = os.path.join(sdk.folder, "AuthenticationServices.swiftcrossimport")
    os.makedirs(crossimport, exist_ok=True)
    with open(os.path.join(crossimport, "SwiftUI.swiftoverlay"), "w") as handle:
        handle.write("---\nversion: 1\nmodules:\n  - name: _AuthenticationServices_SwiftUI\n")


# ---------------------------------------------------------------------------------------------
# The package's targets and the examples


def project_flags(package, name):
    flags = ["-swift-version", "6", "-package-name", "spotifylink", "-D", "SWIFT_PACKAGE"]
    for feature in package.upcoming_features(name):
        flags += ["-enable-upcoming-feature", feature]
    return flags


def compile_project(sdk, package, names, replacements=None, probe=False, added=()):
    """Each target in order; `replacements` maps a file to the text it is checked with instead;
    `added` are files a probe adds to the target (their text in `replacements`)."""
    for name in names:
        files = package.sources(name) + list(added)
        files = materialize(files, replacements)
        if not probe:
            sdk.build_source(name, files, project_flags(package, name))
            continue
        output = os.path.join(scratch(), name + ".swiftmodule")
        result = sdk.build_source(name, files, project_flags(package, name), what=name, cache=False, output=output)
        if result.returncode != 0:
            return result
    return None


def compile_examples(sdk, replacements=None, probe=False):
    for name in EXAMPLES:
        folder = os.path.join(HERE, "Examples", name)
        files = sorted(os.path.realpath(os.path.join(folder, n)) for n in os.listdir(folder) if n.endswith(".swift"))
        # A probe may add a file of its own to an example (one that imports a single framework).
        files += sorted(p for p in (replacements or {}) if os.path.dirname(p) == os.path.realpath(folder)
                        and p not in files)
        files = materialize(files, replacements)
        if name in EXTENSION_EXAMPLES:
            outside = sorted({m for f in files for m in re.findall(r"^\s*(?:@\w+\s+)*import\s+(\w+)", open(f).read(), re.M)}
                             - EXTENSION_IMPORTS)
            if outside:
                message = (f"the extension example {name} imports {', '.join(outside)}: an app extension may "
                           f"import only {', '.join(sorted(EXTENSION_IMPORTS))} (its process is killed at about 30 MB)")
                if probe:
                    return subprocess.CompletedProcess([], 1, "", message)
                fail(message)
        flags = ["-swift-version", "6", "-enable-upcoming-feature", "MemberImportVisibility"]
        command_what = None if not probe else name
        # An app's files: compiled as a module of their own, as an app target is, and as the
        # package's targets are (`-emit-module`, not `-typecheck`): SIL is made and its mandatory
        # diagnostics run, as in Xcode, so that region isolation (`sending`), definite
        # initialization and a missing return are refused here too. The module goes to a scratch
        # folder, apart from the SDK's.
        result = run(
            ["swiftc", "-frontend", "-emit-module", "-module-name", name, "-parse-as-library",
             "-o", os.path.join(scratch(), name + ".swiftmodule")]
            + sdk.base_flags() + flags + ["-warnings-as-errors"] + files,
            f"the app example {name}", check=not probe,
        )
        if probe and result.returncode != 0:
            return result
    return None


_scratch = None


def scratch():
    """A temporary folder for probes' copies and modules, removed when the check ends."""
    global _scratch
    if _scratch is None:
        _scratch = tempfile.mkdtemp(prefix="apple-check-")
        atexit.register(shutil.rmtree, _scratch, True)
    return _scratch


def materialize(files, replacements):
    """The files, with any replaced by a temporary copy holding the replacement text."""
    if not replacements:
        return files
    result = []
    for path in files:
        path = os.path.realpath(path)
        if path in replacements:
            copy = os.path.join(scratch(), hashlib.sha1(path.encode()).hexdigest()[:8] + "-" + os.path.basename(path))
            with open(copy, "w") as handle:
                handle.write(replacements[path])
            result.append(copy)
        else:
            result.append(path)
    return result


def main():
    global TOOLCHAIN_LINUX
    arguments = sys.argv[1:]
    if not arguments or arguments[0] not in ("ios", "macos"):
        print("usage: AppleCheck/check.py ios|macos [--probes]", file=sys.stderr)
        sys.exit(64)
    flavor = arguments[0]
    swiftc = shutil.which("swiftc")
    TOOLCHAIN_LINUX = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swiftc))), "lib", "swift", "linux")

    listing = subprocess.run([sys.executable, os.path.join(HERE, "standins.py"), "--check"], text=True)
    if listing.returncode != 0:
        fail("a stand-in declaration lacks its Apple documentation page or its availability (above)")
    package = Package(ROOT)
    version = package.deployment(flavor)
    target = f"x86_64-apple-ios{version}-simulator" if flavor == "ios" else f"x86_64-apple-macos{version}"
    linux_modules = os.path.join(ROOT, ".build", "debug", "Modules")
    if not os.path.isdir(linux_modules):
        fail(f"{linux_modules} is missing: run `swift build` first (the dependencies' interfaces are printed from it)")
    sdk = SDK(os.path.join(ROOT, f".build-apple-{flavor}", "sdk"), target, flavor)
    build_sdk(sdk, package, linux_modules)

    started = time.time()
    roots = [t for product in [APP_PRODUCT] + EXTENSION_PRODUCTS for t in package.products[product]["targets"]]
    if flavor == "macos":
        roots += MACOS_TOOL_TARGETS
    targets = package.closure(roots, flavor)
    print(f"== {flavor} {version} ({target}): {', '.join(targets)}")
    compile_project(sdk, package, targets)
    if flavor == "ios":
        print(f"== the app examples: {', '.join(EXAMPLES)}")
        compile_examples(sdk)
    print(f"Apple check ({flavor} {version}): passed in {time.time() - started:.0f} s")
    if "--probes" in arguments:
        import probes

        probes.run_all(sys.modules[__name__], sdk, package, targets, flavor)


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()
