import Foundation
import SpotifyLinkUI
import Testing

/// Where `SpotifyLink` keeps its data by default.
@Suite("SpotifyLink's data folder")
struct SpotifyLinkFolderTests {
    #if os(Linux)
        /// `$XDG_DATA_HOME` when it is an absolute path; the XDG Base Directory rules' default when
        /// it is unset, empty, or relative (a relative one would put the data under the working folder).
        @Test(arguments: [
            (["XDG_DATA_HOME": "/srv/data"], "/srv/data/SpotifyLink"),
            ([:], "~/.local/share/SpotifyLink"),
            (["XDG_DATA_HOME": ""], "~/.local/share/SpotifyLink"),
            (["XDG_DATA_HOME": "relative/data"], "~/.local/share/SpotifyLink"),
        ])
        func linuxFollowsTheXDGRules(environment: [String: String], expected: String) {
            let home = FileManager.default.homeDirectoryForCurrentUser.path
            let folder = SpotifyLink.Configuration.dataFolder(named: "SpotifyLink", environment: environment)
            #expect(folder.path == expected.replacingOccurrences(of: "~", with: home))
        }

        @Test func theDefaultNameIsThePackagesOnLinux() {
            #expect(SpotifyLink.Configuration.defaultFolderName == "SpotifyLink")
        }
    #endif
}
