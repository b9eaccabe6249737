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
/// The server asks it with the request's checked head, before a `Request` is made (ThemeService's
/// side of the `HeadResponder` seam, at the end of this file): a hit reads its target and a few fields in one pass (`HitRequest`), writes
/// the fields it adds as bytes into the server's buffer and makes no Strings of the rest.
struct HotPath: Sendable {
    let responseCache: ResponseCacheMiddleware
    let cors: CORSMiddleware
    let requestLog: RequestLogMiddleware
    let metrics: ServiceMetrics

    /// The kept answer to the request `head` begins, with the fields this request adds to it
    /// written to `fields`; nil when none is kept (the request then goes down the chain without
    /// the cache being asked again: `ThemeService.answerRouted`).
    func answer(_ head: borrowing RequestHead, fields: inout FieldLines) -> PreparedAnswer? {
        let request = HitRequest(head)
        guard let hit = answer(request, fields: &fields) else { return nil }
        requestLog.log(remoteAddress: request.remoteAddress, method: request.method, target: request.target, id: fields.text(at: hit.id),
                       route: hit.route, status: hit.answer.status.code, bodyBytes: hit.answer.bodyLength, duration: hit.duration)
        return hit.answer
    }

    /// The kept answer to `request` (made in-process), finished for it; nil when none is kept.
    func answer(_ request: Request) -> Response? {
        var fields = FieldLines()
        guard let hit = answer(HitRequest(request), fields: &fields) else { return nil }
        requestLog.log(request: request, id: fields.text(at: hit.id), route: hit.route, status: hit.answer.status,
                       bodyBytes: hit.answer.bodyLength, duration: hit.duration)
        return hit.answer.response(adding: fields)
    }

    /// A kept answer found for a request: the 200 or the 304, its route, where its id is in the
    /// request's fields, and how long finding it took.
    private struct Hit {
        let answer: PreparedAnswer
        let route: String
        let id: Range<Int>
        let duration: Duration
    }

    /// The kept answer to `request`, with the fields it adds (the CORS lines, the id) and its
    /// metrics counted; the logs are the caller's.
    private func answer(_ request: borrowing HitRequest, fields: inout FieldLines) -> Hit? {
        let start = request.received ?? .now
        guard let kept = responseCache.hit(request) else { return nil }
        let unchanged = ConditionalRequestMiddleware.matches(ifNoneMatch: request.ifNoneMatch, etag: kept.etag)
        if kept.crossOrigin { cors.addOriginFields(to: &fields, origin: request.origin) }
        let id = requestLog.ids.addID(sent: request.requestID, loop: request.loop, to: &fields)
        let duration = Moment.now - start
        metrics.record(unchanged ? kept.notModifiedSeries : kept.okSeries, duration: duration, loop: request.loop)
        return Hit(answer: unchanged ? kept.notModified : kept.ok, route: kept.route, id: id, duration: duration)
    }
}

/// The server's seam for kept answers (`HeadResponder`): the hot path, asked before a `Request`
/// is made; a request it has no kept answer for goes to `answerRouted`.
extension ThemeService {
    public func answer(_ head: RequestHead, requestFields: inout FieldLines) -> PreparedAnswer? {
        hotPath.answer(head, fields: &requestFields)
    }
}
