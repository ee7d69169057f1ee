"""Probes: each a mistake Apple's SDK rejects, written into one file of the package or of an app
example, which the check must refuse with the diagnostic Apple's compiler gives; and controls,
valid Apple code the check must accept. `AppleCheck/check.py ios --probes` (and macos) runs every
probe of the flavor on a copy of the file; the sources are never touched.

A probe that compiles (or a control that does not) fails the run: the check would have let an
uninstallable line through, or refused one Apple accepts.
"""

import os
import re
import sys
import time

# (name, flavor, file, old text, new text, expected diagnostic regex; None: must compile)
# A new text of None means "insert `old` text's replacement at the end of the file": see APPENDED.
PROBES = [
    # -- a newer API unguarded --------------------------------------------------------------
    ("Mutex, iOS 18, at the iOS 17 target", "ios",
     "Sources/SpotifyNowPlaying/NowPlayingMonitor.swift",
     "private let control = Lock<Control>(Control())",
     "private let control = Synchronization.Mutex<Control>(Control())",
     r"'Mutex' is only available in iOS 18\.0 or newer"),
    ("the Callback sign-in API unguarded at iOS 17.0", "ios",
     "Sources/SpotifyLinkUI/Connection/SpotifyConnectionModel+WebAuthentication.swift",
     "guard #available(iOS 17.4, macOS 14.4, *) else { throw CancellationError() }\n", "",
     r"is only available in iOS 17\.4 or newer"),
    ("the Callback sign-in API unguarded at macOS 14.0", "macos",
     "Sources/SpotifyLinkUI/Connection/SpotifyConnectionModel+WebAuthentication.swift",
     "guard #available(iOS 17.4, macOS 14.4, *) else { throw CancellationError() }\n", "",
     r"is only available in macOS 14\.4 or newer"),
    ("ASWebAuthenticationSession.Callback without its availability", "ios",
     "Sources/SpotifyAuth/OAuth/BrowserSignIn+AuthenticationServices.swift",
     "@available(iOS 17.4, macOS 14.4, *)\n", "",
     r"'Callback' is only available in iOS 17\.4 or newer"),
    ("String(validating:as:), iOS 18, unguarded", "ios",
     "Sources/JSONReading/JSONReader.swift",
     "guard string(validatingUTF8: bytes) != nil else { throw Declined() }",
     "guard String(validating: bytes, as: UTF8.self) != nil else { throw Declined() }",
     r"'init\(validating:as:\)' is only available in iOS 18\.0 or newer"),
    ("performExpiringActivity in the macOS branch", "macos",
     "Sources/SpotifyAuth/Session/ExpiringActivity.swift",
     "    #elseif canImport(AppKit)\n        BackgroundActivity()",
     "    #elseif canImport(AppKit)\n        GrantedActivity { reason, block in\n"
     "            ProcessInfo.processInfo.performExpiringActivity(withReason: reason, using: block)\n        }",
     r"'performExpiringActivity\(withReason:using:\)' is unavailable in macOS"),
    ("the sign-in snippet of SpotifyAuth's article without its #available", "ios",
     "AppleCheck/Examples/DocCSnippets/SpotifyAuth-GettingStarted.swift",
     "        if #available(iOS 17.4, macOS 14.4, *) {\n"
     "            try await web.authenticate(using: url, callback: callback.webAuthentication, additionalHeaderFields: [:])\n"
     "        } else {\n"
     "            try await web.authenticate(using: url, callbackURLScheme: \"myapp\")   // iOS 17.0–17.3\n"
     "        }\n",
     "        try await web.authenticate(using: url, callback: callback.webAuthentication, additionalHeaderFields: [:])\n",
     r"is only available in iOS 17\.4 or newer"),
    ("the example UI test off the main actor (XCUIApplication is main-actor)", "ios",
     "AppleCheck/Examples/JournalUITests/JournalUITests.swift",
     "    @MainActor\n    final class JournalUITests: XCTestCase {\n",
     "    final class JournalUITests: XCTestCase {\n",
     r"main actor-isolated"),
    # -- a newer runtime feature ------------------------------------------------------------
    ("a typed-throws function type used as a value", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nlet typedThrowsProbe: [() throws(CancellationError) -> Void] = []\n",
     r"runtime support for typed throws function types is only available in iOS 18"),
    ("an @isolated(any) function type used as a value", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nlet isolatedAnyProbe: [@isolated(any) @Sendable () -> Void] = []\n",
     r"runtime support for '@isolated\(any\)' function types is only available in iOS 18"),
    # -- a Foundation member Apple lacks on the platform -----------------------------------
    ("homeDirectoryForCurrentUser in an iOS branch", "ios",
     "Sources/SpotifyLinkSQLite/PrivateFile.swift",
     "            #if canImport(UIKit)\n",
     "            #if canImport(UIKit)\n                _ = FileManager.default.homeDirectoryForCurrentUser\n",
     r"'homeDirectoryForCurrentUser' is unavailable in iOS"),
    ("Process in an iOS branch", "ios",
     "Sources/SpotifyLinkSQLite/PrivateFile.swift",
     "            #if canImport(UIKit)\n",
     "            #if canImport(UIKit)\n                _ = Process()\n",
     r"'Process' is unavailable in iOS"),
    ("SocketPort in iOS (Apple: macOS only)", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc socketPortProbe() -> Port? { SocketPort(tcpPort: 0) }\n",
     r"'SocketPort' is unavailable in iOS"),
    ("AffineTransform in iOS (Apple: macOS only; iOS has CGAffineTransform)", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc affineProbe() -> Double { AffineTransform(scale: 2).m11 }\n",
     r"'AffineTransform' is unavailable in iOS"),
    # -- Foundation's availability as Apple ships it, not as the open-source build stamps it ---
    ("DiscontiguousAttributedSubstring behind the build's iOS 18", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc discontiguousProbe(_ text: AttributedString) -> Int {\n"
     "    if #available(iOS 18, macOS 15, *) { return AttributedString(text[RangeSet(text.startIndex..<text.endIndex)]).characters.count }\n"
     "    return 0\n}\n",
     r"is only available in iOS 26\.0 or newer"),
    ("URL.Template behind the build's iOS 18", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc templateProbe() -> Bool {\n"
     "    if #available(iOS 18, macOS 15, *) { return URL.Template(\"https://example.com/{x}\") != nil }\n"
     "    return false\n}\n",
     r"is only available in iOS 26\.0 or newer"),
    ("DateComponents.ISO8601FormatStyle behind the build's iOS 18", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc componentsProbe() -> Bool {\n"
     "    if #available(iOS 18, macOS 15, *) { _ = DateComponents.ISO8601FormatStyle(); return true }\n"
     "    return false\n}\n",
     r"is only available in iOS 26\.0 or newer"),
    ("a main-actor notification message behind the build's iOS 18", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\n@available(iOS 18, macOS 15, *)\n"
     "func messageProbe(_ message: some NotificationCenter.MainActorMessage) {}\n",
     r"is only available in iOS 26\.0 or newer"),
    ("Data's base64url option behind the build's iOS 18 (Apple: 26.4)", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc base64URLProbe(_ data: Data) -> String {\n"
     "    if #available(iOS 18, macOS 15, *) { return data.base64EncodedString(options: .base64URLAlphabet) }\n"
     "    return \"\"\n}\n",
     r"is only available in iOS 26\.4 or newer"),
    ("UUID.random(using:) behind the build's iOS 18 (Apple: 26.4)", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc randomUUIDProbe() -> UUID? {\n"
     "    var generator = SystemRandomNumberGenerator()\n"
     "    if #available(iOS 18, macOS 15, *) { return UUID.random(using: &generator) }\n"
     "    return nil\n}\n",
     r"is only available in iOS 26\.4 or newer"),
    ("AttributedString's UTF-8 view behind the build's iOS 18 (Apple: 26)", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc utf8ViewProbe(_ text: AttributedString) -> Int {\n"
     "    if #available(iOS 18, macOS 15, *) { return text.utf8.count }\n"
     "    return 0\n}\n",
     r"is only available in iOS 26\.0 or newer"),
    ("DateComponents.isRepeatedDay behind the build's iOS 18 (Apple: 26)", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc repeatedDayProbe(_ components: DateComponents) -> Bool? {\n"
     "    if #available(iOS 18, macOS 15, *) { return components.isRepeatedDay }\n"
     "    return nil\n}\n",
     r"is only available in iOS 26\.0 or newer"),
    ("Locale.Region.subcontinent behind the build's iOS 18 (Apple: 26)", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc subcontinentProbe(_ region: Locale.Region) -> Locale.Region? {\n"
     "    if #available(iOS 18, macOS 15, *) { return region.subcontinent }\n"
     "    return nil\n}\n",
     r"is only available in iOS 26\.0 or newer"),
    ("control: Calendar.RecurrenceRule behind iOS 18, as Apple ships it", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc recurrenceProbe() -> Int {\n"
     "    if #available(iOS 18, macOS 15, *) {\n"
     "        let rule = Calendar.RecurrenceRule(calendar: Calendar(identifier: .gregorian), frequency: .daily)\n"
     "        return rule.interval\n"
     "    }\n"
     "    return 0\n}\n",
     None),
    ("control: Calendar.Component.dayOfYear behind iOS 18, as Apple ships it", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc dayOfYearProbe(_ date: Date) -> Int {\n"
     "    if #available(iOS 18, macOS 15, *) { return Calendar(identifier: .gregorian).component(.dayOfYear, from: date) }\n"
     "    return 0\n}\n",
     None),
    ("ProcessInfo.fullUserName in iOS", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc userNameProbe() -> String { ProcessInfo.processInfo.fullUserName }\n",
     r"'fullUserName' is unavailable in iOS"),
    # -- a CoreFoundation bridging cast dropped ------------------------------------------
    ("a CFString key without `as String`", "ios",
     "Sources/SpotifyAuth/Store/KeychainTokenStore+Security.swift",
     "query[kSecReturnData as String] = true", "query[kSecReturnData] = true",
     r"'CFString' \(aka 'NSString'\) is not implicitly convertible to 'String'"),
    ("a query without `as CFDictionary`", "ios",
     "Sources/SpotifyAuth/Store/KeychainTokenStore+Security.swift",
     "SecItemDelete(Self.query(item) as CFDictionary)", "SecItemDelete(Self.query(item))",
     r"cannot convert value of type '\[String : Any\]' to expected argument type 'CFDictionary'"),
    ("SecCopyErrorMessageString read as a String without a cast", "ios",
     "Sources/SpotifyAuth/Store/KeychainTokenStore+Security.swift",
     "as String?", "",
     r"cannot convert (return expression|value) of type 'CFString\?'|'CFString\?' \(aka 'Optional<NSString>'\)"),
    # -- a missing import -----------------------------------------------------------------
    ("webAuthenticationSession without `import AuthenticationServices`", "ios",
     "AppleCheck/Examples/JournalApp/ConnectRow.swift",
     "import AuthenticationServices\n", "",
     r"webAuthenticationSession|WebAuthenticationSession"),
    ("UIImage without `import SwiftUI` (nor UIKit)", "ios",
     "AppleCheck/Examples/JournalApp/JournalApp.swift",
     "import SwiftUI\n", "",
     r"cannot find type '(App|View|Scene)' in scope|cannot find 'UIImage' in scope"),
    # -- a capture that is not Sendable -------------------------------------------------
    ("a non-Sendable capture in Binding(get:set:)", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/App.swift", None,
     "\nfinal class Counter { var value = 0 }\n"
     "func counterBinding(_ counter: Counter) -> Binding<Int> {\n"
     "    Binding(get: { counter.value }, set: { counter.value = $0 })\n}\n",
     r"non-Sendable|non-sendable"),
    ("a non-Sendable capture in the expiring activity's block", "ios",
     "Sources/SpotifyAuth/Session/ExpiringActivity.swift", None,
     "\nfinal class ActivityCounter { var value = 0 }\n"
     "func expiringProbe(_ counter: ActivityCounter) {\n"
     "    ProcessInfo.processInfo.performExpiringActivity(withReason: \"probe\") { _ in counter.value += 1 }\n}\n",
     r"non-Sendable|non-sendable"),
    # -- what only SIL's mandatory diagnostics see (an example compiled, not type-checked) ------
    ("a non-Sendable value sent to a detached task and used after", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/App.swift", None,
     "\nfinal class RegionBox { var value = 0 }\n"
     "@MainActor func regionProbe() async {\n"
     "    let box = RegionBox()\n"
     "    await Task.detached { box.value += 1 }.value\n"
     "    box.value += 1\n}\n",
     r"risks causing data races"),
    ("a constant read before it is initialized", "ios",
     "AppleCheck/Examples/JournalApp/JournalApp.swift", None,
     "\nfunc initializationProbe(_ flag: Bool) -> Int {\n    let x: Int\n    if flag { x = 1 }\n    return x\n}\n",
     r"constant 'x' used before being initialized"),
    ("a function that can end without returning", "ios",
     "AppleCheck/Examples/LearningApp/LearningApp.swift", None,
     "\nfunc returnProbe(_ flag: Bool) -> Int {\n    if flag { return 1 }\n}\n",
     r"missing return in global function expected to return 'Int'"),
    # -- the Live Activity adapter: compiled on iOS, absent on macOS --------------------
    ("ActivityContent without its stale date, in the package's ActivityKit branch", "ios",
     "Sources/SpotifyLinkUI/Extensions/RoutineActivityHost.swift",
     "let content = ActivityContent(state: state, staleDate: staleAt)",
     "let content = ActivityContent(state: state)",
     r"missing argument for parameter 'staleDate'"),
    ("ActivityKit on macOS, where Apple ships none", "macos",
     "Sources/SpotifyLinkSupport/ImportsActivityKit.swift", None,
     "import ActivityKit\n",
     r"no such module 'ActivityKit'"),
    ("the control (iOS 18) without its availability at iOS 17.0", "ios",
     "AppleCheck/Examples/RoutineWidgets/RoutineWidgets.swift",
     "@available(iOS 18, *)\nstruct RoutinePlaylistControl", "struct RoutinePlaylistControl",
     r"'ControlWidget(Configuration)?' is only available in iOS 18\.0 or newer"),
    ("a widget extension that imports SpotifyLinkUI", "ios",
     "AppleCheck/Examples/JournalWidgets/JournalWidgets.swift",
     "import SpotifyLinkExtensions\n", "import SpotifyLinkExtensions\nimport SpotifyLinkUI\n",
     r"may import only"),
    ("ActivityConfiguration's Dynamic Island without its compact views", "ios",
     "AppleCheck/Examples/RoutineWidgets/RoutineWidgets.swift",
     "            } compactLeading: {\n                Image(systemName: \"music.note\")\n", "",
     r"error:"),
    # -- a name no stand-in has: "not transcribed", never Apple's verdict ----------------
    ("UIApplication, which no stand-in declares", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/NamesUIApplication.swift", None,
     "import UIKit\n@MainActor func applicationProbe() { _ = UIApplication.shared }\n",
     r"not transcribed: 'UIApplication'"),
    ("a UIImage member no stand-in declares", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/App.swift", None,
     "\nfunc pngProbe(_ data: Data) -> Data? { UIImage(data: data)?.pngData() }\n",
     r"not transcribed: 'UIImage\.pngData'"),
    ("a package type's missing member stays the compiler's verdict", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/App.swift", None,
     "\n@MainActor func memberProbe(_ spotify: SpotifyLink) { _ = spotify.misspelled }\n",
     r"(?s)\A(?!.*not transcribed).*has no member 'misspelled'"),
    # -- controls: valid Apple code the check must accept ------------------------------
    ("control: ProcessInfo.isMacCatalystApp (iOS 13, macOS 10.15)", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc catalystProbe() -> Bool { ProcessInfo.processInfo.isMacCatalystApp }\n",
     None),
    ("control: a Sendable value sent to a detached task and used after", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/App.swift", None,
     "\nfinal class RegionCount: Sendable { let value = 0 }\n"
     "@MainActor func regionControl() async -> Int {\n"
     "    let count = RegionCount()\n"
     "    let sent = await Task.detached { count.value + 1 }.value\n"
     "    return sent + count.value\n}\n",
     None),
    # Apple's UIKit, SwiftUI and AuthenticationServices re-export Foundation: a file importing one
    # of them alone names URL, Date and Data (each probe adds such a file to an example).
    ("control: URL under `import SwiftUI` alone", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/ImportsSwiftUIAlone.swift", None,
     "import SwiftUI\nfunc swiftUIImportProbe() -> (URL?, Date) { (URL(string: \"https://open.spotify.com\"), Date()) }\n",
     None),
    ("control: URL under `import UIKit` alone", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/ImportsUIKitAlone.swift", None,
     "import UIKit\nfunc uiKitImportProbe() -> (URL?, Data) { (URL(string: \"https://open.spotify.com\"), Data()) }\n",
     None),
    ("control: URL under `import AuthenticationServices` alone", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/ImportsAuthenticationServicesAlone.swift", None,
     "import AuthenticationServices\nfunc authImportProbe() -> URL? { URL(string: \"myapp://callback\") }\n",
     None),
    ("control: URL under `import AppKit` alone", "macos",
     "Sources/SpotifyLinkSupport/ImportsAppKitAlone.swift", None,
     "import AppKit\nfunc appKitImportProbe() -> URL? { URL(string: \"https://open.spotify.com\") }\n",
     None),
    ("control: DiscontiguousAttributedSubstring behind #available(iOS 26)", "ios",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc discontiguousControl(_ text: AttributedString) -> Int {\n"
     "    if #available(iOS 26, macOS 26, *) { return AttributedString(text[RangeSet(text.startIndex..<text.endIndex)]).characters.count }\n"
     "    return 0\n}\n",
     None),
    ("spotlink's macOS branch: a macOS 15 API at the macOS 14 target", "macos",
     "Sources/SpotLinkSystem/SpotLinkFolders.swift",
     "let candidates = [\"/usr/bin/open\"]",
     "let candidates = [String(validating: Array(\"/usr/bin/open\".utf8), as: UTF8.self)!]",
     r"'init\(validating:as:\)' is only available in macOS 15\.0 or newer"),
    ("spotlink's export check: Linux's 32-bit mode_t, which Darwin's is not", "macos",
     "Sources/SpotLinkSystem/ExportDestination.swift",
     "let kind = info.st_mode & S_IFMT",
     "let kind: UInt32 = info.st_mode & S_IFMT",
     r"cannot convert value of type 'mode_t' \(aka 'UInt16'\) to specified type 'UInt32'"
     r"|cannot convert value of type 'UInt16' to specified type 'UInt32'"),
    ("control: AffineTransform in macOS, where Apple has it", "macos",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc affineProbe() -> Double { AffineTransform(scale: 2).m11 }\n",
     None),
    ("control: ProcessInfo.fullUserName in macOS", "macos",
     "Sources/SpotifyLinkSupport/Lock.swift", None,
     "\nimport Foundation\nfunc userNameControl() -> String { ProcessInfo.processInfo.fullUserName }\n",
     None),
    ("control: Text built in a nonisolated helper", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/App.swift", None,
     "\nnonisolated func captionProbe(_ s: String) -> Text { Text(s) }\n",
     None),
    ("control: the Callback API behind #available", "ios",
     "AppleCheck/Examples/SwiftUIBindingsApp/App.swift", None,
     "\nimport AuthenticationServices\n"
     "func callbackProbe() -> Bool {\n"
     "    if #available(iOS 17.4, *) { _ = ASWebAuthenticationSession.Callback.customScheme(\"myapp\"); return true }\n"
     "    return false\n}\n",
     None),
]


def run_all(check, sdk, package, targets, flavor):
    started = time.time()
    failures = []
    probes = [probe for probe in PROBES if probe[1] == flavor]
    print(f"== probes ({flavor}): {len(probes)} mistakes and controls, each on a copy of one file")
    for name, _, relative, old, new, expected in probes:
        path = os.path.join(check.ROOT, relative)
        # A file that does not exist is one the probe adds to an example: `new` is all of it.
        text = open(path).read() if os.path.exists(path) else ""
        if old is None:
            changed = text + new
        else:
            if old not in text:
                failures.append(f"{name}: its text is no longer in {relative}")
                continue
            changed = text.replace(old, new, 1)
        result = compile_with(check, sdk, package, targets, flavor, os.path.realpath(path), changed)
        if expected is None:
            ok = result is None or result.returncode == 0
            verdict = "accepted" if ok else "refused"
            if not ok:
                failures.append(f"{name}: valid Apple code refused:\n{first_error(result)}")
        else:
            refused = result is not None and result.returncode != 0
            matched = refused and re.search(expected, result.stdout + result.stderr)
            verdict = "refused" if matched else ("refused, another way" if refused else "ACCEPTED")
            if not matched:
                detail = first_error(result) if refused else "it compiled"
                failures.append(f"{name}: expected /{expected}/, {detail}")
        print(f"   {verdict:>9}: {name}")
    print(f"probes ({flavor}): {len(probes) - len(failures)} of {len(probes)} as expected "
          f"in {time.time() - started:.0f} s")
    if failures:
        for failure in failures:
            print(f"probe failed: {failure}", file=sys.stderr)
        sys.exit(1)


def first_error(result):
    if result is None:
        return "nothing was compiled"
    lines = [line for line in (result.stdout + result.stderr).split("\n") if "error:" in line]
    return "\n".join(lines[:3]) or (result.stdout + result.stderr)[-1500:]


def compile_with(check, sdk, package, targets, flavor, path, text):
    """Compiles the one module that holds `path` with `text` in its place, into a scratch folder
    (the SDK's modules stay as the check built them); returns the compiler's result."""
    replacements = {path: text}
    examples = os.path.realpath(os.path.join(check.HERE, "Examples"))
    if path.startswith(examples + os.sep):
        return check.compile_examples(sdk, replacements=replacements, probe=True)
    for name in targets:
        if path in (os.path.realpath(f) for f in package.sources(name)):
            return check.compile_project(sdk, package, [name], replacements=replacements, probe=True)
    # A file the probe adds to a target: Sources/<target>/<file>.
    sources = os.path.realpath(os.path.join(check.ROOT, "Sources"))
    if not os.path.exists(path) and os.path.dirname(os.path.dirname(path)) == sources:
        name = os.path.basename(os.path.dirname(path))
        if name in targets:
            return check.compile_project(
                sdk, package, [name], replacements=replacements, probe=True, added=[path])
    raise SystemExit(f"probe file {path} is in no target the check compiles")
