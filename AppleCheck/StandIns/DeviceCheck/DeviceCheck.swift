// Stand-in: the DeviceCheck framework's App Attest service, as the package's signed-out search uses
// it. Each declaration: Apple's documentation page, and its availability there as an attribute the
// compiler enforces. The async forms are what Swift makes of the completion-handler methods (the
// pages' "Concurrency note"). `DCAppAttestService` is not declared `Sendable` here (its page lists
// no such conformance), the stricter reading.
@_exported public import Foundation  // as Apple's framework re-exports it

/// https://developer.apple.com/documentation/devicecheck/dcappattestservice (iOS 14, macOS 11)
@available(iOS 14.0, macOS 11.0, *)
open class DCAppAttestService: NSObject {
    private override init() { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/shared (iOS 14, macOS 11)
    open class var shared: DCAppAttestService { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/issupported (iOS 14, macOS 11)
    open var isSupported: Bool { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/generatekey(completionhandler:) (iOS 14, macOS 11)
    open func generateKey(completionHandler: @escaping @Sendable (String?, (any Error)?) -> Void) {
        fatalError("stand-in")
    }

    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/generatekey(completionhandler:) (iOS 14, macOS 11)
    open func generateKey() async throws -> String { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/attestkey(_:clientdatahash:completionhandler:) (iOS 14, macOS 11)
    open func attestKey(
        _ keyId: String, clientDataHash: Data, completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) {
        fatalError("stand-in")
    }

    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/attestkey(_:clientdatahash:completionhandler:) (iOS 14, macOS 11)
    open func attestKey(_ keyId: String, clientDataHash: Data) async throws -> Data { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/generateassertion(_:clientdatahash:completionhandler:) (iOS 14, macOS 11)
    open func generateAssertion(
        _ keyId: String, clientDataHash: Data, completionHandler: @escaping @Sendable (Data?, (any Error)?) -> Void
    ) {
        fatalError("stand-in")
    }

    /// https://developer.apple.com/documentation/devicecheck/dcappattestservice/generateassertion(_:clientdatahash:completionhandler:) (iOS 14, macOS 11)
    open func generateAssertion(_ keyId: String, clientDataHash: Data) async throws -> Data { fatalError("stand-in") }
}
