public import Foundation
public import PlaylistLinks
import SpotifyLinkExtensions
import SpotifyLinkServices
import SpotifyLinkSupport
public import SpotifyWebAPI

#if canImport(WidgetKit)
    import WidgetKit
#endif

/// One of the app's records as its extensions show it: the record, with the app's own words and
/// time for it.
public struct ExtensionRecord: Sendable, Equatable {
    /// The record whose link the extension shows.
    public var record: RecordID
    /// The record's title (the routine's name, the session's date), in the user's language.
    public var title: String?
    /// When the record next starts (a routine), if it has a time.
    public var startsAt: Date?

    /// `record`, shown with `title` and `startsAt`.
    public init(_ record: RecordID, title: String? = nil, startsAt: Date? = nil) {
        self.record = record
        self.title = title
        self.startsAt = startsAt
    }
}

extension SpotifyLink {
    /// "Open in Spotify" for the record an extension's tap asked for (`ExtensionLink` with
    /// `.openPlaylist`, from the app's `onOpenURL`): the playlist the app saved for that record,
    /// never an address the URL carries, through the parental gate when the app has one. `nil`
    /// for any other URL (the app handles its own), and for a record with no playlist linked.
    ///
    /// ```swift
    /// .onOpenURL { url in Task { await spotify.openInSpotify(from: url)?.open(with: openURL) } }
    /// ```
    public func openInSpotify(from url: URL, fallback: OpenInSpotify.Fallback = .webPlayer) async -> OpenInSpotify? {
        guard let link = ExtensionLink(url), link.action == .openPlaylist else { return nil }
        return await openInSpotify(for: RecordID(namespace: link.namespace, id: link.recordID), fallback: fallback)
    }

    /// "Open in Spotify" for `record`'s saved playlist, read from the links alone (no request),
    /// through the parental gate when the app has one; `nil` when no playlist is linked (or the
    /// links cannot be read). What an App Intent that runs in the app ("Open my last session's
    /// playlist") opens.
    public func openInSpotify(for record: RecordID, fallback: OpenInSpotify.Fallback = .webPlayer) async
        -> OpenInSpotify?
    {
        guard let saved = try? await links.link(for: record) else { return nil }
        return OpenInSpotify(.playlist(saved.playlist), fallback: fallback).gated(by: parentalGate)
    }

    /// The record an extension's tap asked the app to show (`ExtensionLink`, either action), from
    /// the app's `onOpenURL`; `nil` for any other URL.
    public nonisolated func record(from url: URL) -> RecordID? {
        ExtensionLink(url).map { RecordID(namespace: $0.namespace, id: $0.recordID) }
    }

    /// Shows `records` in the app's extensions (a widget, a Live Activity, an App Intent), in this
    /// order: writes the extensions' snapshot (`SpotifyServices.extensionSnapshot`) with each
    /// record's playlist as its card shows it (name, count, length, their words in the user's
    /// language), from the saved links alone: no request. Call it when the records an extension
    /// shows change (the next routines, the latest sessions); after that the snapshot follows by
    /// itself as cards refresh and the picker links, and a disconnect forgets it.
    ///
    /// WidgetKit is asked to reload the app's widgets only when what they show changed, and once
    /// for a burst of changes (the cards a screen refreshes as the app opens): those writes wait
    /// two seconds for the changes to settle. With in-memory storage there is no snapshot, and this
    /// does nothing.
    public func showInExtensions(_ records: [ExtensionRecord]) async {
        await showInExtensions(records, recentSongs: false)
    }

    /// ``showInExtensions(_:)``, and with `recentSongs` the learner's recent songs too: the first
    /// ten saved songs a `LearnerModel` of this app loads (newest first) follow into the snapshot
    /// by themselves, with no request of their own, until a disconnect forgets them.
    public func showInExtensions(_ records: [ExtensionRecord], recentSongs: Bool) async {
        extensionRecords = records
        extensionsShowSongs = recentSongs
        await updateExtensions()
    }

    /// How many of the learner's songs the snapshot keeps.
    package static let extensionSongLimit = 10

    /// A learner model loaded the first page of saved songs: they reach the snapshot when the app
    /// asked for them, once the changes settle.
    func learnerSongsLoaded(_ tracks: [Track]) {
        let songs = tracks.prefix(Self.extensionSongLimit).map { track in
            ExtensionSnapshot.Track(
                name: track.name, artists: track.artistLine,
                spotifyURL: track.id.map { SpotifyReference.track($0).webURL })
        }
        // A page that arrives after a disconnect is not the connected account's to show.
        guard extensionsShowSongs, connection.isConnected, songs != extensionSongs else { return }
        extensionSongs = songs
        extensionsNeedUpdate()
    }

    /// How long after a change the snapshot is written: the cards an app's screen refreshes as it
    /// opens arrive one after another, and the widgets are asked to reload once for all of them
    /// (a widget gets some 40 to 70 reloads a day).
    package static let extensionsSettle: Duration = .seconds(2)

    /// A card's refresh or a pick changed the saved links: the snapshot is written once the changes
    /// settle (``extensionsSettle`` on the configuration's clock), one write for a burst.
    package func extensionsNeedUpdate() {
        guard services.extensionSnapshot != nil, extensionRecords != nil, extensionsPending == nil else { return }
        let clock = services.clock
        extensionsPending = Task { @MainActor [weak self] in
            try? await clock.sleep(for: Self.extensionsSettle)
            self?.extensionsPending = nil
            await self?.updateExtensions()
        }
    }

    /// Waits until the snapshot is written after the changes so far (tests, the bench).
    package func extensionsSettled() async {
        await extensionsPending?.value
        await extensionsWrite?.value
    }

    /// Writes the snapshot again from the records last shown and the saved links, one write at a
    /// time in the order asked; does nothing before ``showInExtensions(_:)``.
    package func updateExtensions() async {
        guard let file = services.extensionSnapshot, extensionRecords != nil else { return }
        let previous = extensionsWrite
        let write = Task { @MainActor [weak self] in
            await previous?.value
            await self?.writeExtensionSnapshot(to: file)
        }
        extensionsWrite = write
        await write.value
    }

    private func writeExtensionSnapshot(to file: ExtensionSnapshotFile) async {
        guard let records = extensionRecords else { return }
        let links = links
        let now = services.clock.now
        let retention = services.configuration.retention
        let connected = connection.isConnected
        do {
            // The epoch first: a disconnect while the cards are read refuses this snapshot.
            let epoch = try await Task.detached { try file.epoch() }.value
            var rows: [ExtensionSnapshot.Playlist] = []
            var covers: [Data] = []
            for item in records {
                let card = try await links.card(for: item.record, retention: retention, at: now)
                var row = extensionRow(item, card?.metadata)
                // The cover as the card shows it: kept while the retention rules keep it, grey in
                // screenshot mode, left out when too large for a widget's memory.
                if var cover = card?.cover, cover.count <= ExtensionSnapshotFile.largestCoverSize {
                    if services.configuration.screenshotMode { cover = PNG.placeholder(like: cover) }
                    row.cover = ExtensionSnapshotFile.coverName(for: cover)
                    covers.append(cover)
                }
                rows.append(row)
            }
            let snapshot = ExtensionSnapshot(
                epoch: epoch, writtenAt: now, isConnected: connected, playlists: rows,
                recentTracks: connected && extensionsShowSongs ? extensionSongs : [],
                emptyText: connected ? nil : text(.extensionsNeedApp))
            let written = try await Task.detached { [covers] in try file.write(snapshot, covers: covers) }.value
            extensionsFailure = nil
            if written == .changed { askWidgetsToReload() }
        } catch {
            // The app's own screens are unaffected; the extensions show the snapshot before.
            extensionsFailure = error
        }
    }

    private func extensionRow(_ item: ExtensionRecord, _ metadata: PlaylistMetadata?) -> ExtensionSnapshot.Playlist {
        var row = ExtensionSnapshot.Playlist(
            namespace: item.record.namespace, recordID: item.record.id, title: item.title, startsAt: item.startsAt)
        guard let metadata else { return row }
        row.name = metadata.name
        row.trackCount = metadata.trackCount
        row.durationSeconds = metadata.totalDuration?.seconds
        if metadata.trackCount != nil || metadata.totalDuration != nil {
            row.summary = text(.playlistSummary(tracks: metadata.trackCount, duration: metadata.totalDuration))
            row.spokenSummary = text(
                .playlistSummarySpoken(tracks: metadata.trackCount, duration: metadata.totalDuration))
        }
        row.spotifyURL = metadata.reference.webURL
        return row
    }

    private func askWidgetsToReload() {
        widgetReloadsAsked += 1
        #if canImport(WidgetKit)
            WidgetCenter.shared.reloadAllTimelines()
        #endif
    }
}
