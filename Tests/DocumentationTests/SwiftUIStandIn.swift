// The SwiftUI and UIKit names README example 4 uses, with their Apple signatures, so that the
// example type-checks on Linux against SpotifyLinkUI's real models. Nothing here draws or runs:
// a view's body is only type-checked. On Apple platforms the real frameworks are used instead.
#if !canImport(SwiftUI)
    import Foundation
    import SpotifyAuth

    @MainActor protocol View {
        associatedtype Body: View
        @ViewBuilder var body: Body { get }
    }

    extension Never: View {
        var body: Never { fatalError("Never has no body") }
    }

    /// What every stand-in view and modifier returns: the type checker needs no more.
    struct StandInView: View {
        var body: Never { fatalError("a stand-in view has no body") }
    }

    @resultBuilder enum ViewBuilder {
        static func buildExpression(_ view: some View) -> StandInView { StandInView() }
        /// A primitive view's `fatalError()` body.
        static func buildExpression(_ never: Never) -> Never {}
        static func buildBlock(_ never: Never) -> Never {}
        static func buildBlock(_ views: StandInView...) -> StandInView { StandInView() }
        static func buildOptional(_ view: StandInView?) -> StandInView { StandInView() }
        static func buildEither(first view: StandInView) -> StandInView { StandInView() }
        static func buildEither(second view: StandInView) -> StandInView { StandInView() }
    }

    struct Text: View {
        init(_ text: String) {}
        var body: Never { fatalError() }
    }
    struct EmptyView: View { var body: Never { fatalError() } }
    struct ProgressView: View { var body: Never { fatalError() } }
    enum ButtonRole { case destructive, cancel }
    struct Button: View {
        init(_ title: String, role: ButtonRole? = nil, action: @escaping @MainActor () -> Void) {}
        var body: Never { fatalError() }
    }
    struct Label: View {
        init(_ title: String, systemImage: String) {}
        var body: Never { fatalError() }
    }
    struct Section: View {
        init(_ title: String, @ViewBuilder content: () -> some View) {}
        var body: Never { fatalError() }
    }
    struct List: View {
        init(@ViewBuilder content: () -> some View) {}
        init<Data: RandomAccessCollection, ID: Hashable>(
            _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder rowContent: @escaping (Data.Element) -> some View
        ) {}
        var body: Never { fatalError() }
    }
    struct TextField: View {
        init(_ titleKey: String, text: Binding<String>) {}
        var body: Never { fatalError() }
    }
    struct Group: View {
        init(@ViewBuilder content: () -> some View) {}
        var body: Never { fatalError() }
    }
    enum HorizontalAlignment { case leading, center, trailing }
    struct VStack: View {
        init(alignment: HorizontalAlignment = .center, @ViewBuilder content: () -> some View) {}
        var body: Never { fatalError() }
    }
    struct HStack: View {
        init(@ViewBuilder content: () -> some View) {}
        var body: Never { fatalError() }
    }
    struct ForEach<Data: RandomAccessCollection, ID: Hashable>: View {
        init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> some View) {
        }
        var body: Never { fatalError() }
    }
    final class UIImage {
        init?(data: Data) { nil }
    }
    struct Image: View {
        init(uiImage: UIImage) {}
        func resizable() -> Image { self }
        var body: Never { fatalError() }
    }
    struct Font { static let headline = Font(), footnote = Font() }
    struct Color { static let red = Color() }
    enum ScenePhase { case active, inactive, background }
    struct DismissAction { func callAsFunction() {} }
    struct OpenURLAction { func callAsFunction(_ url: URL) {} }
    /// AuthenticationServices' callback description: an Objective-C class (not `Sendable`).
    final class ASWebAuthenticationSession {
        final class Callback {
            /// `+[ASWebAuthenticationSessionCallback callbackWithCustomScheme:]`, iOS 17.4+.
            static func customScheme(_ customScheme: String) -> Callback { Callback() }
        }
    }
    extension BrowserSignIn.Callback {
        var webAuthentication: ASWebAuthenticationSession.Callback { .customScheme("") }
    }
    /// SwiftUI's web authentication session, as Apple's documentation declares it (iOS 16.4+,
    /// `authenticate(using:callback:preferredBrowserSession:additionalHeaderFields:)` iOS 17.4+).
    @MainActor struct WebAuthenticationSession {
        struct BrowserSession { static let ephemeral = BrowserSession() }
        func authenticate(
            using url: URL, callback: ASWebAuthenticationSession.Callback,
            preferredBrowserSession: BrowserSession? = nil, additionalHeaderFields: [String: String]
        ) async throws -> URL { url }
    }
    struct EnvironmentValues {
        var dismiss = DismissAction()
        var openURL = OpenURLAction()
        var scenePhase = ScenePhase.active
        @MainActor var webAuthenticationSession: WebAuthenticationSession { WebAuthenticationSession() }
    }

    @MainActor @propertyWrapper struct Environment<Value> {
        init(_ keyPath: KeyPath<EnvironmentValues, Value>) { wrappedValue = EnvironmentValues()[keyPath: keyPath] }
        let wrappedValue: Value
    }

    @dynamicMemberLookup struct Binding<Value> {
        subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Binding<Member> {
            Binding<Member>()
        }
    }

    @propertyWrapper struct State<Value> {
        private final class Box {
            var value: Value
            init(_ value: Value) { self.value = value }
        }
        private let box: Box
        init(wrappedValue: Value) { box = Box(wrappedValue) }
        var wrappedValue: Value {
            get { box.value }
            nonmutating set { box.value = newValue }
        }
        var projectedValue: Binding<Value> { Binding() }
    }

    extension View {
        func font(_ font: Font) -> StandInView { StandInView() }
        func foregroundStyle(_ color: Color) -> StandInView { StandInView() }
        func scaledToFit() -> StandInView { StandInView() }
        func task(_ action: @escaping @MainActor () async -> Void) -> StandInView { StandInView() }
        func refreshable(_ action: @escaping @MainActor () async -> Void) -> StandInView { StandInView() }
        func searchable(text: Binding<String>) -> StandInView { StandInView() }
        func onChange<V: Equatable>(of value: V, _ action: @escaping @MainActor () -> Void) -> StandInView {
            StandInView()
        }
        func onSubmit(_ action: @escaping @MainActor () -> Void) -> StandInView { StandInView() }
        func onAppear(perform action: (@MainActor () -> Void)? = nil) -> StandInView { StandInView() }
        func confirmationDialog(
            _ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> some View
        ) -> StandInView { StandInView() }
    }
#endif
