import Foundation

/// Loose matching as Spotify's search does it: case, width (half-width kana, full-width Latin),
/// Latin accents and hiragana/katakana do not matter.
package enum SearchText {
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
