import HTTPServer

/// `GET /events`: Server-Sent Events of theme changes, resuming after `Last-Event-ID`.
struct EventRoutes: RouteCollection {
    let events: EventHub

    var routes: [Route] {
        [.get("/events", label: "events") { eventStream($0.request) }]
    }

    private func eventStream(_ request: Request) -> Response {
        let lastID = request.headers[.lastEventID] ?? request.query["lastEventId"]
        let events = self.events
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"]) { stream in
            events.subscribe(stream, after: lastID)
        }
    }
}
