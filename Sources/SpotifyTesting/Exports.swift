// A test imports SpotifyTesting and has the virtual clock with it: `VirtualClock` lives in a target
// of its own so the CLI's demo can use it without the test helpers, and no app-facing product
// carries it.
@_exported public import VirtualTime
