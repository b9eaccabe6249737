import HTTPServer
import HTTPTypes

/// `304 Not Modified` when the request's If-None-Match names the response's ETag (RFC 9110
/// 13.1.2), for every route, cached or not.
struct ConditionalRequestMiddleware: Middleware {
    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        var routed = next(request)
        routed.response = routed.response.map { response in
            guard let etag = response.headers[.eTag], Self.matches(request, etag: etag) else { return response }
            return Self.notModified(response)
        }
        return routed
    }

    /// Whether the request's If-None-Match names `etag` (or is `*`).
    static func matches(_ request: Request, etag: String) -> Bool {
        matches(ifNoneMatch: request.headers[.ifNoneMatch], etag: etag)
    }

    /// Whether an If-None-Match value (nil: the request has none) names `etag` (or is `*`).
    static func matches(ifNoneMatch match: String?, etag: String) -> Bool {
        guard let match else { return false }
        return match.split(separator: ",").contains { $0.trimmingCharacters() == etag || $0.trimmingCharacters() == "*" }
    }

    /// The 304 for `response`: its headers without Content-Type, and no body.
    static func notModified(_ response: Response) -> Response {
        var headers = response.headers
        headers[.contentType] = nil
        return Response(status: .notModified, headers: headers)
    }
}
