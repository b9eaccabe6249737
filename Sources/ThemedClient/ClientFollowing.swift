import Foundation

/// Following the server's events: one stream per client, reopened after any failure with
/// exponential backoff and jitter (or the server's `retry:`), resuming with `Last-Event-ID`.
extension ThemedClient {
    /// Listens to `/events` until the task is cancelled or the client closed. A second call while
    /// one runs returns the running one: a client has one stream.
    ///
    /// The stream asks only for what concerns the client (`?theme=` the theme, `current` or the
    /// alias followed: the server sends that theme's and its parents' changes). Each (re)open
    /// revalidates the palette, so a client that started offline catches up with what changed
    /// meanwhile. An event's id is taken as seen only once the refresh it asked for succeeded: a
    /// failed one closes the stream, and the reopened stream replays the event.
    @discardableResult
    public func follow() -> Task<Void, Never> {
        state.withLock { held in
            if let running = held.following, !running.isCancelled { return running }
            let task = Task { [self] in
                await followEvents()
                // Ended (cancelled): a later follow() starts another.
                state.withLock { if $0.following?.isCancelled ?? true { $0.following = nil } }
            }
            held.following = held.closed ? nil : task
            if held.closed { task.cancel() }
            return task
        }
    }

    private func followEvents() async {
        var failures = 0
        while !Task.isCancelled, !state.withLock({ $0.closed }) {
            var parser = ServerSentEventParser()
            let followed = followedName
            do {
                var revalidationDue = true
                for try await chunk in EventStream.open(url(path: "/events", query: [URLQueryItem(name: "theme", value: followed)]),
                                                         lastEventID: lastEventID, idleTimeout: settings.streamIdleTimeout.seconds) {
                    let events = parser.feed(chunk)
                    var refreshed = false
                    for event in events {
                        let outcome = await handle(event)
                        guard outcome != .failed else { throw ThemedClientError.transport("the refresh after event \(event.id ?? "") failed") }
                        refreshed = refreshed || outcome == .refreshed
                        if let id = event.id { state.withLock { $0.lastEventID = id } }
                    }
                    // (Re)opened: the opening (it ends with an id) replays what changed while no
                    // stream was open, unless the server no longer had it or never saw this client.
                    // Revalidate either way, unless a replayed event just did: a 304 costs nothing.
                    if revalidationDue, !events.isEmpty || parser.lastEventID != nil {
                        revalidationDue = false
                        if !refreshed, !(await revalidated()) { throw ThemedClientError.transport("the revalidation after the stream opened failed") }
                        failures = 0
                    }
                    // An id without an event (the stream's opening says where it starts) counts too,
                    // once the revalidation it asked for succeeded.
                    if events.isEmpty, let id = parser.lastEventID { state.withLock { $0.lastEventID = id } }
                    // Another theme followed since (setTheme, an alias's new assignment): a stream
                    // of its own, resuming after the last id, so its changes meanwhile are replayed.
                    if followedName != followed { break }
                }
                if followedName != followed { continue }
                report(.transport("the event stream ended"))
            } catch {
                if Task.isCancelled || state.withLock({ $0.closed }) { return }
                report((error as? ThemedClientError) ?? .transport("\(error)"))
            }
            if Task.isCancelled { return }
            failures += 1
            let base = parser.retryMilliseconds.map { Duration.milliseconds($0) } ?? settings.minimumReconnectDelay
            let backoff = min(settings.maximumReconnectDelay, base * (1 << min(failures - 1, 16)))
            // Jitter: a fleet of clients cut off together does not come back together.
            try? await Task.sleep(for: backoff * Double.random(in: 0.5...1.0))
        }
    }

    /// What the stream asks for: the alias followed, else the theme (or `current`).
    var followedName: String {
        state.withLock { $0.assignmentQuery?.alias ?? $0.theme }
    }

    enum EventOutcome: Equatable { case ignored, refreshed, failed }

    func handle(_ event: ServerSentEvent) async -> EventOutcome {
        let data = (event.data.data(using: .utf8)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        let following = state.withLock { (alias: $0.assignmentQuery?.alias, theme: $0.theme) }
        switch event.type {
        case "theme-reloaded", "theme-added", "theme-removed":
            // The stream sends only this theme's changes and its parents': each is worth a
            // revalidation, which costs a 304 when this palette did not change, and nothing when
            // the palette held already has the revision announced (a replayed event).
            if holds(data, asTheme: false) { return .ignored }
        case "active-changed" where following.theme == "current" && following.alias == nil:
            if holds(data, asTheme: true) { return .ignored }
        case "resync":
            // Too much was missed to replay: ask everything again, the assignment first.
            if following.alias != nil {
                do { try await assign() } catch { report(error); return .failed }
            }
        case "assignment-changed":
            guard let alias = following.alias, data["alias"] as? String == alias else { return .ignored }
            do {
                let before = assignment
                guard try await assign() != before else { return .ignored }
            } catch {
                report(error)
                return .failed
            }
        default:
            return .ignored
        }
        // A change that reaches a crowd asks each client to wait a random part of this long, so
        // that the server is not asked by every client in the same instant.
        if let within = data["refetchWithin"] as? Int, within > 0 {
            try? await Task.sleep(for: .milliseconds(Int.random(in: 0...min(within, 60_000))))
        }
        return await fetchPalette(reason: .event(event.type)) ? .refreshed : .failed
    }

    /// Whether the palette held already has what an event announces: the revision it names of
    /// its theme (`asTheme`: as the palette's own theme, for a switch, not only in its chain).
    private func holds(_ data: [String: Any], asTheme: Bool) -> Bool {
        guard let theme = data["theme"] as? String, let revision = data["revision"] as? String, !revision.isEmpty else { return false }
        return state.withLock { $0.revisions[theme] == revision && (!asTheme || $0.palette?.theme == theme) }
    }
}
