import Foundation
import SpotifyLinkSupport
import Synchronization

/// Loose matching as Spotify's search does it: case, width (half-width kana, full-width Latin),
/// Latin accents and hiragana/katakana do not matter.
package enum SearchText {
    /// Folded texts by their text, shared by every emulator of the process: a search folds every
    /// track's name, artist and album, and the emulators of a test run share their catalogs. Folding
    /// them again on each search held a thread of the concurrency pool for seconds in a debug build
    /// (a loop-lag dump of 2026-11-30). Emptied when it passes ``cacheLimit`` entries.
    private static let cache = Lock<[String: String]>([:])
    /// The most entries the cache keeps.
    package static let cacheLimit = 200_000

    /// ``fold(_:)``, computed once per text.
    package static func folded(_ text: String) -> String {
        if let known = cache.withLock({ $0[text] }) { return known }
        let folded = fold(text)
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[text] = folded
        }
        return folded
    }

    /// `text` folded for comparison: NFKC, lower case, Latin accents dropped, hiragana as katakana.
    package static func fold(_ text: String) -> String {
        // NFKC joins half-width kana with their voicing marks and maps full-width Latin to ASCII.
        let compatible = text.precomposedStringWithCompatibilityMapping.lowercased()
        var scalars = String.UnicodeScalarView()
        for scalar in compatible.decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.value {
            case 0x0300...0x036F:
                continue  // Latin combining accents; kana voicing marks (U+3099, U+309A) stay
            case 0x3041...0x3096:
                scalars.append(Unicode.Scalar(scalar.value + 0x60)!)  // hiragana → katakana
            default:
                scalars.append(scalar)
            }
        }
        return String(scalars).precomposedStringWithCanonicalMapping
    }
}
