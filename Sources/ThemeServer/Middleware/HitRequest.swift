import HTTPServer
import HTTPTypes

/// A request as the fast path reads it: the key of its kept answer and the few fields a hit
/// answers by (If-None-Match, Origin, the client's X-Request-Id), read in one pass over its
/// fields. Made from a `Request`, or from a `RequestHead` before any `Request` is made (the
/// server's usual way: see `HotPath`); both ways read the same bytes and make the same key.
struct HitRequest {
    let method: HTTPRequest.Method
    private(set) var key: ResponseCacheMiddleware.Key
    /// Each field's values combined as `HTTPFields` combines them; nil when the request has none.
    private(set) var ifNoneMatch: String?
    private(set) var origin: String?
    private(set) var requestID: String?
    let remoteAddress: String
    let received: Moment?
    let loop: Int?

    init(_ request: Request) {
        (method, remoteAddress, received, loop) = (request.method, request.remoteAddress, request.received, request.loop)
        key = ResponseCacheMiddleware.Key(target: request.target.utf8.span)
        for field in request.headers { note(name: field.name.canonicalName.utf8.span, value: field.value.utf8.span) }
    }

    init(_ head: RequestHead) {
        (method, remoteAddress, received, loop) = (head.method, head.remoteAddress, head.received, head.loop)
        key = head.withTarget(ResponseCacheMiddleware.Key.init(target:))
        head.forEachField { name, value in note(name: name, value: value) }
    }

    /// The target as sent (for the access log).
    var target: String { key.target }

    private mutating func note(name: Span<UInt8>, value: Span<UInt8>) {
        if key.add(name: name, value: value) { return }
        if Self.ifNoneMatch.matches(name) {
            Self.combine(value, into: &ifNoneMatch)
        } else if Self.origin.matches(name) {
            Self.combine(value, into: &origin)
        } else if Self.requestID.matches(name) {
            Self.combine(value, into: &requestID)
        }
    }

    private static func combine(_ value: Span<UInt8>, into slot: inout String?) {
        let value = value.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        slot = slot.map { $0 + ", " + value } ?? value
    }

    private static let ifNoneMatch = CaselessToken(.ifNoneMatch), origin = CaselessToken(.origin), requestID = CaselessToken(.requestID)
}
