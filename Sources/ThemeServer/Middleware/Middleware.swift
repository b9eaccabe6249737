import HTTPServer

/// Something every request passes through on its way to the router and back (Hummingbird's
/// middleware idea): metrics, conditional requests and the response cache each wrap every route
/// the same way.
protocol Middleware: Sendable {
    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse
}

/// Middleware in order, outermost first, around the router.
struct Responder: Sendable {
    let middleware: [any Middleware]
    let router: Router

    func respond(to request: Request) -> RoutedResponse {
        respond(to: request, from: 0)
    }

    private func respond(to request: Request, from position: Int) -> RoutedResponse {
        guard position < middleware.count else { return router.respond(to: request) }
        return middleware[position].respond(to: request) { respond(to: $0, from: position + 1) }
    }
}
