import Foundation
import SpotifyLinkSupport

extension EmulatorState {
    /// The Web API the emulator serves, as live serves it in late 2026 (the contract's routes).
    static let webAPIRoutes: [WebAPIRoute] = [
        WebAPIRoute("/me", user: true) { state, call in
            .json(state.userJSON(withAccountDetails: call.predatesRestrictions))
        },
        WebAPIRoute("/me/playlists", user: true) { state, call in state.myPlaylists(call) },
        WebAPIRoute("/me/tracks", user: true) { state, call in state.savedTracks(call) },
        WebAPIRoute("/me/top/tracks", user: true) { state, call in state.top("tracks", call) },
        WebAPIRoute("/me/top/artists", user: true) { state, call in state.top("artists", call) },
        WebAPIRoute("/me/player", user: true) { state, call in state.playing(full: true, call) },
        WebAPIRoute("/me/player/currently-playing", user: true) { state, call in state.playing(full: false, call) },
        WebAPIRoute("/me/player/recently-played", user: true) { state, call in
            state.recentlyPlayed(call.request, call.access)
        },
        WebAPIRoute("/playlists/{}") { state, call in state.playlist(call) },
        WebAPIRoute("/playlists/{}/items") { state, call in state.playlistItems(call) },
        // Retired for Development Mode apps in February 2026.
        WebAPIRoute("/playlists/{}/tracks") { state, call in
            state.withPlaylist(call) { _ in WebAPIRoute.forbidden }
        },
        WebAPIRoute("/playlists/{}/images") { state, call in state.playlistImages(call) },
        WebAPIRoute("/search") { state, call in
            state.search(call.request, predatesRestrictions: call.predatesRestrictions)
        },
        // The single-ID reads stay for Development Mode apps.
        WebAPIRoute("/tracks/{}") { state, call in
            state.lookUp(call.parameters[0], in: state.catalog.tracks) {
                state.renderer.itemJSON($0, episodes: false, in: .catalog)
            }
        },
        WebAPIRoute("/albums/{}") { state, call in
            state.lookUp(call.parameters[0], in: state.catalog.albums, state.renderer.fullAlbumJSON)
        },
        WebAPIRoute("/artists/{}") { state, call in
            guard let name = state.artist(call.parameters[0]) else { return state.lookUpFailure(call.parameters[0]) }
            return .json(state.renderer.fullArtistJSON(name))
        },
        WebAPIRoute("/shows/{}") { state, call in
            state.lookUp(call.parameters[0], in: state.catalog.shows) {
                state.renderer.showJSON($0, withEpisodes: true)
            }
        },
        WebAPIRoute("/episodes/{}") { state, call in
            state.lookUp(call.parameters[0], in: state.catalog.episodes) {
                state.renderer.episodeJSON($0, withShow: true)
            }
        },
        WebAPIRoute("/artists/{}/albums") { state, call in state.artistAlbums(call) },
        WebAPIRoute("/albums/{}/tracks") { state, call in state.albumTracks(call) },
        // Removed in February 2026 (the contract's list): 403 for a client created since; what
        // Spotify postponed removing for client IDs created before 2026-02-11 still answers them.
        WebAPIRoute("/users/{}", .removedForNewerClients) { state, call in
            guard call.parameters[0] == state.catalog.userID else { return .apiError(404, "Resource not found") }
            return .json(state.publicUserJSON())
        },
        WebAPIRoute("/users/{}/playlists", .removedForNewerClients) { state, call in state.userPlaylists(call) },
        WebAPIRoute("/markets", .removedForNewerClients) { _, _ in
            .json(.object([("markets", .array(["JP", "US", "GB", "DE", "FR"].map(JSONValue.string)))]))
        },
        WebAPIRoute("/albums", .removedForNewerClients) { state, call in
            state.several(call.request, key: "albums", most: 20) {
                state.catalog.albums[$0].map(state.renderer.fullAlbumJSON)
            }
        },
        WebAPIRoute("/artists", .removedForNewerClients) { state, call in
            state.several(call.request, key: "artists", most: 50) { id in
                state.artist(id).map(state.renderer.fullArtistJSON)
            }
        },
        // Removed in 2026 (the reports the emulator's README cites): live answers 403, not 404.
        WebAPIRoute("/tracks", .removedForNewerClients) { state, call in
            state.several(call.request, key: "tracks", most: 50) { id in
                state.catalog.tracks[id].map { state.renderer.itemJSON($0, episodes: false, in: .catalog) }
            }
        },
        WebAPIRoute("/artists/{}/top-tracks", .removedForNewerClients) { state, call in state.topTracks(call) },
        WebAPIRoute("/browse/new-releases", .removedForNewerClients) { state, call in state.newReleases(call) },
        WebAPIRoute("/browse/categories", .removedForNewerClients) { state, call in state.categories(call) },
        WebAPIRoute("/browse/categories/{}", .removedForNewerClients) { state, call in
            guard let category = EmulatorState.categories.first(where: { $0.id == call.parameters[0] }) else {
                return .apiError(404, "Resource not found")
            }
            return .json(state.renderer.categoryJSON(category))
        },
        // Removed on 2024-11-27 for every app created since, which every Development Mode app of
        // 2026 is: 403 whatever is asked.
        .removed("/artists/{}/related-artists"),
        .removed("/recommendations"),
        .removed("/recommendations/available-genre-seeds"),
        .removed("/audio-features"),
        .removed("/audio-features/{}"),
        .removed("/audio-analysis/{}"),
        .removed("/browse/featured-playlists"),
        .removed("/browse/categories/{}/playlists"),
        .removed("/users/{}/playlists", method: "POST"),
        // The user's library, one route for every kind of item since 2026.
        WebAPIRoute("/me/library", method: "PUT", user: true) { state, call in state.changeLibrary(call, saving: true)
        },
        WebAPIRoute("/me/library", method: "DELETE", user: true) { state, call in
            state.changeLibrary(call, saving: false)
        },
        WebAPIRoute("/me/library/contains", user: true) { state, call in state.libraryContains(call) },
    ]

    /// Live's order: the token first (401), then the route (403 for one removed in 2026, 404 for
    /// an unknown one), then the method (405: the emulator reads only), then the user (401 for a
    /// client-credentials token on a user's route).
    func handleWebAPI(_ request: EmulatorRequest) -> EmulatorResponse {
        let access: AccessRecord
        switch authenticate(request) {
        case .success(let record): access = record
        case .failure(let response): return response
        }
        let segments = request.path.split(separator: "/").map(String.init).dropFirst()
        let predatesRestrictions =
            configuration.clients.first { $0.id == access.clientID }?.predatesRestrictions ?? false
        let found = Self.webAPIRoutes.compactMap { route in
            route.parameters(of: segments).map { (route: route, parameters: $0) }
        }
        guard let (route, parameters) = found.first(where: { $0.route.method == request.method }) else {
            let served = found.contains { !$0.route.isRemoved(predatesRestrictions: predatesRestrictions) }
            return served ? .apiError(405, "Method not allowed") : .apiError(404, "Service not found")
        }
        if route.reach == .removedForNewerClients, !predatesRestrictions { return WebAPIRoute.forbidden }
        if route.needsUser, access.userID == nil { return .apiError(401, "Valid user authentication required") }
        readsPlaybackPosition = access.userID != nil && access.scopes.contains("user-read-playback-position")
        defer { readsPlaybackPosition = false }
        return route.answer(
            self,
            WebAPIRoute.Call(
                request: request, access: access, parameters: parameters, predatesRestrictions: predatesRestrictions))
    }

    // MARK: - Catalog reads

    /// `GET /users/{id}/playlists` (older clients): the user's public playlists.
    private func userPlaylists(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        guard call.parameters[0] == catalog.userID else { return .apiError(404, "Resource not found") }
        guard let (limit, offset) = paging(call.request, defaultLimit: 20, maxLimit: 50, maxOffset: 100_000) else {
            return pagingError(call.request, maxLimit: 50)
        }
        let own = catalog.allOrder.compactMap { catalog.playlists[$0] }.filter {
            $0.ownerID == catalog.userID && $0.isPublic && !$0.deleted
        }
        return .json(
            renderer.page(
                own.dropFirst(offset).prefix(limit).map(renderer.simplifiedPlaylistJSON), total: own.count,
                limit: limit, offset: offset, path: "/users/\(catalog.userID)/playlists", extra: []))
    }

    /// An artist's ten most popular tracks (older clients).
    private func topTracks(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        guard let name = artist(call.parameters[0]) else { return lookUpFailure(call.parameters[0]) }
        let tracks = catalog.trackOrder.compactMap { catalog.tracks[$0] }.filter { $0.artist == name }.prefix(10)
        return .json(
            .object([("tracks", .array(tracks.map { renderer.itemJSON($0, episodes: false, in: .catalog) }))]))
    }

    /// An artist's albums: 10 a page at most since February 2026, 50 for an older client.
    private func artistAlbums(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        guard let name = artist(call.parameters[0]) else { return lookUpFailure(call.parameters[0]) }
        // 10 at most since February 2026; an older client keeps 50 (the contract's later notes).
        let most = call.predatesRestrictions ? 50 : 10
        guard let (limit, offset) = paging(call.request, defaultLimit: 5, maxLimit: most, maxOffset: 10_000) else {
            return pagingError(call.request, maxLimit: most)
        }
        let albums = catalog.albums.values.filter { $0.artist == name }.sorted { $0.id < $1.id }
        return .json(
            renderer.page(
                albums.dropFirst(offset).prefix(limit).map(renderer.artistAlbumJSON), total: albums.count,
                limit: limit, offset: offset, path: "/artists/\(call.parameters[0])/albums", extra: []))
    }

    /// An album's tracks.
    private func albumTracks(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        guard let album = catalog.albums[call.parameters[0]] else { return lookUpFailure(call.parameters[0]) }
        guard let (limit, offset) = paging(call.request, defaultLimit: 20, maxLimit: 50, maxOffset: 10_000) else {
            return pagingError(call.request, maxLimit: 50)
        }
        let tracks = album.trackIDs.compactMap { catalog.tracks[$0] }
        return .json(
            renderer.page(
                tracks.dropFirst(offset).prefix(limit).map(renderer.simplifiedTrackJSON), total: tracks.count,
                limit: limit, offset: offset, path: "/albums/\(album.id)/tracks", extra: []))
    }

    /// The catalog's artist of `id` (an artist's ID is derived from the name).
    func artist(_ id: String) -> String? {
        catalog.artistNames.first { CatalogRenderer.stableID($0) == id }
    }

    /// What an ID that names nothing answers: 400 for one that is not 22 base62 characters, else 404.
    func lookUpFailure(_ id: String) -> EmulatorResponse {
        let valid = id.count == 22 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return valid ? .apiError(404, "Resource not found") : .apiError(400, "Invalid base62 id")
    }

    /// A several-IDs read (`?ids=`, for an older client): `key`'s array, `null` for an ID not found.
    func several(_ request: EmulatorRequest, key: String, most: Int, _ object: (String) -> JSONValue?)
        -> EmulatorResponse
    {
        let ids = (request.parameter("ids") ?? "").split(separator: ",").map(String.init)
        guard !ids.isEmpty, ids.count <= most else { return .apiError(400, "Invalid ids") }
        return .json(.object([(key, .array(ids.map { object($0) ?? .null }))]))
    }

    /// One object by its ID: 400 for an ID that is not 22 base62 characters, 404 for one not in the catalog.
    func lookUp<Value>(_ id: String, in index: [String: Value], _ shape: (Value) -> JSONValue)
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

    func requireScope(_ access: AccessRecord, anyOf scopes: [String]) -> EmulatorResponse? {
        access.scopes.isDisjoint(with: scopes) ? .apiError(403, "Insufficient client scope") : nil
    }

    // MARK: - /me

    /// The user's playlists; a followed playlist its owner deleted is a `null` entry.
    private func myPlaylists(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        guard let (limit, offset) = paging(call.request, defaultLimit: 20, maxLimit: 50, maxOffset: 100_000) else {
            return pagingError(call.request, maxLimit: 50)
        }
        let privateAllowed = call.access.scopes.contains("playlist-read-private")
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
            call.request)
    }

    /// The user's saved tracks.
    private func savedTracks(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        if let denied = requireScope(call.access, anyOf: ["user-library-read"]) { return denied }
        guard let (limit, offset) = paging(call.request, defaultLimit: 20, maxLimit: 50, maxOffset: 100_000) else {
            return pagingError(call.request, maxLimit: 50)
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
    }

    /// The user's top tracks or artists (`kind`), ranked per time range.
    private func top(_ kind: String, _ call: WebAPIRoute.Call) -> EmulatorResponse {
        if let denied = requireScope(call.access, anyOf: ["user-top-read"]) { return denied }
        let range = call.request.parameter("time_range") ?? "medium_term"
        guard let rank = ["short_term", "medium_term", "long_term"].firstIndex(of: range) else {
            return .apiError(400, "Invalid time range")
        }
        guard let (limit, offset) = paging(call.request, defaultLimit: 20, maxLimit: 50, maxOffset: 10_000) else {
            return pagingError(call.request, maxLimit: 50)
        }
        // Each range ranks differently: the short term favours what was saved lately.
        let all: [JSONValue]
        if kind == "tracks" {
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
        let path = "/me/top/\(kind)"
        return .json(
            renderer.page(
                Array(all.dropFirst(offset).prefix(limit)), total: all.count, limit: limit, offset: offset,
                path: path,
                extra: [("time_range", range)]))
    }

    /// What is playing: `/me/player` (`full`) or `/me/player/currently-playing`; 204 for nothing.
    private func playing(full: Bool, _ call: WebAPIRoute.Call) -> EmulatorResponse {
        if let denied = requireScope(call.access, anyOf: ["user-read-currently-playing", "user-read-playback-state"]) {
            return denied
        }
        let episodes = (call.request.parameter("additional_types") ?? "").contains("episode")
        guard let playing = currentlyPlayingJSON(episodes: episodes, full: full) else {
            return EmulatorResponse(status: 204, headers: [], body: Data())
        }
        return .json(playing)
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

    /// `body` with the playlist the call names: 400 for an ID that is not 22 base62 characters,
    /// 404 for one not in the catalog or Spotify's own (as live since late 2024), 403 for one apps
    /// may not read.
    func withPlaylist(_ call: WebAPIRoute.Call, _ body: (CatalogPlaylist) -> EmulatorResponse) -> EmulatorResponse {
        let id = call.parameters[0]
        guard id.count == 22, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return .apiError(400, "Invalid base62 id")
        }
        // Spotify's own playlists answer 404 to every app like this one, as live since late 2024.
        guard let playlist = catalog.playlists[id], !playlist.deleted, !playlist.isEditorial else {
            return .apiError(404, "Resource not found")
        }
        if playlist.forbidden { return .apiError(403, "Forbidden") }
        return body(playlist)
    }

    /// A playlist, with its first entries for a user who may read them; `fields` selects.
    private func playlist(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        withPlaylist(call) { playlist in
            let (request, access) = (call.request, call.access)
            let episodes = (request.parameter("additional_types") ?? "").contains("episode")
            var full = renderer.fullPlaylistJSON(
                playlist, episodes: episodes, withItems: access.userID != nil && catalog.canReadItems(playlist))
            if let fields = request.parameter("fields") {
                guard let selection = FieldSelection.parse(fields) else { return .apiError(400, "Invalid fields") }
                // Live still answers the old name `tracks` with the entries page, whose entries,
                // asked for by `track`, come back as `{}`.
                full = selection.apply(to: full, aliases: configuration.shape == .current ? ["tracks": "items"] : [:])
            }
            return .json(full)
        }
    }

    /// A page of a playlist's entries, built off the actor.
    private func playlistItems(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        withPlaylist(call) { playlist in
            let (request, access) = (call.request, call.access)
            let episodes = (request.parameter("additional_types") ?? "").contains("episode")
            guard access.userID != nil, catalog.canReadItems(playlist) else { return .apiError(403, "Forbidden") }
            // 20 unless asked, 50 at most (the OpenAPI document).
            guard let (limit, offset) = paging(request, defaultLimit: 20, maxLimit: 50, maxOffset: Int(Int32.max))
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
        }
    }

    /// The cover's sizes, as `images` in the playlist; an empty array for a playlist without one.
    private func playlistImages(_ call: WebAPIRoute.Call) -> EmulatorResponse {
        withPlaylist(call) { playlist in
            let images = renderer.imagesJSON(playlist)
            return .json(images == .null ? .array([]) : images)
        }
    }

    // MARK: - /search

    /// The types search takes (the OpenAPI document's enum).
    static let searchTypes: Set = ["album", "artist", "playlist", "track", "show", "episode", "audiobook"]

    private func search(_ request: EmulatorRequest, predatesRestrictions: Bool) -> EmulatorResponse {
        // `q` as documented; `query` as live's own paging links write it (the recorded `search.json`).
        guard let query = request.parameter("q") ?? request.parameter("query"),
            !query.trimmingCharacters(in: .whitespaces).isEmpty
        else {
            return .apiError(400, "No search query")
        }
        let types = (request.parameter("type") ?? "").split(separator: ",").map(String.init)
        guard !types.isEmpty, types.allSatisfy(Self.searchTypes.contains) else {
            return .apiError(400, "Bad search type field")
        }
        // 10 at most since mid-2026, 50 for an older client; never past result 1000.
        let most = predatesRestrictions ? 50 : 10
        guard let (limit, offset) = paging(request, defaultLimit: 5, maxLimit: most, maxOffset: 1000, minLimit: 0)
        else {
            return pagingError(request, maxLimit: most)
        }
        guard offset + limit <= 1000 else { return .apiError(400, "Invalid offset") }
        let words = SearchText.fold(query).split(whereSeparator: \.isWhitespace)
        func matches(_ text: String) -> Bool {
            let folded = SearchText.folded(text)
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
        if types.contains("artist") {
            let found = catalog.artistNames.filter(matches)
            fields.append(
                ("artists", searchPage(found.map(renderer.fullArtistJSON), query: query, type: "artist", limit, offset))
            )
        }
        if types.contains("album") {
            let found = catalog.albums.values.filter { matches($0.name + " " + $0.artist) }.sorted { $0.id < $1.id }
            fields.append(
                (
                    "albums",
                    searchPage(
                        found.map { renderer.albumJSON($0, in: .search) }, query: query, type: "album", limit, offset)
                ))
        }
        if types.contains("show") {
            let found = catalog.shows.values.filter { matches($0.name + " " + $0.publisher) }.sorted { $0.id < $1.id }
            fields.append(
                (
                    "shows",
                    searchPage(
                        found.map { renderer.showJSON($0, withEpisodes: false) }, query: query, type: "show", limit,
                        offset)
                ))
        }
        if types.contains("episode") {
            let found = catalog.episodes.values.filter { matches($0.name + " " + $0.album) }.sorted {
                ($0.id ?? "") < ($1.id ?? "")
            }
            fields.append(
                (
                    "episodes",
                    searchPage(
                        found.map { renderer.episodeJSON($0, withShow: false) }, query: query, type: "episode", limit,
                        offset)
                ))
        }
        if types.contains("audiobook") {
            // The catalog has no audiobooks (nor does Spotify in many markets): an empty page.
            fields.append(("audiobooks", searchPage([], query: query, type: "audiobook", limit, offset)))
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
            path: "/search", extra: [("query", query), ("type", type)], bound: 1000)
    }

    // MARK: - /me/player/recently-played

    /// The last tracks played (an hour apart, the newest now), as a cursor page: `before` and
    /// `after` are Unix milliseconds, one or neither; `limit` 1–50.
    private func recentlyPlayed(_ request: EmulatorRequest, _ access: AccessRecord) -> EmulatorResponse {
        if let denied = requireScope(access, anyOf: ["user-read-recently-played"]) { return denied }
        let before = request.parameter("before").flatMap { Int64($0) }
        let after = request.parameter("after").flatMap { Int64($0) }
        guard before == nil || after == nil else { return .apiError(400, "Only one of before and after may be given") }
        guard let (limit, _) = paging(request, defaultLimit: 20, maxLimit: 50, maxOffset: 0) else {
            return pagingError(request, maxLimit: 50)
        }
        let newest = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let played = catalog.trackOrder.prefix(50).enumerated().map { index, id in
            (newest - Int64(index) * 3_600_000, catalog.tracks[id]!)
        }
        let page = played.filter { time, _ in
            (before.map { time < $0 } ?? true) && (after.map { time > $0 } ?? true)
        }.prefix(limit)
        // Played from the user's first playlist (the document's context object).
        let context: JSONValue =
            catalog.allOrder.first { catalog.playlists[$0]?.ownerID == catalog.userID }.map { id in
                .object([
                    ("external_urls", .object([("spotify", .string("https://open.spotify.com/playlist/\(id)"))])),
                    ("href", .string("\(baseURL)/v1/playlists/\(id)")), ("type", .string("playlist")),
                    ("uri", .string("spotify:playlist:\(id)")),
                ])
            } ?? .null
        let items = page.map { time, track in
            JSONValue.object([
                ("track", renderer.itemJSON(track, episodes: false, in: .catalog)),
                ("played_at", .string(ISOTime.string(Date(timeIntervalSince1970: Double(time) / 1000)))),
                ("context", context),
            ])
        }
        let path = "\(baseURL)/v1/me/player/recently-played"
        let oldest = page.last?.0
        return .json(
            .object([
                (
                    "cursors",
                    page.isEmpty
                        ? .null
                        : .object([("after", .string("\(page.first!.0)")), ("before", .string("\(oldest!)"))])
                ),
                ("href", .string("\(path)?limit=\(limit)")),
                ("items", .array(Array(items))),
                ("limit", .int(limit)),
                ("next", oldest.map { .string("\(path)?before=\($0)&limit=\(limit)") } ?? .null),
            ]))
    }

    // MARK: - Paging

    func paging(
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

    func pagingError(_ request: EmulatorRequest, maxLimit: Int) -> EmulatorResponse {
        if let limit = request.parameter("limit"), !(Int(limit).map { (0...maxLimit).contains($0) } ?? false) {
            return .apiError(400, "Invalid limit")
        }
        return .apiError(400, "Invalid offset")
    }
}
