public import SpotifyWebAPI

/// The tests' name for `VirtualClock`, which lives in `SpotifyWebAPI` so demos and previews can
/// use it without this test library.
public typealias TestClock = VirtualClock

/// A test helper waited for something that never happened.
public typealias WaitGaveUp = VirtualClock.WaitGaveUp
