import HTTPServer

/// The fast path, answering with prepared responses (`PreparedResponse`): a request whose answer
/// the response cache keeps is answered here, before the middleware chain, with only what differs per request; so is a request of a direct route
/// (`Route.direct`, `/assign`), whose answer is made per request and needs none of the chain but
/// what every answer gets.
///
/// Everything the chain adds to a kept answer that does not depend on the request was settled
/// when the answer was kept (the shared-cache headers, Vary, the chosen encoding, the CORS
/// headers every origin gets, the serialised head and the route's metrics: see
/// `ResponseCacheMiddleware.Entry`). What is left is what the stages outside the response
/// cache do per request, in the chain's order (`MiddlewareStack.finish`): the 304 for a matching
/// If-None-Match, the CORS lines for a listed Origin, the metrics and the request id; then the
/// access log. A direct route's answer gets the same, its CORS headers settled as the chain
/// settles them.
///
/// The server asks it with the request's checked head, before a `Request` is made (ThemeService's
/// side of the `HeadResponder` seam, at the end of this file): a hit reads its target and a few
/// fields in one pass (`KeyedRequest`), writes the fields it adds as bytes into the server's buffer
/// and makes no Strings of the rest; only a direct route's request is made into a `Request`.
struct PreparedResponder: Sendable {
    let stack: MiddlewareStack
    /// The route table, for direct routes.
    let router: Router

    /// The kept answer to the request `head` begins, with the fields this request adds to it
    /// written to `fields`; nil when none is kept (the request then goes down the chain without
    /// the cache being asked again: `ThemeService.answerRouted`).
    func answer(_ head: borrowing RequestHead, fields: inout FieldLines) -> PreparedResponse? {
        let request = KeyedRequest(head)
        // A direct route's answer is never kept: its requests do not ask the cache first.
        // A direct route reads its target alone: its request is made without the fields.
        let direct = mayBeDirect(request) ? (try? head.targetOnlyRequest()).flatMap { answerDirectly($0, request, fields: &fields) } : nil
        guard let hit = direct ?? answer(request, fields: &fields) else { return nil }
        // The id's text is a String made and freed for each answer (past 15 bytes, on the heap):
        // only for a log that keeps it.
        if stack.requestLog.records(status: hit.answer.status.code) {
            stack.requestLog.log(remoteAddress: request.remoteAddress, method: request.method, target: request.target, id: fields.text(at: hit.id),
                                 route: hit.route, status: hit.answer.status.code, bodyBytes: hit.answer.bodyLength, duration: hit.duration)
        }
        return hit.answer
    }

    /// The kept answer to `request` (made in-process), finished for it; nil when none is kept.
    func answer(_ request: Request) -> Response? {
        var fields = FieldLines()
        let keyed = KeyedRequest(request)
        let direct = mayBeDirect(keyed) ? answerDirectly(request, keyed, fields: &fields) : nil
        guard let hit = direct ?? answer(keyed, fields: &fields) else { return nil }
        stack.requestLog.log(request: request, id: fields.text(at: hit.id), route: hit.route, status: hit.answer.status,
                       bodyBytes: hit.answer.bodyLength, duration: hit.duration)
        return hit.answer.response(adding: fields)
    }

    /// The kept answer to `request`, finished for it (its fields added, its metrics counted); the
    /// logs are the caller's.
    private func answer(_ request: borrowing KeyedRequest, fields: inout FieldLines) -> OutgoingResponse? {
        let start = request.received ?? .now
        guard let kept = stack.responseCache.hit(request) else { return nil }
        var hit = OutgoingResponse(route: kept.route, start: start, answer: kept.ok, series: kept.okSeries,
                                  kept: kept, crossOrigin: kept.crossOrigin)
        stack.finish(&hit, for: request, fields: &fields)
        return hit
    }

    /// Whether `request`'s target begins as a direct route's does (most requests are told no
    /// here, with no `Request` made).
    private func mayBeDirect(_ request: borrowing KeyedRequest) -> Bool {
        router.directPrefixes.contains { request.key.targetBegins(with: $0) }
    }

    /// The answer of the direct route `request` takes, finished as a kept answer is (`hit` is the
    /// same request as the fast path read it); nil when the route it takes is not direct.
    private func answerDirectly(_ request: Request, _ hit: borrowing KeyedRequest, fields: inout FieldLines) -> OutgoingResponse? {
        let start = hit.received ?? .now
        guard let routed = router.respondDirectly(to: request) else { return nil }
        var response = routed.response
        if routed.crossOrigin { stack.cors.settle(&response) }
        // A direct route answers with bytes (see `Route.direct`); one that did not would be
        // answered again down the chain rather than not at all.
        guard let answer = PreparedResponse(response) else {
            assertionFailure("direct route \(routed.route) answered with no known length")
            return nil
        }
        var direct = OutgoingResponse(route: routed.route, start: start, answer: answer,
                                     series: stack.metrics.metrics.series(route: routed.route, status: answer.status.code, loop: hit.loop), kept: nil,
                                     crossOrigin: routed.crossOrigin)
        stack.finish(&direct, for: hit, fields: &fields)
        return direct
    }
}

/// The server's seam for kept answers (`HeadResponder`): the hot path, asked before a `Request`
/// is made; a request it has no kept answer for goes to `answerRouted`.
extension ThemeService {
    public func answer(_ head: RequestHead, requestFields: inout FieldLines) -> PreparedResponse? {
        preparedResponder.answer(head, fields: &requestFields)
    }
}
