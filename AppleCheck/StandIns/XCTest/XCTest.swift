// Stand-in: the XCTest and XCUIAutomation names the package's example UI test uses (Xcode 16.3
// moved the UI-automation classes into XCUIAutomation, which `import XCTest` still brings). Each
// declaration: Apple's documentation page, and its availability. Apple's pages list no minimum
// system for either framework; XCTest came with Xcode 5 (iOS 7, macOS 10.9) and UI testing with
// Xcode 7 (iOS 9, macOS 10.11), which is what the attributes say. The UI-automation classes are
// main-actor, as Apple declares them (`@MainActor class XCUIApplication`).
@_exported public import Foundation  // as Apple's framework re-exports it

/// https://developer.apple.com/documentation/xctest/xctestcase (iOS 7, macOS 10.9)
@available(iOS 7.0, macOS 10.9, *)
open class XCTestCase: NSObject {
    /// https://developer.apple.com/documentation/xctest/xctestcase/continueafterfailure (iOS 7, macOS 10.9)
    open var continueAfterFailure: Bool {
        get { fatalError("stand-in") }
        set {}
    }
}

/// https://developer.apple.com/documentation/xctest/xctasserttrue(_:_:file:line:) (iOS 7, macOS 10.9)
@available(iOS 7.0, macOS 10.9, *)
public func XCTAssertTrue(
    _ expression: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) {}

/// https://developer.apple.com/documentation/xctest/xctassertequal(_:_:_:file:line:) (iOS 7, macOS 10.9)
@available(iOS 7.0, macOS 10.9, *)
public func XCTAssertEqual<T: Equatable>(
    _ expression1: @autoclosure () throws -> T, _ expression2: @autoclosure () throws -> T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {}

/// https://developer.apple.com/documentation/xcuiautomation/xcuielement (iOS 9, macOS 10.11)
@available(iOS 9.0, macOS 10.11, *)
@MainActor open class XCUIElement: NSObject {
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielement/exists (iOS 9, macOS 10.11)
    open var exists: Bool { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielement/waitforexistence(timeout:) (iOS 11, macOS 10.13)
    @available(iOS 11.0, macOS 10.13, *)
    open func waitForExistence(timeout: TimeInterval) -> Bool { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielement/tap() (iOS 9, not macOS)
    @available(macOS, unavailable)
    open func tap() {}
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielement/typetext(_:) (iOS 9, macOS 10.11)
    open func typeText(_ text: String) {}
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielement/buttons (iOS 9, macOS 10.11)
    open var buttons: XCUIElementQuery { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielement/statictexts (iOS 9, macOS 10.11)
    open var staticTexts: XCUIElementQuery { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielement/textfields (iOS 9, macOS 10.11)
    open var textFields: XCUIElementQuery { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/xcuiautomation/xcuielementquery (iOS 9, macOS 10.11)
@available(iOS 9.0, macOS 10.11, *)
@MainActor open class XCUIElementQuery: NSObject {
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielementquery/subscript(_:) (iOS 9, macOS 10.11)
    open subscript(key: String) -> XCUIElement { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/xcuiautomation/xcuielementquery/firstmatch (iOS 11, macOS 10.13)
    @available(iOS 11.0, macOS 10.13, *)
    open var firstMatch: XCUIElement { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication (iOS 9, macOS 10.11)
@available(iOS 9.0, macOS 10.11, *)
@MainActor open class XCUIApplication: XCUIElement {
    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/init() (iOS 9, macOS 10.11)
    public override init() {}
    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/init(bundleidentifier:) (iOS 11, macOS 10.13)
    @available(iOS 11.0, macOS 10.13, *)
    public init(bundleIdentifier: String) {}
    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/launcharguments (iOS 9, macOS 10.11)
    open var launchArguments: [String] {
        get { fatalError("stand-in") }
        set {}
    }
    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/launchenvironment (iOS 9, macOS 10.11)
    open var launchEnvironment: [String: String] {
        get { fatalError("stand-in") }
        set {}
    }
    /// https://developer.apple.com/documentation/xcuiautomation/xcuiapplication/launch() (iOS 9, macOS 10.11)
    open func launch() {}
}
