import Foundation
import SpotifyLinkSupport

/// The user's library since 2026 (`PUT`/`DELETE /me/library`, `GET /me/library/contains`: one
/// route for every kind of item, by URI), and the browse routes an older client keeps.
extension EmulatorState {
    // MARK: - /me/library

    /// The kinds of item `/me/library` takes, each with the scope that changes it and the one
    /// that reads it (the OpenAPI document's list; `artist` only in `contains`).
    private static let libraryKinds: [String: (modify: [String], read: [String])] = [
        "track": (["user-library-modify"], ["user-library-read"]),
        "album": (["user-library-modify"], ["user-library-read"]),
        "episode": (["user-library-modify"], ["user-library-read"]),
        "show": (["user-library-modify"], ["user-library-read"]),
        "audiobook": (["user-library-modify"], ["user-library-read"]),
        "user": (["user-follow-modify"], ["user-follow-read"]),
        "artist": (["user-follow-modify"], ["user-follow-read"]),
        "playlist": (["playlist-modify-public", "playlist-modify-private"], ["playlist-read-private"]),
    ]

    /// The `uris` of a library request, each as its kind and ID: at most 40, every one a Spotify
    /// URI of a kind the route takes (`artist` only when `allowingArtists`); else the 400 live sends.
    private func libraryURIs(_ request: EmulatorRequest, allowingArtists: Bool) -> LibraryURIs {
        guard let text = request.parameter("uris"), !text.isEmpty else {
            return .refused(.apiError(400, "Missing required parameter: uris"))
        }
        let uris = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard uris.count <= 40 else { return .refused(.apiError(400, "Too many ids requested")) }
        var parsed: [(kind: String, id: String)] = []
        for uri in uris {
            let parts = uri.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, parts[0] == "spotify", Self.libraryKinds[parts[1]] != nil,
                allowingArtists || parts[1] != "artist", !parts[2].isEmpty,
                parts[1] == "user"
                    || (parts[2].count == 22 && parts[2].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            else {
                return .refused(.apiError(400, "Invalid URI: \(uri)"))
            }
            parsed.append((parts[1], parts[2]))
        }
        return .parsed(parsed)
    }

    /// A library request's items, or the answer refusing it.
    private enum LibraryURIs {
        case parsed([(kind: String, id: String)])
        case refused(EmulatorResponse)
    }

    /// The items a library call names, once the token holds the scope of each kind: to change
    /// them (`modifying`) or to check them (which takes artists too).
    private func libraryItems(_ call: WebAPIRoute.Call, modifying: Bool) -> LibraryURIs {
        let parsed = libraryURIs(call.request, allowingArtists: !modifying)
        guard case .parsed(let items) = parsed else { return parsed }
        for kind in Set(items.map(\.kind)) {
            let scopes = Self.libraryKinds[kind]!
            if let denied = requireScope(call.access, anyOf: modifying ? scopes.modify : scopes.read) {
                return .refused(denied)
            }
        }
        return parsed
    }

    /// `PUT` (`saving`) or `DELETE /me/library?uris=…`: saves or removes every item named, 200
    /// with no body; the scope of each kind is needed.
    func changeLibrary(_ call: WebAPIRoute.Call, saving: Bool) -> EmulatorResponse {
        let items: [(kind: String, id: String)]
        switch libraryItems(call, modifying: true) {
        case .parsed(let parsed): items = parsed
        case .refused(let response): return response
        }
        for (kind, id) in items {
            let uri = "spotify:\(kind):\(id)"
            switch kind {
            case "track" where catalog.tracks[id] != nil:
                catalog.savedTrackIDs.removeAll { $0 == id }
                if saving { catalog.savedTrackIDs.insert(id, at: 0) }
            case "playlist" where catalog.playlists[id] != nil:
                catalog.playlists[id]!.inLibrary = saving
                catalog.libraryOrder.removeAll { $0 == id }
                if saving { catalog.libraryOrder.insert(id, at: 0) }
            default:
                if saving { catalog.savedURIs.insert(uri) } else { catalog.savedURIs.remove(uri) }
            }
        }
        return EmulatorResponse(status: 200, headers: [], body: Data())
    }

    /// `GET /me/library/contains?uris=…`: one boolean per URI, in order.
    func libraryContains(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        let items: [(kind: String, id: String)]
        switch libraryItems(call, modifying: false) {
        case .parsed(let parsed): items = parsed
        case .refused(let response): return response
        }
        return .json(
            .array(
                items.map { kind, id in
                    switch kind {
                    case "track" where catalog.savedTrackIDs.contains(id): .bool(true)
                    case "playlist": .bool(catalog.libraryOrder.contains(id))
                    default: .bool(catalog.savedURIs.contains("spotify:\(kind):\(id)"))
                    }
                }))
    }

    // MARK: - /browse (older clients)

    /// A browse category: its ID and name.
    struct Category: Sendable {
        let id: String
        let name: String
    }

    /// The categories `/browse/categories` lists.
    static let categories = [
        Category(id: "0JQ5DAqbMKFEC4WFtoNRpw", name: "J-Pop"), Category(id: "0JQ5DAqbMKFCWjUTdzaG0e", name: "Indie"),
        Category(id: "0JQ5DAqbMKFAXlCG6QvYQ4", name: "Workout"),
    ]

    /// `GET /browse/new-releases` (a client created before 2026-02-11): the catalog's albums as a
    /// page under `albums`; `limit` 1–50, default 20.
    func newReleases(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        guard let (limit, offset) = paging(call.request, defaultLimit: 20, maxLimit: 50, maxOffset: 100_000) else {
            return pagingError(call.request, maxLimit: 50)
        }
        let albums = catalog.albums.values.sorted { $0.id < $1.id }
        return .json(
            .object([
                (
                    "albums",
                    renderer.page(
                        albums.dropFirst(offset).prefix(limit).map { renderer.albumJSON($0, in: .catalog) },
                        total: albums.count, limit: limit, offset: offset, path: "/browse/new-releases", extra: [])
                )
            ]))
    }

    /// `GET /browse/categories` (a client created before 2026-02-11): a page under `categories`.
    func categories(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        guard let (limit, offset) = paging(call.request, defaultLimit: 20, maxLimit: 50, maxOffset: 100_000) else {
            return pagingError(call.request, maxLimit: 50)
        }
        return .json(
            .object([
                (
                    "categories",
                    renderer.page(
                        Self.categories.dropFirst(offset).prefix(limit).map(renderer.categoryJSON),
                        total: Self.categories.count, limit: limit, offset: offset, path: "/browse/categories",
                        extra: [])
                )
            ]))
    }
}

extension CatalogRenderer {
    /// A browse category as live shapes it: `href`, `icons`, `id`, `name`.
    func categoryJSON(_ category: EmulatorState.Category) -> JSONValue {
        .object([
            ("href", .string("\(baseURL)/v1/browse/categories/\(category.id)")),
            ("icons", .array([])), ("id", .string(category.id)), ("name", .string(category.name)),
        ])
    }
}
