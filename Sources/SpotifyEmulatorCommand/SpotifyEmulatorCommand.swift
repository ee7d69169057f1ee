import ArgumentParser
import EmulatorCommandLine

/// `spotify-emulator`: a local Spotify accounts service and Web API for tests, demos and apps.
@main
struct SpotifyEmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotify-emulator",
        abstract: "A local Spotify (accounts service, Web API, virtual player) for tests and demos.",
        discussion:
            "Prints 'listening on http://HOST:PORT' as its first line and 'control token: TOKEN' as its second, then serves until SIGINT or SIGTERM."
    )

    @OptionGroup var options: EmulatorOptions

    func run() async throws {
        try await options.serve()
    }
}
