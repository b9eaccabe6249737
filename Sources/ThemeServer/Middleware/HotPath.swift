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
struct HotPath: Sendable {
    let responseCache: ResponseCacheMiddleware
    let cors: CORSMiddleware
    let requestLog: RequestLogMiddleware

    /// The kept answer to `request`, finished for it; nil when none is kept.
    func answer(_ request: Request) -> Response? {
        let start = request.received ?? .now
        guard let kept = responseCache.hit(request) else { return nil }
        let unchanged = ConditionalRequestMiddleware.matches(request, etag: kept.etag)
        var response = unchanged ? kept.notModified : kept.ok
        if kept.crossOrigin { cors.addOriginFields(&response, for: request) }
        let id = requestLog.ids.id(for: request)
        let duration = ContinuousClock.now - start
        (unchanged ? kept.notModifiedInstruments : kept.okInstruments).record(duration, for: request)
        requestLog.finish(&response, request: request, id: id, route: kept.route, duration: duration)
        return response
    }
}
