import HTTPServer

/// The fast path: a request whose answer the response cache keeps is answered here, before the
/// middleware chain, with only what differs per request.
///
/// Everything the chain adds to such an answer that does not depend on the request was settled
/// when the answer was kept (the shared-cache headers, Vary, the chosen encoding, the CORS
/// headers every origin gets, the serialised head and the route's metrics: see
/// `ResponseCacheMiddleware.KeptAnswer`). What is left is what each middleware does per request,
/// through the same functions the chain uses: the 304 for a matching If-None-Match, the CORS lines
/// for a listed Origin, the request id, the metrics and the access log.
///
/// The server asks it with the request's checked head (`answer(_: RequestHead)`), before a
/// `Request` is made: a hit reads its target and a few fields in one pass (`HitRequest`) and
/// makes no Strings of the rest.
struct HotPath: Sendable {
    let responseCache: ResponseCacheMiddleware
    let cors: CORSMiddleware
    let requestLog: RequestLogMiddleware

    /// The kept answer to the request `head` begins, finished for it; nil when none is kept, or
    /// when the main log has a record of every request (written from a `Request`).
    func answer(_ head: RequestHead) -> Response? {
        guard !requestLog.logsEveryRequest else { return nil }
        let hit = HitRequest(head)
        return answer(hit) { response, id, route, duration in
            requestLog.addIDAndLogAccess(&response, remoteAddress: hit.remoteAddress, method: hit.method, target: hit.target, id: id,
                                         route: route, duration: duration)
        }
    }

    /// The kept answer to `request` (made in-process), finished for it; nil when none is kept.
    func answer(_ request: Request) -> Response? {
        answer(HitRequest(request)) { response, id, route, duration in
            requestLog.finish(&response, request: request, id: id, route: route, duration: duration)
        }
    }

    /// The kept answer to `request`, with all but what `finish` adds (the request id and the logs).
    private func answer(_ request: HitRequest, finish: (inout Response, _ id: String, _ route: String, Duration) -> Void) -> Response? {
        let start = request.received ?? .now
        guard let kept = responseCache.hit(request) else { return nil }
        let unchanged = ConditionalRequestMiddleware.matches(ifNoneMatch: request.ifNoneMatch, etag: kept.etag)
        var response = unchanged ? kept.notModified : kept.ok
        if kept.crossOrigin { cors.addOriginFields(&response, origin: request.origin) }
        let id = requestLog.ids.id(sent: request.requestID, loop: request.loop)
        let duration = ContinuousClock.now - start
        (unchanged ? kept.notModifiedInstruments : kept.okInstruments).record(duration, loop: request.loop)
        finish(&response, id, kept.route, duration)
        return response
    }
}
