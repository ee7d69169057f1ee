import Foundation
import SpotifyLinkSupport

extension EmulatorState {
    func handleWebAPI(_ request: EmulatorRequest) -> EmulatorResponse {
        guard request.method == "GET" else { return .apiError(405, "Method not allowed") }
        let access: AccessRecord
        switch authenticate(request) {
        case .success(let record): access = record
        case .failure(let response): return response
        }
        let segments = request.path.split(separator: "/").map(String.init)
        let predatesRestrictions =
            configuration.clients.first { $0.id == access.clientID }?.predatesRestrictions ?? false
        switch segments.dropFirst().first {
        case "me":
            guard access.userID != nil else { return .apiError(401, "Valid user authentication required") }
            if segments.count == 2, predatesRestrictions { return .json(userJSON(withAccountDetails: true)) }
            return handleMe(Array(segments.dropFirst(2)), request, access)
        // What Spotify postponed removing for client IDs created before 2026-02-11; a newer client
        // gets 404, as for any removed route.
        case "users" where segments.count == 3 && predatesRestrictions:
            guard segments[2] == catalog.userID else { return .apiError(404, "Resource not found") }
            return .json(publicUserJSON())
        case "tracks" where segments.count == 2 && predatesRestrictions:
            let ids = (request.parameter("ids") ?? "").split(separator: ",").map(String.init)
            guard !ids.isEmpty, ids.count <= 50 else { return .apiError(400, "Invalid ids") }
            return .json(
                .object([
                    (
                        "tracks",
                        .array(
                            ids.map { id in
                                catalog.tracks[id].map { renderer.itemJSON($0, episodes: false, in: .catalog) } ?? .null
                            })
                    )
                ]))
        case "markets" where segments.count == 2 && predatesRestrictions:
            return .json(.object([("markets", .array(["JP", "US", "GB", "DE", "FR"].map(JSONValue.string)))]))
        case "playlists" where segments.count >= 3:
            return handlePlaylist(id: segments[2], rest: Array(segments.dropFirst(3)), request, access)
        case "search" where segments.count == 2:
            return search(request)
        // The single-ID reads stay for Development Mode apps; the several-IDs forms (`/tracks?ids=`)
        // were removed in February 2026 and fall through to 404.
        case "tracks" where segments.count == 3:
            return lookUp(segments[2], in: catalog.tracks) { renderer.itemJSON($0, episodes: false, in: .catalog) }
        case "albums" where segments.count == 3:
            return lookUp(segments[2], in: catalog.albums, renderer.fullAlbumJSON)
        case "artists" where segments.count == 3:
            let artists = Dictionary(catalog.artistNames.map { (CatalogRenderer.stableID($0), $0) }) { first, _ in first
            }
            return lookUp(segments[2], in: artists, renderer.fullArtistJSON)
        case "shows" where segments.count == 3:
            return lookUp(segments[2], in: catalog.shows) { renderer.showJSON($0, withEpisodes: true) }
        case "episodes" where segments.count == 3:
            return lookUp(segments[2], in: catalog.episodes) { renderer.episodeJSON($0, withShow: true) }
        default:
            return .apiError(404, "Service not found")
        }
    }

    /// One object by its ID: 400 for an ID that is not 22 base62 characters, 404 for one not in the catalog.
    private func lookUp<Value>(_ id: String, in index: [String: Value], _ shape: (Value) -> JSONValue)
        -> EmulatorResponse
    {
        guard id.count == 22, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return .apiError(400, "Invalid base62 id")
        }
        guard let value = index[id] else { return .apiError(404, "Resource not found") }
        return .json(shape(value))
    }

    private enum Authentication {
        case success(AccessRecord)
        case failure(EmulatorResponse)
    }

    private func authenticate(_ request: EmulatorRequest) -> Authentication {
        guard let header = request.headers["authorization"], header.hasPrefix("Bearer ") else {
            return .failure(.apiError(401, "No token provided"))
        }
        guard let record = accessTokens[String(header.dropFirst(7))] else {
            return .failure(.apiError(401, "Invalid access token"))
        }
        guard record.expiresAt > now else { return .failure(.apiError(401, "The access token expired")) }
        if let exceeded = spendQuota(clientID: record.clientID) { return .failure(exceeded) }
        if let limit = rateLimit {
            let window: TimeInterval = 30
            var times = requestTimes[record.clientID, default: []].filter { now.timeIntervalSince($0) < window }
            if times.count >= limit, let oldest = times.first {
                let retry = max(1, Int((window - now.timeIntervalSince(oldest)).rounded(.up)))
                requestTimes[record.clientID] = times
                return .failure(.rateLimitExceeded(retryAfter: "\(retry)"))
            }
            times.append(now)
            requestTimes[record.clientID] = times
        }
        return .success(record)
    }

    /// Counts one request against the developer's quota; the 429 when the quota is used up.
    ///
    /// Requests made while limited count too, so calling on lengthens the penalty, as live.
    private func spendQuota(clientID: String) -> EmulatorResponse? {
        guard let quota else { return nil }
        let developer = configuration.clients.first { $0.id == clientID }?.developer ?? clientID
        var times = quotaTimes[developer, default: []].filter { now.timeIntervalSince($0) < quotaWindow }
        let limited = times.count >= quota
        times.append(now)
        quotaTimes[developer] = times
        guard limited else { return nil }
        // Free once the oldest `count - quota + 1` requests have left the window.
        let frees = times[times.count - quota].addingTimeInterval(quotaWindow)
        let retry = max(1, Int(frees.timeIntervalSince(now).rounded(.up)))
        return .quotaExceeded(retryAfter: "\(retry)")
    }

    private func requireScope(_ access: AccessRecord, anyOf scopes: [String]) -> EmulatorResponse? {
        access.scopes.isDisjoint(with: scopes) ? .apiError(403, "Insufficient client scope") : nil
    }

    // MARK: - /me

    private func handleMe(_ rest: [String], _ request: EmulatorRequest, _ access: AccessRecord) -> EmulatorResponse {
        switch rest {
        case []:
            return .json(userJSON())
        case ["playlists"]:
            guard let (limit, offset) = paging(request, defaultLimit: 20, maxLimit: 50, maxOffset: 100_000) else {
                return pagingError(request, maxLimit: 50)
            }
            let privateAllowed = access.scopes.contains("playlist-read-private")
            // A followed playlist its owner deleted stays in the library as a `null` entry, counted
            // in `total`, as live; one the user deleted is gone.
            let ids = catalog.libraryOrder.filter { id in
                guard let playlist = catalog.playlists[id] else { return false }
                if playlist.deleted { return playlist.ownerID != catalog.userID }
                return privateAllowed || playlist.isPublic
            }
            let items = ids.dropFirst(offset).prefix(limit).map { id in
                let playlist = catalog.playlists[id]!
                return playlist.deleted ? JSONValue.null : renderer.simplifiedPlaylistJSON(playlist)
            }
            // Live sends ETags here (rarely elsewhere) and honours If-None-Match.
            return .withETag(
                .json(
                    renderer.page(
                        items, total: ids.count, limit: limit, offset: offset, path: "/me/playlists", extra: [])),
                request)
        case ["tracks"]:
            if let denied = requireScope(access, anyOf: ["user-library-read"]) { return denied }
            guard let (limit, offset) = paging(request, defaultLimit: 20, maxLimit: 50, maxOffset: 100_000) else {
                return pagingError(request, maxLimit: 50)
            }
            let items = catalog.savedTrackIDs.enumerated().dropFirst(offset).prefix(limit).map { index, id in
                JSONValue.object([
                    (
                        "added_at",
                        .string(ISOTime.string(Date(timeIntervalSince1970: 1_780_000_000 - Double(index) * 86_400)))
                    ),
                    ("track", renderer.itemJSON(catalog.tracks[id]!, episodes: false, in: .catalog)),
                ])
            }
            return .json(
                renderer.page(
                    items, total: catalog.savedTrackIDs.count, limit: limit, offset: offset, path: "/me/tracks",
                    extra: []))
        case ["top", "tracks"], ["top", "artists"]:
            if let denied = requireScope(access, anyOf: ["user-top-read"]) { return denied }
            let range = request.parameter("time_range") ?? "medium_term"
            guard let rank = ["short_term", "medium_term", "long_term"].firstIndex(of: range) else {
                return .apiError(400, "Invalid time range")
            }
            guard let (limit, offset) = paging(request, defaultLimit: 20, maxLimit: 50, maxOffset: 10_000) else {
                return pagingError(request, maxLimit: 50)
            }
            // Each range ranks differently: the short term favours what was saved lately.
            let all: [JSONValue]
            if rest[1] == "tracks" {
                let ids = rank == 0 ? catalog.savedTrackIDs + catalog.trackOrder : catalog.trackOrder
                var seen = Set<String>()
                let ordered = ids.filter { seen.insert($0).inserted }
                let rotated = rank == 2 ? Array(ordered.reversed()) : ordered
                all = rotated.prefix(50).map { renderer.itemJSON(catalog.tracks[$0]!, episodes: false, in: .catalog) }
            } else {
                let names = catalog.artistNames
                let ordered = rank == 0 ? Array(names.reversed()) : rank == 1 ? names : names.sorted()
                all = ordered.map { renderer.fullArtistJSON($0) }
            }
            let path = "/me/top/\(rest[1])"
            return .json(
                renderer.page(
                    Array(all.dropFirst(offset).prefix(limit)), total: all.count, limit: limit, offset: offset,
                    path: path,
                    extra: [("time_range", range)]))
        case ["player", "currently-playing"], ["player"]:
            if let denied = requireScope(access, anyOf: ["user-read-currently-playing", "user-read-playback-state"]) {
                return denied
            }
            let episodes = (request.parameter("additional_types") ?? "").contains("episode")
            guard let playing = currentlyPlayingJSON(episodes: episodes, full: rest.count == 1) else {
                return EmulatorResponse(status: 204, headers: [], body: Data())
            }
            return .json(playing)
        default:
            return .apiError(404, "Service not found")
        }
    }

    /// `/me`. A client created before 2026-02-11 still gets the account's country, email, plan,
    /// explicit-content setting and followers (`withAccountDetails`), as live still sends them.
    package func userJSON(withAccountDetails: Bool = false) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if withAccountDetails { fields.append(("country", .string("JP"))) }
        fields += [("display_name", .string(catalog.userName))]
        if withAccountDetails {
            fields += [
                ("email", .string("\(catalog.userID)@example.com")),
                (
                    "explicit_content",
                    .object([("filter_enabled", .bool(false)), ("filter_locked", .bool(false))])
                ),
            ]
        }
        fields.append(
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/user/\(catalog.userID)"))])))
        if withAccountDetails { fields.append(("followers", .object([("href", .null), ("total", .int(3))]))) }
        fields += [
            ("href", .string("\(baseURL)/v1/users/\(catalog.userID)")),
            ("id", .string(catalog.userID)),
            ("images", renderer.imagesJSON(of: catalog.userID, sizes: [300, 64])),
        ]
        if withAccountDetails { fields.append(("product", .string("premium"))) }
        fields += [
            ("type", .string("user")),
            ("uri", .string("spotify:user:\(catalog.userID)")),
            ("account_id", .string("acct-\(catalog.userID)")),
        ]
        return .object(fields)
    }

    /// `GET /users/{id}`: the public profile, for clients created before 2026-02-11.
    func publicUserJSON() -> JSONValue {
        .object([
            ("display_name", .string(catalog.userName)),
            ("external_urls", .object([("spotify", .string("https://open.spotify.com/user/\(catalog.userID)"))])),
            ("followers", .object([("href", .null), ("total", .int(3))])),
            ("href", .string("\(baseURL)/v1/users/\(catalog.userID)")),
            ("id", .string(catalog.userID)),
            ("images", renderer.imagesJSON(of: catalog.userID, sizes: [300, 64])),
            ("type", .string("user")),
            ("uri", .string("spotify:user:\(catalog.userID)")),
        ])
    }

    // MARK: - /playlists

    private func handlePlaylist(id: String, rest: [String], _ request: EmulatorRequest, _ access: AccessRecord)
        -> EmulatorResponse
    {
        guard id.count == 22, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return .apiError(400, "Invalid base62 id")
        }
        // Spotify's own playlists answer 404 to every app like this one, as live since late 2024.
        guard let playlist = catalog.playlists[id], !playlist.deleted, !playlist.isEditorial else {
            return .apiError(404, "Resource not found")
        }
        if playlist.forbidden { return .apiError(403, "Forbidden") }
        let episodes = (request.parameter("additional_types") ?? "").contains("episode")
        switch rest {
        case []:
            var full = renderer.fullPlaylistJSON(
                playlist, episodes: episodes, withItems: access.userID != nil && catalog.canReadItems(playlist))
            if let fields = request.parameter("fields") {
                guard let selection = FieldSelection.parse(fields) else { return .apiError(400, "Invalid fields") }
                // Live still answers the old name `tracks` with the entries page, whose entries,
                // asked for by `track`, come back as `{}`.
                full = selection.apply(to: full, aliases: configuration.shape == .current ? ["tracks": "items"] : [:])
            }
            return .json(full)
        case ["items"]:
            guard access.userID != nil, catalog.canReadItems(playlist) else { return .apiError(403, "Forbidden") }
            guard let (limit, offset) = paging(request, defaultLimit: 100, maxLimit: 50, maxOffset: Int(Int32.max))
            else {
                return pagingError(request, maxLimit: 50)
            }
            let selection: FieldSelection?
            if let fields = request.parameter("fields") {
                guard let parsed = FieldSelection.parse(fields) else { return .apiError(400, "Invalid fields") }
                selection = parsed
            } else {
                selection = nil
            }
            // The page is built from the catalog as it is now, but off the actor: the pages of a
            // long playlist in flight build side by side.
            let renderer = renderer
            return .deferredJSON {
                let value = renderer.itemsPage(playlist, limit: limit, offset: offset, episodes: episodes)
                return selection?.apply(to: value) ?? value
            }
        case ["tracks"]:
            // Retired for Development Mode apps in February 2026.
            return .apiError(403, "Forbidden")
        default:
            return .apiError(404, "Service not found")
        }
    }

    // MARK: - /search

    private func search(_ request: EmulatorRequest) -> EmulatorResponse {
        guard let query = request.parameter("q"), !query.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .apiError(400, "No search query")
        }
        let types = (request.parameter("type") ?? "").split(separator: ",").map(String.init)
        guard !types.isEmpty, types.allSatisfy({ $0 == "playlist" || $0 == "track" }) else {
            return .apiError(400, "Bad search type field")
        }
        guard let (limit, offset) = paging(request, defaultLimit: 5, maxLimit: 10, maxOffset: 1000, minLimit: 0) else {
            return pagingError(request, maxLimit: 10)
        }
        let words = SearchText.fold(query).split(whereSeparator: \.isWhitespace)
        func matches(_ text: String) -> Bool {
            let folded = SearchText.fold(text)
            return words.allSatisfy { folded.contains($0) }
        }
        var fields: [(String, JSONValue)] = []
        if types.contains("playlist") {
            // Spotify's own playlists are left out for apps like this one, as live.
            let found = catalog.allOrder.compactMap { catalog.playlists[$0] }.filter { playlist in
                !playlist.deleted && !playlist.forbidden && !playlist.isEditorial
                    && matches(playlist.name + " " + (playlist.description ?? ""))
            }
            fields.append(
                (
                    "playlists",
                    searchPage(
                        found.map(renderer.simplifiedPlaylistJSON), query: query, type: "playlist", limit, offset)
                ))
        }
        if types.contains("track") {
            let found = catalog.trackOrder.compactMap { catalog.tracks[$0] }.filter { track in
                matches([track.name, track.artist, track.album, track.keywords].joined(separator: " "))
            }
            fields.append(
                (
                    "tracks",
                    searchPage(
                        found.map { renderer.itemJSON($0, episodes: false, in: .search) }, query: query, type: "track",
                        limit,
                        offset)
                ))
        }
        return .json(.object(fields))
    }

    /// A page of search results with `null` mixed in, one after every third match, as live.
    private func searchPage(_ matches: [JSONValue], query: String, type: String, _ limit: Int, _ offset: Int)
        -> JSONValue
    {
        var results: [JSONValue] = []
        for (index, match) in matches.enumerated() {
            results.append(match)
            if index % 3 == 2 { results.append(.null) }
        }
        return renderer.page(
            Array(results.dropFirst(offset).prefix(limit)), total: results.count, limit: limit, offset: offset,
            path: "/search", extra: [("query", query), ("type", type)])
    }

    // MARK: - Paging

    private func paging(
        _ request: EmulatorRequest, defaultLimit: Int, maxLimit: Int, maxOffset: Int, minLimit: Int = 1
    ) -> (Int, Int)? {
        let limitText = request.parameter("limit")
        let offsetText = request.parameter("offset")
        guard let limit = limitText.map({ Int($0) }) ?? min(defaultLimit, maxLimit),
            (minLimit...maxLimit).contains(limit),
            let offset = offsetText.map({ Int($0) }) ?? 0, (0...maxOffset).contains(offset)
        else { return nil }
        return (limit, offset)
    }

    private func pagingError(_ request: EmulatorRequest, maxLimit: Int) -> EmulatorResponse {
        if let limit = request.parameter("limit"), !(Int(limit).map { (0...maxLimit).contains($0) } ?? false) {
            return .apiError(400, "Invalid limit")
        }
        return .apiError(400, "Invalid offset")
    }
}
