import HTTPServer
import HTTPTypes

/// `304 Not Modified` when the request's If-None-Match names the response's ETag (RFC 9110
/// 13.1.2), for every route, cached or not.
struct ConditionalRequestMiddleware: Middleware {
    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        var routed = next(request)
        routed.response = routed.response.map { Self.conditional($0, request) }
        return routed
    }

    static func conditional(_ response: Response, _ request: Request) -> Response {
        guard let etag = response.headers[.eTag], let match = request.headers[.ifNoneMatch],
              match.split(separator: ",").contains(where: { $0.trimmingCharacters() == etag || $0.trimmingCharacters() == "*" }) else {
            return response
        }
        var headers = response.headers
        headers[.contentType] = nil
        return Response(status: .notModified, headers: headers)
    }
}
