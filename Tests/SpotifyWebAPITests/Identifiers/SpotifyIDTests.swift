import Foundation
import Testing

@testable import SpotifyWebAPI

@Suite("A Spotify ID kept in place")
struct SpotifyIDTests {
    static let ids = [
        "37i9dQZF1DXcBWIGoYBM5M", "4iV5W9uYEdYUVa79Axb7Rh", "0000000000000000000000", "zzzzzzzzzzzzzzzzzzzzzz",
        "ZZZZZZZZZZZZZZZZZZZZZZ", "4iV5W9uYEdYUVa79Axb7Ri", "a000000000000000000000",
    ]

    @Test func anIDGivesBackItsCharactersAndCodesAsItsString() throws {
        for text in Self.ids {
            let id = try SpotifyID(text)
            #expect(id.rawValue == text)
            #expect(id.description == text)
            #expect(try JSONEncoder().encode(id) == JSONEncoder().encode(text))
            #expect(try JSONDecoder().decode(SpotifyID.self, from: JSONEncoder().encode(text)) == id)
            #expect(SpotifyID(unchecked: text) == id)
        }
    }

    /// Equality, hashing and order are those of the strings, packed or not.
    @Test func equalityHashingAndOrderAreTheStrings() throws {
        let unchecked = ["legacy", "not an id at all, kept as it is", "4iV5W9uYEdYUVa79Axb7R", ""]
        let all = try Self.ids.map { try SpotifyID($0) } + unchecked.map { SpotifyID(unchecked: $0) }
        for a in all {
            for b in all {
                #expect((a == b) == (a.rawValue == b.rawValue), "\(a) == \(b)")
                #expect((a < b) == (a.rawValue < b.rawValue), "\(a) < \(b)")
                if a == b { #expect(a.hashValue == b.hashValue) }
            }
        }
        #expect(Set(all + all).count == all.count)
        #expect(unchecked.map { SpotifyID(unchecked: $0).rawValue } == unchecked)
    }

    @Test func anIDComparesWithBytesWithoutItsString() throws {
        let id = try SpotifyID("4iV5W9uYEdYUVa79Axb7Rh")
        #expect(id.hasCharacters(Array("4iV5W9uYEdYUVa79Axb7Rh".utf8)))
        #expect(!id.hasCharacters(Array("4iV5W9uYEdYUVa79Axb7Ri".utf8)))
        #expect(!id.hasCharacters(Array("4iV5W9uYEdYUVa79Axb7R".utf8)))
        #expect(!id.hasCharacters(Array("4iV5W9uYEdYUVa79Axb7Rhh".utf8)))
        #expect(SpotifyID(unchecked: "legacy").hasCharacters(Array("legacy".utf8)))
    }
}
