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
/// the theme changes, the active theme switches or the server says to resync. It keeps the
/// contract of docs/CLIENTS.md: a palette is published only when it parsed whole and answers the
/// newest request; a degraded answer keeps the last good value of each missing colour; the disk
/// copy is replaced only by a parsed palette; whatever fails, the last good palette stays, and
/// `status` and `onError` say why.
public final class ThemedClient: Sendable {
    /// A new palette, and why it came.
    public struct Update: Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            case cached, defaults, fetched, traitsChanged
            /// Asked again after the event stream (re)opened or the app came back
            /// (`revalidate()`): a 304 when nothing changed, and then no update.
            case revalidated
            /// The palette held when the listener was added.
            case current
            /// An event from the server: its type (`theme-reloaded`, `active-changed`, `resync`).
            case event(String)
        }

        public var palette: ThemePalette
        public var reason: Reason
    }

    /// Timeouts and delays; the defaults suit a phone on a mobile network.
    public struct Settings: Sendable {
        /// How long one request may take.
        public var requestTimeout: Duration
        /// How long the event stream may be silent before it is taken as hung and reopened (the
        /// server sends a heartbeat every 15 s by default).
        public var streamIdleTimeout: Duration
        /// The first and the longest delay before the stream is reopened after a failure.
        public var minimumReconnectDelay: Duration
        public var maximumReconnectDelay: Duration
        /// The id `/assign` knows this client by; nil: one made at random and kept in the cache
        /// folder (an app that can keep it elsewhere, a keychain, passes it here).
        public var clientID: String?

        public init(requestTimeout: Duration = .seconds(10), streamIdleTimeout: Duration = .seconds(45),
                    minimumReconnectDelay: Duration = .milliseconds(250), maximumReconnectDelay: Duration = .seconds(30), clientID: String? = nil) {
            (self.requestTimeout, self.streamIdleTimeout) = (requestTimeout, streamIdleTimeout)
            (self.minimumReconnectDelay, self.maximumReconnectDelay, self.clientID) = (minimumReconnectDelay, maximumReconnectDelay, clientID)
        }
    }

    public let server: URL
    public let settings: Settings
    let cache: ResponseCache?
    let session: URLSession

    struct State {
        var theme: String
        var traits: ThemeTraits
        var palette: ThemePalette?
        /// The palette URL `palette` answers (nil: defaults, or nothing yet).
        var paletteSource: URL?
        /// The revision of each theme of its chain as the server answered it (none for defaults).
        var revisions: [String: String] = [:]
        var status: ThemedClientStatus = .connecting
        var lastError: ThemedClientError?
        /// The id of the last event handled: its refresh (if it needed one) succeeded.
        var lastEventID: String?
        var listeners = Listeners<Update>()
        var statusListeners = Listeners<ThemedClientStatus>()
        var errorListeners = Listeners<ThemedClientError>()
        /// Each palette request is numbered; an answer older than the one published is dropped.
        var requestsMade = 0
        var requestPublished = 0
        /// While the client follows an alias: what it asks `/assign` with, and the answer.
        var assignmentQuery: AssignmentQuery?
        var assignment: ClientAssignment?
        var following: Task<Void, Never>?
        var inFlight: [Int: TaskCancellation] = [:]
        var nextRequest = 0
        var closed = false
    }

    let state: Mutex<State>

    /// `theme` may be `current`, which follows the server's active theme.
    public init(server: URL, theme: String = "current", traits: ThemeTraits = ThemeTraits(), cacheDirectory: URL? = nil,
                defaults: ThemePalette? = nil, settings: Settings = Settings(), session: URLSession = URLSession(configuration: .themedClient)) {
        self.server = server
        self.settings = settings
        self.session = session
        cache = cacheDirectory.map(ResponseCache.init(directory:))
        state = Mutex(State(theme: theme, traits: traits, palette: defaults))
    }

    public var palette: ThemePalette? { state.withLock { $0.palette } }
    public var theme: String { state.withLock { $0.theme } }
    public var traits: ThemeTraits { state.withLock { $0.traits } }
    public var status: ThemedClientStatus { state.withLock { $0.status } }
    /// The last error (also told to `onError`); nil after a success.
    public var lastError: ThemedClientError? { state.withLock { $0.lastError } }
    /// The id of the last event handled, sent as `Last-Event-ID` when the stream reconnects.
    public var lastEventID: String? { state.withLock { $0.lastEventID } }

    /// Publishes `palette` (answering `source`) unless it is what is held; `request`, when it
    /// answers one, must be newer than the one published and still be what the client asks.
    /// Returns whether it was taken.
    /// With `status`, the client's status changes with the palette, before any listener is told.
    @discardableResult
    func publish(_ palette: ThemePalette, _ reason: Update.Reason, source: URL?, revisions: [String: String] = [:], request: Int? = nil,
                 status: ThemedClientStatus? = nil) -> Bool {
        let told = state.withLock { state -> (palette: [@Sendable (Update) -> Void], status: [@Sendable (ThemedClientStatus) -> Void])? in
            if let request {
                guard request > state.requestPublished, source == paletteURL(state) else { return nil }
                state.requestPublished = request
            }
            state.paletteSource = source
            state.revisions = revisions
            var statusListeners: [@Sendable (ThemedClientStatus) -> Void] = []
            if let status, state.status != status {
                state.status = status
                statusListeners = state.statusListeners.all
            }
            guard state.palette != palette || reason == .cached || reason == .defaults else { return ([], statusListeners) }
            state.palette = palette
            return (state.listeners.all, statusListeners)
        }
        guard let told else { return false }
        if let status { for listener in told.status { listener(status) } }
        for listener in told.palette { listener(Update(palette: palette, reason: reason)) }
        return true
    }

    func setStatus(_ status: ThemedClientStatus) {
        let listeners = state.withLock { state -> [@Sendable (ThemedClientStatus) -> Void] in
            guard state.status != status else { return [] }
            state.status = status
            return state.statusListeners.all
        }
        for listener in listeners { listener(status) }
    }

    /// Records an error and tells the error listeners; `offline` also makes it the status.
    func report(_ error: ThemedClientError, offline: Bool = true) {
        let listeners = state.withLock { state in
            state.lastError = error
            return state.errorListeners.all
        }
        for listener in listeners { listener(error) }
        if offline { setStatus(.offline(error)) }
    }

    // MARK: Fetching

    /// The palette from the on-disk cache, or the bundled defaults: what to draw before the
    /// network answers.
    @discardableResult
    public func loadCached() -> ThemePalette? {
        let url = paletteURL()
        if let entry = cache?.entry(for: url), let answer = try? PaletteAnswer(json: entry.body) {
            publish(answer.palette, .cached, source: url, revisions: answer.revisions)
            return answer.palette
        }
        if let defaults = palette {
            publish(defaults, .defaults, source: nil)
            return defaults
        }
        return nil
    }

    /// Fetches the palette (revalidating the cached one); on failure keeps the last good one.
    @discardableResult
    public func refresh() async -> ThemePalette? {
        await refresh(reason: .fetched)
    }

    /// Revalidates what the client shows: call it when the app returns to the foreground or the
    /// network comes back (the event stream does it when it reopens). Following an alias, the
    /// assignment is asked again first. A 304 costs a round trip and publishes nothing.
    @discardableResult
    public func revalidate() async -> ThemePalette? {
        _ = await revalidated()
        return palette
    }

    /// Revalidates; whether it succeeded.
    func revalidated() async -> Bool {
        if state.withLock({ $0.assignmentQuery != nil }) {
            do { try await assign() } catch {
                report(error)
                return false
            }
        }
        return await fetchPalette(reason: .revalidated)
    }

    @discardableResult
    func refresh(reason: Update.Reason) async -> ThemePalette? {
        _ = await fetchPalette(reason: reason)
        return palette
    }

    /// One palette request; whether it succeeded (a dropped stale answer counts as one).
    func fetchPalette(reason: Update.Reason) async -> Bool {
        guard let (request, url) = state.withLock({ state -> (Int, URL)? in
            guard !state.closed else { return nil }
            state.requestsMade += 1
            return (state.requestsMade, paletteURL(state))
        }) else { return false }
        do {
            let fetched = try await fetch(url)
            let answer = try PaletteAnswer(json: fetched.body)
            let (palette, missing) = answer.degraded ? keepingMissing(answer.palette, source: url) : (answer.palette, [])
            state.withLock { $0.lastError = nil }
            guard publish(palette, reason, source: url, revisions: answer.revisions, request: request, status: answer.degraded ? .degraded(missing: missing) : .live) else { return true }
            // Only a whole palette replaces the disk copy: a degraded one would lose the missing
            // colours at the next start.
            if !answer.degraded { storeIfNew(fetched, for: url) }
            return true
        } catch .status(404, let url) where state.withLock({ $0.assignmentQuery != nil }) {
            // The pinned generation is no longer served: the assignment has moved on. Read again
            // only when it has (a theme that is gone would 404 again, and again).
            let pinned = theme
            if (try? await assign()) != nil, theme != pinned { return await fetchPalette(reason: reason) }
            report(.status(404, url))
        } catch .closed {
            return false
        } catch {
            report(error)
        }
        return false
    }

    /// A degraded palette with the last good value of each colour it lacks (from the palette held
    /// for the same request, else the disk copy), and the names so kept.
    private func keepingMissing(_ palette: ThemePalette, source: URL) -> (ThemePalette, [String]) {
        let held = state.withLock { $0.paletteSource == source ? $0.palette : nil }
        guard let good = held ?? cache?.entry(for: source).flatMap({ try? PaletteAnswer(json: $0.body).palette }) else { return (palette, []) }
        var kept = palette
        let missing = good.colors.keys.filter { palette.colors[$0] == nil }.sorted()
        for name in missing { kept.colors[name] = good.colors[name] }
        return (kept, missing)
    }

    /// A string table resolved for the client's languages (cached and revalidated like palettes).
    public func strings(table: String) async throws(ThemedClientError) -> [String: String] {
        let url = url(path: "/themes/\(theme)/strings/\(table)", query: traits.queryItems)
        let fetched = try await fetch(url)
        guard let object = (try? JSONSerialization.jsonObject(with: fetched.body)) as? [String: Any],
              let strings = object["strings"] as? [String: String] else {
            throw .invalidResponse("not a string table")
        }
        storeIfNew(fetched, for: url)
        return strings
    }

    /// An image's bytes for the client's traits (cached and revalidated like palettes).
    public func image(named name: String) async throws(ThemedClientError) -> Data {
        let url = url(path: "/themes/\(theme)/images/\(name)", query: traits.queryItems)
        let fetched = try await fetch(url)
        guard !fetched.body.isEmpty else { throw .invalidResponse("an empty image") }
        storeIfNew(fetched, for: url)
        return fetched.body
    }

    /// Keeps a new (200) answer as the disk copy; a cache that cannot be written is reported.
    private func storeIfNew(_ fetched: Fetched, for url: URL) {
        guard fetched.isNew, let cache else { return }
        do { try cache.store(ResponseCache.Entry(body: fetched.body, etag: fetched.etag), for: url) } catch { report(error, offline: false) }
    }

    /// New traits, then the palette for them. An answer for the old traits that lands later is
    /// dropped.
    public func setTraits(_ traits: ThemeTraits) async {
        state.withLock { $0.traits = traits }
        await refresh(reason: .traitsChanged)
    }

    /// Follows another theme (or `current`), then fetches its palette. It stops following an
    /// alias: a later 404 or `assignment-changed` does not take the theme back.
    public func setTheme(_ theme: String) async {
        state.withLock { state in
            state.theme = theme
            state.assignmentQuery = nil
            state.assignment = nil
        }
        await refresh(reason: .fetched)
    }

    /// Switches the server's active theme (`PUT /active`); `token` when the server needs one.
    public func setActiveTheme(_ name: String, token: String? = nil) async throws(ThemedClientError) {
        var request = URLRequest(url: url(path: "/active", query: []), timeoutInterval: settings.requestTimeout.seconds)
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try? JSONSerialization.data(withJSONObject: ["theme": name])
        let (_, response) = try await send(request)
        guard response.statusCode == 200 else { throw .status(response.statusCode, request.url ?? server) }
    }

    /// Stops the client: the event stream and every request in flight are cancelled now (their
    /// callers get the last good palette back), and nothing is fetched after. Returns at once.
    public func close() {
        let (following, requests) = state.withLock { state in
            state.closed = true
            defer { (state.following, state.inFlight) = (nil, [:]) }
            return (state.following, Array(state.inFlight.values))
        }
        following?.cancel()
        for request in requests { request.cancel() }
    }

    func paletteURL() -> URL {
        state.withLock { paletteURL($0) }
    }

    func paletteURL(_ state: State) -> URL {
        url(path: "/themes/\(state.theme)/colors", query: state.traits.queryItems)
    }

    func url(path: String, query: [URLQueryItem]) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/")
            + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
        components.queryItems = query.isEmpty ? nil : query
        return components.url ?? server
    }
}

extension Duration {
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
