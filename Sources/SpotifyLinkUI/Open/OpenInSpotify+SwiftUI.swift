#if canImport(SwiftUI)
    public import Foundation
    public import SwiftUI

    extension OpenInSpotify {
        /// Opens the item with a view's `openURL`: the Spotify app when it is installed, else the
        /// fallback (the web player or the App Store page); returns the URL that opened.
        ///
        /// A thin adapter over ``OpenInSpotify/open(isolation:_:)``, whose order the tests check.
        /// `OpenURLAction.callAsFunction(_:completion:)`:
        /// https://developer.apple.com/documentation/swiftui/openurlaction/callasfunction(_:completion:)
        /// (iOS 14, macOS 11).
        @MainActor @discardableResult
        public func open(with openURL: OpenURLAction) async -> URL? {
            await open { url in
                await withCheckedContinuation { continuation in
                    openURL(url) { accepted in continuation.resume(returning: accepted) }
                }
            }
        }
    }
#endif
