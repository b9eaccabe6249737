import HTTPServer
import ThemeContent

/// `GET /events`: Server-Sent Events of theme changes, resuming after `Last-Event-ID`.
/// `?theme=NAME` keeps to that theme and its ancestors (a change to a parent changes the child);
/// `?theme=current` and `?theme=ALIAS` to what the name stands for at each change, so a client
/// following the active theme is not sent every unrelated theme's reloads.
struct EventRoutes: RouteCollection {
    let events: EventHub
    let library: ThemeLibrary
    /// The themes an alias points at now (its default and its rules'); nil when there is no such alias.
    let aliasThemes: @Sendable (String) -> [String]?

    var routes: [Route] {
        [.get("/events", label: "events") { eventStream($0.request) }]
    }

    private func eventStream(_ request: Request) -> Response {
        let lastID = request.headers[.lastEventID] ?? request.query["lastEventId"]
        let interest = request.query["theme"].map(interest(in:)) ?? .every
        let events = self.events
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"]) { stream in
            events.subscribe(stream, after: lastID, interest: interest)
        }
    }

    private func interest(in name: String) -> EventHub.Interest {
        let library = library, aliasThemes = aliasThemes
        @Sendable func chains(_ themes: [String]) -> Set<String> {
            Set(themes + themes.flatMap { ((try? library.chain(of: $0)) ?? []).map(\.name) })
        }
        if name == AliasBook.current {
            return .following(name) { chains(library.activeTheme.map { [$0] } ?? []) }
        }
        if library.theme(named: name) == nil, aliasThemes(name) != nil {
            return .following(name) { chains(aliasThemes(name) ?? []) }
        }
        return .themes(chains([name]))
    }
}
