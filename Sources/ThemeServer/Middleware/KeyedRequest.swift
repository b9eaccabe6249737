import HTTPServer
import HTTPTypes

/// A request as the fast path reads it: its key in the response cache and the few fields a hit
/// answers by (If-None-Match, Origin, the client's X-Request-Id), read in one pass over its
/// fields. Made from a `Request`, or from a `RequestHead` before any `Request` is made (the
/// server's usual way: see `PreparedResponder`); both ways read the same bytes and make the same key.
struct KeyedRequest {
    let method: HTTPRequest.Method
    let key: ResponseCacheMiddleware.Key
    /// Each field's values combined as `HTTPFields` combines them; nil when the request has none.
    let ifNoneMatch: String?
    let origin: String?
    let requestID: String?
    let remoteAddress: String
    let received: Moment?
    let loop: Int?

    init(_ request: Request) {
        (method, remoteAddress, received, loop) = (request.method, request.remoteAddress, request.received, request.loop)
        var fields = Fields(key: ResponseCacheMiddleware.Key(target: request.target.utf8.span))
        for field in request.headers { fields.note(name: field.name.canonicalName.utf8.span, value: field.value.utf8.span) }
        (key, ifNoneMatch, origin, requestID) = (fields.key, fields.ifNoneMatch, fields.origin, fields.requestID)
    }

    init(_ head: borrowing RequestHead) {
        (method, remoteAddress, received, loop) = (head.method, head.remoteAddress, head.received, head.loop)
        // Read into a local, not into `self`: a closure that changed `self` in an initializer
        // would work on a copy of it, copied back field by field.
        var fields = Fields(key: head.withTarget(ResponseCacheMiddleware.Key.init(target:)))
        head.forEachField { name, value in fields.note(name: name, value: value) }
        (key, ifNoneMatch, origin, requestID) = (fields.key, fields.ifNoneMatch, fields.origin, fields.requestID)
    }

    /// The target as sent (for the access log).
    var target: String { key.target }

    /// The fields a hit reads, as one pass over the request's fields finds them.
    private struct Fields {
        var key: ResponseCacheMiddleware.Key
        var ifNoneMatch: String?
        var origin: String?
        var requestID: String?

        mutating func note(name: Span<UInt8>, value: Span<UInt8>) {
            if key.add(name: name, value: value) { return }
            if KeyedRequest.ifNoneMatch.matches(name) {
                Self.combine(value, into: &ifNoneMatch)
            } else if KeyedRequest.origin.matches(name) {
                Self.combine(value, into: &origin)
            } else if KeyedRequest.requestID.matches(name) {
                Self.combine(value, into: &requestID)
            }
        }

        private static func combine(_ value: Span<UInt8>, into slot: inout String?) {
            let value = value.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
            slot = slot.map { $0 + ", " + value } ?? value
        }
    }

    private static let ifNoneMatch = CaselessToken(.ifNoneMatch), origin = CaselessToken(.origin), requestID = CaselessToken(.requestID)
}
