import Foundation
@_spi(Storage) import PlaylistLinks
import PostgresTestServer
import PropertyBased
@_spi(Storage) import SpotifyLinkSQLite
import SpotifyLinkSupport
@_spi(Storage) import SpotifyTesting
import SpotifyWebAPI
import Testing

/// Random sequences of what an app, its widget and a refresh do to one store (link, unlink, a
/// refresh's answer with the epoch read now or earlier, a forget, a card read after days have
/// passed, a cover, the library, an export imported back) through two handles on it, checked
/// after every step against a small model of what the store must hold. A failing sequence shrinks
/// to the fewest steps, and is kept below as a regression.
@Suite("The link stores against a model, on random sequences")
struct StorePropertyTests {
    /// One step, decoded from a number so sequences shrink as arrays of integers do.
    enum Step: CustomStringConvertible, Equatable {
        case linkByID(record: Int, playlist: Int, handle: Int)
        case linkFromLibrary(record: Int, playlist: Int, handle: Int)
        case unlink(record: Int, handle: Int)
        /// A refresh's answer saved with the epoch read now.
        case refresh(playlist: Int, handle: Int)
        /// The epoch read now, kept for a later ``refreshWithKept(playlist:handle:)``.
        case keepEpoch(handle: Int)
        /// A refresh's answer saved with the epoch kept earlier: refused when a forget came since.
        case refreshWithKept(playlist: Int, handle: Int)
        case coverWithKept(playlist: Int, handle: Int)
        case libraryWithKept(playlists: Int, handle: Int)
        case forget(handle: Int)
        /// A card read with the default retention after `days` pass.
        case cardAfter(days: Double, record: Int, handle: Int)
        /// An export through one handle imported through the other: nothing changes.
        case exportImport(handle: Int)

        static let kinds = 11
        static let days: [Double] = [0, 0.5, 1.5, 29, 31, 91]

        init(_ code: Int) {
            let kind = code % Self.kinds
            let rest = code / Self.kinds
            let handle = rest % 2
            let a = (rest / 2) % 3
            let b = (rest / 6) % 3
            switch kind {
            case 0: self = .linkByID(record: a, playlist: b, handle: handle)
            case 1: self = .linkFromLibrary(record: a, playlist: b, handle: handle)
            case 2: self = .unlink(record: a, handle: handle)
            case 3: self = .refresh(playlist: b, handle: handle)
            case 4: self = .keepEpoch(handle: handle)
            case 5: self = .refreshWithKept(playlist: b, handle: handle)
            case 6: self = .coverWithKept(playlist: b, handle: handle)
            case 7: self = .libraryWithKept(playlists: b + 1, handle: handle)
            case 8: self = .forget(handle: handle)
            case 9: self = .cardAfter(days: Self.days[(rest / 2) % Self.days.count], record: b, handle: handle)
            default: self = .exportImport(handle: handle)
            }
        }

        var description: String {
            switch self {
            case .linkByID(let r, let p, let h): "h\(h) link r\(r) → p\(p)"
            case .linkFromLibrary(let r, let p, let h): "h\(h) link r\(r) → library p\(p)"
            case .unlink(let r, let h): "h\(h) unlink r\(r)"
            case .refresh(let p, let h): "h\(h) refresh p\(p)"
            case .keepEpoch(let h): "h\(h) keep epoch"
            case .refreshWithKept(let p, let h): "h\(h) refresh p\(p) with kept epoch"
            case .coverWithKept(let p, let h): "h\(h) cover p\(p) with kept epoch"
            case .libraryWithKept(let n, let h): "h\(h) library of \(n) with kept epoch"
            case .forget(let h): "h\(h) forget"
            case .cardAfter(let d, let r, let h): "h\(h) card r\(r) after \(d) days"
            case .exportImport(let h): "h\(h) export, import through the other"
            }
        }
    }

    static let playlists = (0..<3).map { SpotifyID(unchecked: String(repeating: "P", count: 21) + "\($0)") }
    static let records = (0..<3).map { RecordID(namespace: "session", id: "\($0)") }

    static func details(_ playlist: Int) -> PlaylistMetadata {
        var metadata = PlaylistMetadata(id: playlists[playlist], availability: .available)
        metadata.name = "Playlist \(playlist)"
        metadata.trackCount = 10 + playlist
        metadata.totalDuration = .seconds(600 * (playlist + 1))
        metadata.explicitCount = playlist
        metadata.snapshotID = "s\(playlist)"
        return metadata
    }

    static func listed(_ playlist: Int) -> LibraryPlaylist {
        LibraryPlaylist(
            id: playlists[playlist], name: "Listed \(playlist)", ownerName: "me", trackCount: 10 + playlist,
            snapshotID: "l\(playlist)", access: .complete)
    }

    /// What the store must hold, by the same rules `LinkedPlaylists` applies.
    struct Model {
        var links: [RecordID: PlaylistLink] = [:]
        var metadata: [SpotifyID: PlaylistMetadata] = [:]
        var covers: [SpotifyID: (bytes: Data, shownAt: Date)] = [:]
        var library: [LibraryPlaylist] = []
        var epoch = 0
        var kept: Int?

        mutating func edit(_ id: SpotifyID, _ edit: (PlaylistMetadata?) -> PlaylistMetadata, at now: Date) {
            metadata[id] = edit(metadata[id]).stamped(now)
        }

        mutating func forget() {
            epoch += 1
            covers = [:]
            library = []
            let linked = Set(links.values.map(\.playlist))
            metadata = Dictionary(uniqueKeysWithValues: linked.map { ($0, .forgotten($0)) })
        }

        mutating func card(_ record: RecordID, at now: Date) {
            let policy = RetentionPolicy.default
            let details = now.addingTimeInterval(-policy.detailsKeptFor.seconds)
            for (id, saved) in metadata where saved.isSaved(before: details) {
                metadata[id] = .expired(id, at: now)
                covers[id] = nil
            }
            covers = covers.filter { $0.value.shownAt >= now.addingTimeInterval(-policy.coverUnusedFor.seconds) }
            // Only a cover the card shows (beside its details) counts as shown.
            if let link = links[record], let cover = covers[link.playlist],
                metadata[link.playlist]?.shownCover(cover.bytes) != nil,
                cover.shownAt < now.addingTimeInterval(-86_400)
            {
                covers[link.playlist] = (cover.bytes, now)
            }
        }
    }

    /// Two handles on one store of `kind`, on `clock`.
    static func handles(_ kind: StoreKind, clock: VirtualClock) async throws -> [any PlaylistLinkStore] {
        switch kind {
        case .inMemory:
            let store = InMemoryPlaylistLinkStore(clock: clock)
            return [store, store]
        case .sqliteFile:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "property-\(UUID().uuidString)/links.sqlite")
            return [
                try SQLitePlaylistLinkStore(location: .file(file), clock: clock),
                try SQLitePlaylistLinkStore(location: .file(file), clock: clock),
            ]
        case .postgres:
            let user = UUID().uuidString
            return [
                try await TestPostgres.linkStore(user: user, clock: clock),
                try await TestPostgres.linkStore(user: user, clock: clock),
            ]
        case .sqliteInMemory:
            let store = try SQLitePlaylistLinkStore(location: .inMemory, clock: clock)
            return [store, store]
        }
    }

    /// Runs `steps` on two handles of a new store of `kind`, checking the store against the
    /// model after each; returns what differed, with the step it followed.
    static func run(_ steps: [Step], on kind: StoreKind) async throws -> String? {
        let clock = VirtualClock()
        let stores = try await handles(kind, clock: clock)
        var model = Model()
        var keptEpoch: ForgetEpoch?
        for (index, step) in steps.enumerated() {
            let now = clock.now
            switch step {
            case .linkByID(let r, let p, let h):
                try await stores[h].linked.link(records[r], to: playlists[p])
                model.edit(playlists[p], { .linking(playlists[p], over: $0) }, at: now)
                model.links[records[r]] = PlaylistLink(record: records[r], playlist: playlists[p], linkedAt: now)
            case .linkFromLibrary(let r, let p, let h):
                try await stores[h].linked.link(records[r], to: listed(p))
                model.edit(playlists[p], { .linking(listed(p), over: $0) }, at: now)
                model.links[records[r]] = PlaylistLink(record: records[r], playlist: playlists[p], linkedAt: now)
            case .unlink(let r, let h):
                let removed = try await stores[h].linked.removeLink(for: records[r])
                if removed != (model.links.removeValue(forKey: records[r]) != nil) {
                    return "step \(index) (\(step)): the unlink said \(removed)"
                }
            case .refresh(let p, let h):
                let epoch = try await stores[h].forgetEpoch()
                let applied = try await stores[h].linked.edit(playlists[p], ifEpoch: epoch) { _ in details(p) }
                guard applied else { return "step \(index) (\(step)): a refresh with the current epoch was refused" }
                model.edit(playlists[p], { _ in details(p) }, at: now)
            case .keepEpoch(let h):
                keptEpoch = try await stores[h].forgetEpoch()
                model.kept = model.epoch
            case .refreshWithKept(let p, let h):
                guard let kept = keptEpoch, let modelKept = model.kept else { continue }
                let applied = try await stores[h].linked.edit(playlists[p], ifEpoch: kept) { _ in details(p) }
                if applied != (modelKept == model.epoch) {
                    return "step \(index) (\(step)): applied \(applied) with \(model.epoch - modelKept) forgets since"
                }
                if applied { model.edit(playlists[p], { _ in details(p) }, at: now) }
            case .coverWithKept(let p, let h):
                guard let kept = keptEpoch, let modelKept = model.kept else { continue }
                // A cover is saved for a playlist whose details are saved: a refresh saves it after them.
                guard model.metadata[playlists[p]] != nil else { continue }
                let bytes = Data("cover \(p) \(index)".utf8)
                let saved = try await stores[h].saveCover(bytes, for: playlists[p], ifEpoch: kept)
                if saved != (modelKept == model.epoch) {
                    return "step \(index) (\(step)): saved \(saved) with \(model.epoch - modelKept) forgets since"
                }
                if saved { model.covers[playlists[p]] = (bytes, now) }
            case .libraryWithKept(let n, let h):
                guard let kept = keptEpoch, let modelKept = model.kept else { continue }
                let library = (0..<n).map(listed)
                let saved = try await stores[h].replaceLibrary(library, ifEpoch: kept)
                if saved != (modelKept == model.epoch) {
                    return "step \(index) (\(step)): saved \(saved) with \(model.epoch - modelKept) forgets since"
                }
                if saved { model.library = library }
            case .forget(let h):
                try await stores[h].linked.forgetSpotifyDetails()
                model.forget()
            case .cardAfter(let days, let r, let h):
                clock.advance(by: .seconds(days * 86_400))
                _ = try await stores[h].linked.card(for: records[r], retention: .default, at: clock.now)
                model.card(records[r], at: clock.now)
            case .exportImport(let h):
                let export = try await stores[h].linked.exportJSON()
                let report = try await stores[1 - h].linked.importJSON(export)
                if report.unchanged.count != model.links.count || report.added.count + report.replaced.count > 0 {
                    return "step \(index) (\(step)): the import changed links: \(report)"
                }
            }
            if let difference = try await difference(stores[index % 2], model) {
                return "after step \(index) (\(step)): \(difference)"
            }
        }
        return nil
    }

    /// What `store` holds that `model` does not, in words; `nil` when they agree.
    static func difference(_ store: any PlaylistLinkStore, _ model: Model) async throws -> String? {
        let (links, metadata) = try await store.snapshot()
        let expectedLinks = model.links.values.sorted {
            ($0.linkedAt, $0.record.namespace, $0.record.id) < ($1.linkedAt, $1.record.namespace, $1.record.id)
        }
        if Set(links) != Set(expectedLinks) { return "links \(links), expected \(expectedLinks)" }
        let saved = Dictionary(uniqueKeysWithValues: metadata.map { ($0.id, $0) })
        if saved != model.metadata { return "metadata \(saved), expected \(model.metadata)" }
        for id in playlists {
            let cover = try await store.cover(for: id)
            if cover != model.covers[id]?.bytes { return "cover of \(id): \(String(describing: cover))" }
        }
        let library = try await store.library()
        if library != model.library { return "library \(library.map(\.name)), expected \(model.library.map(\.name))" }
        let epoch = try await store.forgetEpoch()
        if epoch.value != Int64(model.epoch) { return "epoch \(epoch), expected \(model.epoch)" }
        return nil
    }

    /// The stores the property runs on: one in memory, a SQLite file through two connections
    /// (as an app and its widget), PostgreSQL through two store values of one user.
    static var kinds: [StoreKind] { [.inMemory, .sqliteFile] + (TestPostgres.url != nil ? [.postgres] : []) }

    /// Sequences the property shrank to when a store was broken on purpose, kept on every store:
    /// an answer saved with the epoch kept before a forget (the guard ignored), and a library
    /// left behind by a forget; and one it found on its own: a cover saved for a playlist linked
    /// by its ID alone, which SQLite's card neither showed nor noted as shown while the other
    /// stores did (dropped 30 days on in one store, kept in the others).
    static let regressions: [[Int]] = [[554, 129, 456], [576, 315, 349], [121, 477, 116, 592, 482]]

    @Test(arguments: kinds)
    func theShrunkSequencesKeepTheModel(_ kind: StoreKind) async throws {
        for codes in Self.regressions {
            let steps = codes.map(Step.init)
            let difference = try await Self.run(steps, on: kind)
            #expect(difference == nil, "\(steps.map(\.description).joined(separator: "; ")): \(difference ?? "")")
        }
    }

    @Test(arguments: kinds)
    func everySequenceKeepsTheModel(_ kind: StoreKind) async throws {
        await propertyCheck(
            count: kind == .postgres ? 40 : 80, input: Gen.int(in: 0...(Step.kinds * 54 - 1)).array(of: 1...30)
        ) {
            codes in
            let steps = codes.map(Step.init)
            let difference = try await Self.run(steps, on: kind)
            // The codes too: a rare sequence found on a loaded run is kept in `regressions` as is.
            #expect(
                difference == nil,
                "codes \(codes): \(steps.map(\.description).joined(separator: "; ")): \(difference ?? "")")
        }
    }
}
