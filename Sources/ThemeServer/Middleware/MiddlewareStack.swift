import HTTPServer

/// `ThemeService`'s middleware, and their order stated once (`order`, outermost first). The routed
/// path runs them as a chain around the router (`chain`, for `Responder`). The kept-answer path
/// (`PreparedResponder`) finishes an answer the response cache kept, or a direct route's, through the stages
/// outside the cache (`outsideCache`) in the order an answer passes them on its way out, each doing
/// only the part of its work that depends on the request (`finish`); what the stages inside the
/// cache do was settled when the answer was kept.
struct MiddlewareStack: Sendable {
    enum Stage: Sendable {
        case requestLog, metrics, cors, conditionalRequests, responseCache, compression, pinnedGeneration, sharedCache
    }

    /// CORS is outside the response cache and the 304s: the answer to another origin depends on
    /// its Origin header. Compression, pinned generations and the shared-cache headers are inside:
    /// a kept answer holds what they made of it.
    static let order: [Stage] = [.requestLog, .metrics, .cors, .conditionalRequests, .responseCache, .compression, .pinnedGeneration, .sharedCache]
    /// The stages a kept answer still passes, innermost first (as an answer comes back out).
    static let outsideCache: [Stage] = Array(order.prefix { $0 != .responseCache }.reversed())

    let requestLog: RequestLogMiddleware
    let metrics: MetricsMiddleware
    let cors: CORSMiddleware
    let conditionalRequests = ConditionalRequestMiddleware()
    let responseCache: ResponseCacheMiddleware
    let compression: CompressionMiddleware
    let pinnedGeneration: PinnedGenerationMiddleware
    let sharedCache: SharedCacheMiddleware

    /// The routed path's chain, outermost first.
    var chain: [any Middleware] {
        Self.order.map { stage -> any Middleware in
            switch stage {
            case .requestLog: requestLog
            case .metrics: metrics
            case .cors: cors
            case .conditionalRequests: conditionalRequests
            case .responseCache: responseCache
            case .compression: compression
            case .pinnedGeneration: pinnedGeneration
            case .sharedCache: sharedCache
            }
        }
    }

    /// Finishes `answer` for `request`, through each stage outside the response cache.
    func finish(_ answer: inout OutgoingResponse, for request: borrowing KeyedRequest, fields: inout FieldLines) {
        for stage in Self.outsideCache {
            switch stage {
            case .conditionalRequests: conditionalRequests.finish(&answer, ifNoneMatch: request.ifNoneMatch)
            case .cors: cors.finish(answer, origin: request.origin, fields: &fields)
            case .metrics: metrics.finish(&answer, loop: request.loop)
            case .requestLog: requestLog.finish(&answer, sent: request.requestID, loop: request.loop, fields: &fields)
            case .responseCache, .compression, .pinnedGeneration, .sharedCache: break
            }
        }
    }
}

/// A prepared response (kept by the response cache, or a direct route's) on its way out to one
/// request, through the stages outside the cache.
struct OutgoingResponse {
    let route: String
    /// When the request was read: what the metrics and the log time.
    let start: Moment
    var answer: PreparedResponse
    /// Where the metrics count it.
    var series: RequestTallies.Series
    /// The kept answer it came from, whose 304 (and its series) goes out instead when the
    /// request's If-None-Match names its ETag; nil for a direct route's answer. One reference,
    /// not its three fields copied: every kept request makes a `OutgoingResponse`.
    let kept: ResponseCacheMiddleware.Entry?
    /// Whether another origin may read it (a public route's).
    let crossOrigin: Bool
    /// Where the request's id is in its fields (the request log's stage).
    var id: Range<Int> = 0..<0
    /// How long the answer took, as the metrics recorded it.
    var duration: Duration = .zero
}

extension ConditionalRequestMiddleware {
    /// The kept answer's 304 when the request's If-None-Match names its ETag.
    func finish(_ answer: inout OutgoingResponse, ifNoneMatch: String?) {
        guard let kept = answer.kept, Self.matches(ifNoneMatch: ifNoneMatch, etag: kept.etag) else { return }
        (answer.answer, answer.series) = (kept.notModified, kept.notModifiedSeries)
    }
}

extension CORSMiddleware {
    /// The fields for the Origin asked from; the rest was settled when the answer was made.
    func finish(_ answer: OutgoingResponse, origin: @autoclosure () -> String?, fields: inout FieldLines) {
        if answer.crossOrigin { addOriginFields(to: &fields, origin: origin()) }
    }
}

extension MetricsMiddleware {
    /// Counts and times the answer.
    func finish(_ answer: inout OutgoingResponse, loop: Int?) {
        answer.duration = Moment.now - answer.start
        metrics.record(answer.series, duration: answer.duration, loop: loop)
    }
}

extension RequestLogMiddleware {
    /// The request's id in its fields; the line is logged once the answer is sent (`PreparedResponder`).
    func finish(_ answer: inout OutgoingResponse, sent: String?, loop: Int?, fields: inout FieldLines) {
        answer.id = ids.addID(sent: sent, loop: loop, to: &fields)
    }
}
