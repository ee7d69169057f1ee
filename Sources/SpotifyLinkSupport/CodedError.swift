/// The skeleton every error type of the package shares: a code to match on and a sentence for
/// people. A conforming type writes its stored properties and its table of codes; its description
/// and its codes' matching are written here once.
///
/// `SpotifyAPIError`, `OAuthError`, `TokenStoreError`, `PlaylistLinksError` and `EmulatorError`
/// conform. The protocol is the package's own, and an app sees only what each type declares
/// itself: members of a package module's protocol extension are out of an app's reach (under the
/// upcoming feature `MemberImportVisibility`, an app would have to import this module, which is no
/// product). So each type's public `description` and `~=` are one line that calls the
/// implementation here.
package protocol CodedError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The type's table of codes.
    associatedtype Code: ErrorCode where Code.Failure == Self

    /// What went wrong, as a comparable value.
    var code: Code { get }
    /// The HTTP status of the answer the error comes from, when there was one.
    var status: Int? { get }
    /// A sentence for people: what happened and what to do next. Never holds a secret.
    var message: String { get }
}

extension CodedError {
    /// No HTTP status: the default of the error types that never have one.
    package var status: Int? { nil }

    /// The type, the code, the HTTP status where there was one, and the message:
    /// `SpotifyAPIError.notFound (HTTP 404): …`.
    package var codedDescription: String {
        var text = "\(Self.self).\(code)"
        if let status { text += " (HTTP \(status))" }
        return text + ": " + message
    }
}

/// A code of a ``CodedError``: a named value, compared by its name, that matches the errors
/// carrying it.
package protocol ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The error type whose code this is.
    associatedtype Failure: CodedError where Failure.Code == Self

    /// The code's name, as its static property is spelled (`notFound`).
    var name: String { get }
    /// The code named `name`.
    init(name: String)
}

extension ErrorCode {
    /// Whether `error` is a ``Failure`` of this code: what each type's public `~=` answers, so
    /// `catch SpotifyAPIError.Code.notFound { … }` reads as the code it handles.
    package func matches(_ error: any Error) -> Bool { (error as? Failure)?.code == self }
}
