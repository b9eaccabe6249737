import HTTPServer
import ThemeContent

/// `GET /events`: Server-Sent Events of theme changes, resuming after `Last-Event-ID`;
/// `?theme=NAME` keeps to that theme and its ancestors (a change to a parent changes the child).
struct EventRoutes: RouteCollection {
    let events: EventHub
    let library: ThemeLibrary

    var routes: [Route] {
        [.get("/events", label: "events") { eventStream($0.request) }]
    }

    private func eventStream(_ request: Request) -> Response {
        let lastID = request.headers[.lastEventID] ?? request.query["lastEventId"]
        let themes = request.query["theme"].map { name in
            Set([name] + ((try? library.chain(of: name)) ?? []).map(\.name))
        }
        let events = self.events
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"]) { stream in
            events.subscribe(stream, after: lastID, themes: themes)
        }
    }
}
