import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import ThemeVocabulary

/// A theme's resolved palette, kept current: an app's view of a themed server.
///
/// It starts from what it last had (the on-disk cache) or from bundled defaults, fetches with
/// ETag revalidation, and, while `follow()` runs, listens to `/events` and fetches again when
/// the theme changes, the active theme switches or the server says to resync. Whatever fails
/// (the server away, a 500, garbage JSON, a stream cut mid-line), the last good palette stays
/// and `lastError` says why.
public final class ThemedClient: Sendable {
    /// A new palette, and why it came.
    public struct Update: Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            case cached, defaults, fetched, traitsChanged
            /// An event from the server: its type (`theme-reloaded`, `active-changed`, `resync`).
            case event(String)
        }

        public var palette: ThemePalette
        public var reason: Reason
    }

    public let server: URL
    let cache: ResponseCache?
    let session: URLSession

    struct State {
        var theme: String
        var traits: ThemeTraits
        var palette: ThemePalette?
        var lastError: ThemedClientError?
        var lastEventID: String?
        var listeners: [Int: @Sendable (Update) -> Void] = [:]
        var nextListener = 0
        /// While the client follows an alias: what it asks `/assign` with, and the answer.
        var audience: AudienceRequest?
        var assignment: ClientAssignment?
    }

    let state: Mutex<State>

    /// `theme` may be `current`, which follows the server's active theme.
    public init(server: URL, theme: String = "current", traits: ThemeTraits = ThemeTraits(), cacheDirectory: URL? = nil,
                defaults: ThemePalette? = nil, session: URLSession = URLSession(configuration: .themedClient)) {
        self.server = server
        self.session = session
        cache = cacheDirectory.map(ResponseCache.init(directory:))
        state = Mutex(State(theme: theme, traits: traits, palette: defaults))
    }

    public var palette: ThemePalette? { state.withLock { $0.palette } }
    public var theme: String { state.withLock { $0.theme } }
    public var traits: ThemeTraits { state.withLock { $0.traits } }
    /// Why the last fetch or event stream failed; nil after a success.
    public var lastError: ThemedClientError? { state.withLock { $0.lastError } }
    /// The id of the last event seen, sent as `Last-Event-ID` when the stream reconnects.
    public var lastEventID: String? { state.withLock { $0.lastEventID } }

    // MARK: Updates

    /// Calls `handler` with every new palette (on the client's threads) until the returned
    /// token is cancelled.
    @discardableResult
    public func onUpdate(_ handler: @escaping @Sendable (Update) -> Void) -> UpdateToken {
        let key = state.withLock { state in
            defer { state.nextListener += 1 }
            state.listeners[state.nextListener] = handler
            return state.nextListener
        }
        return UpdateToken { [weak self] in self?.state.withLock { _ = $0.listeners.removeValue(forKey: key) } }
    }

    /// Every new palette, as an asynchronous sequence.
    public var updates: AsyncStream<Update> {
        AsyncStream { continuation in
            let token = onUpdate { continuation.yield($0) }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    public final class UpdateToken: Sendable {
        private let cancellation: @Sendable () -> Void
        init(_ cancellation: @escaping @Sendable () -> Void) { self.cancellation = cancellation }
        public func cancel() { cancellation() }
    }

    private func publish(_ palette: ThemePalette, _ reason: Update.Reason) {
        let listeners = state.withLock { state -> [@Sendable (Update) -> Void] in
            guard state.palette != palette || reason == .cached || reason == .defaults else { return [] }
            state.palette = palette
            return Array(state.listeners.values)
        }
        for listener in listeners { listener(Update(palette: palette, reason: reason)) }
    }

    // MARK: Fetching

    /// The palette from the on-disk cache, or the bundled defaults: what to draw before the
    /// network answers.
    @discardableResult
    public func loadCached() -> ThemePalette? {
        if let entry = cache?.entry(for: paletteURL()), let palette = try? ThemePalette(json: entry.body) {
            publish(palette, .cached)
            return palette
        }
        if let defaults = palette {
            publish(defaults, .defaults)
            return defaults
        }
        return nil
    }

    /// Fetches the palette (revalidating the cached one); on failure keeps the last good one.
    @discardableResult
    public func refresh() async -> ThemePalette? {
        await refresh(reason: .fetched)
    }

    @discardableResult
    func refresh(reason: Update.Reason) async -> ThemePalette? {
        do {
            let palette = try ThemePalette(json: try await get(paletteURL()))
            state.withLock { $0.lastError = nil }
            publish(palette, reason)
        } catch .status(404, let url) where state.withLock({ $0.audience != nil }) {
            // The pinned generation is no longer served: the assignment has moved on. Read again
            // only when it has (a theme that is gone would 404 again, and again).
            let pinned = theme
            if (try? await assign()) != nil, theme != pinned { return await refresh(reason: reason) }
            state.withLock { $0.lastError = .status(404, url) }
        } catch {
            state.withLock { $0.lastError = error }
        }
        return palette
    }

    /// A string table resolved for the client's languages (cached and revalidated like palettes).
    public func strings(table: String) async throws(ThemedClientError) -> [String: String] {
        let body = try await get(url(path: "/themes/\(theme)/strings/\(table)", query: traits.queryItems))
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
              let strings = object["strings"] as? [String: String] else {
            throw .invalidResponse("not a string table")
        }
        return strings
    }

    /// An image's bytes for the client's traits (cached and revalidated like palettes).
    public func image(named name: String) async throws(ThemedClientError) -> Data {
        try await get(url(path: "/themes/\(theme)/images/\(name)", query: traits.queryItems))
    }

    /// New traits, then the palette for them.
    public func setTraits(_ traits: ThemeTraits) async {
        state.withLock { $0.traits = traits }
        await refresh(reason: .traitsChanged)
    }

    /// Follows another theme (or `current`), then fetches its palette.
    public func setTheme(_ theme: String) async {
        state.withLock { $0.theme = theme }
        await refresh(reason: .fetched)
    }

    /// Switches the server's active theme (`PUT /active`); `token` when the server needs one.
    public func setActiveTheme(_ name: String, token: String? = nil) async throws(ThemedClientError) {
        var request = URLRequest(url: url(path: "/active", query: []))
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try? JSONSerialization.data(withJSONObject: ["theme": name])
        let (_, response) = try await send(request)
        guard response.statusCode == 200 else { throw .status(response.statusCode, request.url ?? server) }
    }

    func paletteURL() -> URL {
        let (theme, traits) = state.withLock { ($0.theme, $0.traits) }
        return url(path: "/themes/\(theme)/colors", query: traits.queryItems)
    }

    func url(path: String, query: [URLQueryItem]) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/")
            + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
        components.queryItems = query.isEmpty ? nil : query
        return components.url ?? server
    }

    /// GET with the cached ETag; a 304 answers from the cache, a 200 replaces it.
    func get(_ url: URL) async throws(ThemedClientError) -> Data {
        var request = URLRequest(url: url, timeoutInterval: 10)
        let cached = cache?.entry(for: url)
        if let etag = cached?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let (body, response) = try await send(request)
        switch response.statusCode {
        case 304:
            guard let cached else { throw .invalidResponse("304 without a cached copy") }
            return cached.body
        case 200:
            try? cache?.store(ResponseCache.Entry(body: body, etag: response.value(forHTTPHeaderField: "ETag")), for: url)
            return body
        default:
            throw .status(response.statusCode, url)
        }
    }

    func send(_ request: URLRequest) async throws(ThemedClientError) -> (Data, HTTPURLResponse) {
        do {
            let (body, response) = try await session.response(for: request)
            guard let http = response as? HTTPURLResponse else { throw ThemedClientError.invalidResponse("not HTTP") }
            return (body, http)
        } catch let error as ThemedClientError {
            throw error
        } catch {
            throw .transport(error.localizedDescription)
        }
    }

    // MARK: Following the server's events

    /// Listens to `/events` until the task is cancelled, reconnecting after any failure with
    /// exponential backoff and jitter (or the server's `retry:`), resuming with `Last-Event-ID`.
    public func follow(minimumDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(30)) -> Task<Void, Never> {
        Task { [self] in
            var failures = 0
            while !Task.isCancelled {
                var parser = ServerSentEventParser()
                do {
                    // A named theme's changes only (and its parents': the server adds them), which
                    // also lets a sharded front door route the stream to the theme's replicas;
                    // `current` follows every switch.
                    // Following an alias, every event: the alias may move to another theme.
                    let theme = self.theme
                    let only = theme == "current" || state.withLock({ $0.audience != nil }) ? [] : [URLQueryItem(name: "theme", value: theme)]
                    for try await chunk in EventStream.open(url(path: "/events", query: only), lastEventID: lastEventID) {
                        failures = 0
                        for event in parser.feed(chunk) { await handle(event) }
                        // An id without an event (the stream's opening says where it starts) counts too.
                        if let id = parser.lastEventID { state.withLock { $0.lastEventID = id } }
                        // Another theme followed since (setTheme): a stream of its own, resuming
                        // after the last id, so its changes meanwhile are replayed.
                        if self.theme != theme { break }
                    }
                    if self.theme != theme { continue }
                    state.withLock { $0.lastError = .transport("the event stream ended") }
                } catch {
                    state.withLock { $0.lastError = (error as? ThemedClientError) ?? .transport("\(error)") }
                }
                if Task.isCancelled { return }
                failures += 1
                let base = parser.retryMilliseconds.map { Duration.milliseconds($0) } ?? minimumDelay
                let backoff = min(maximumDelay, base * (1 << min(failures - 1, 16)))
                // Jitter: a fleet of clients cut off together does not come back together.
                try? await Task.sleep(for: backoff * Double.random(in: 0.5...1.0))
            }
        }
    }

    func handle(_ event: ServerSentEvent) async {
        if let id = event.id { state.withLock { $0.lastEventID = id } }
        switch event.type {
        case "theme-reloaded", "theme-added", "theme-removed":
            // A parent's change shows in its children too: any reloaded theme is worth a
            // revalidation, which costs a 304 when this palette did not change.
            await refresh(reason: .event(event.type))
        case "active-changed" where theme == "current":
            await refresh(reason: .event(event.type))
        case "resync":
            await refresh(reason: .event(event.type))
        case "assignment-changed":
            await reassign(after: event)
        default:
            break
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
