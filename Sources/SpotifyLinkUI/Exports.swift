// An app imports SpotifyLinkUI alone: the models' API speaks in the values of the layers below
// (`RecordID`, `SpotifyReference`, `SpotifySession`, `NowPlayingState`, `LinkedPlaylists`, and
// the extensions' `ExtensionLink` and `RoutineActivityAttributes`),
// so the app can name them without an import and a product line per layer. A server or a tool that
// does not use the models imports the layer it needs instead. Whole modules, not chosen types: the
// models' API speaks in 23 types of six modules, and an app writes more that are reached only
// through those (`PlaylistMetadata`, `SpotifyID`, the errors), so a list of types would hide
// names apps write without narrowing what they reach.
@_exported public import PlaylistLinks
@_exported public import SpotifyAuth
@_exported public import SpotifyLinkExtensions
@_exported public import SpotifyLinkSQLite
@_exported public import SpotifyLinkServices
@_exported public import SpotifyNowPlaying
@_exported public import SpotifyWebAPI
