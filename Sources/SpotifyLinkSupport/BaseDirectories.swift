package import Foundation

/// The XDG Base Directory rules, in the one place the package reads them: a variable that is
/// unset, empty or relative means the default (the rules call a relative path invalid, and the
/// working directory is no place for tokens: it may be a git checkout).
package enum BaseDirectories {
    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    package static func data(_ environment: [String: String]) -> URL {
        folder(environment["XDG_DATA_HOME"], default: ".local/share", environment)
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    package static func config(_ environment: [String: String]) -> URL {
        folder(environment["XDG_CONFIG_HOME"], default: ".config", environment)
    }

    /// `$HOME` when it is an absolute path, or the user's home from the system's records.
    package static func home(_ environment: [String: String]) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") { return URL(fileURLWithPath: home, isDirectory: true) }
        return URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
    }

    private static func folder(_ value: String?, default relative: String, _ environment: [String: String]) -> URL {
        if let value, value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
        return home(environment).appendingPathComponent(relative, isDirectory: true)
    }
}
