// The platforms SpotifyLink supports: iOS 17 and macOS 14 and later (Package.swift), Mac Catalyst and
// iPad apps on visionOS through the iOS build, and Linux. Every line the iOS and macOS builds compile
// is compiled for those targets on each CI run (scripts/check-apple.sh); nothing checks watchOS, tvOS
// or native visionOS, so their builds stop here with the reason instead of at some line inside.
#if os(watchOS) || os(tvOS) || os(visionOS)
    #error(
        "SpotifyLink supports iOS 17 and macOS 14 and later (and Linux); watchOS, tvOS and native visionOS are not built or checked. On visionOS, add the iOS app as a compatible iPad app."
    )
#endif
