import Foundation
import HTTPServer
import HTTPTypes

extension HTTPField.Name {
    static let origin = HTTPField.Name("Origin")!
    static let accessControlAllowOrigin = HTTPField.Name("Access-Control-Allow-Origin")!
    static let accessControlAllowMethods = HTTPField.Name("Access-Control-Allow-Methods")!
    static let accessControlAllowHeaders = HTTPField.Name("Access-Control-Allow-Headers")!
    static let accessControlExposeHeaders = HTTPField.Name("Access-Control-Expose-Headers")!
    static let accessControlMaxAge = HTTPField.Name("Access-Control-Max-Age")!
    static let accessControlRequestHeaders = HTTPField.Name("Access-Control-Request-Headers")!
}

/// Cross-origin reads (the Fetch standard's CORS protocol): web apps are served from origins of
/// their own, and read palettes, images and `/events` from themed.
///
/// Only routes marked `crossOrigin` (every public read) answer other origins; the admin routes
/// (`/active`, `/metrics`, `/healthz`) never do, so a page elsewhere cannot switch the active
/// theme through a visitor's browser. `allowedOrigins` `["*"]` lets any origin read (no
/// credentials are involved): every public answer carries `*`, so a response cached by a
/// browser for a same-origin page still serves a page elsewhere. A list answers only those
/// origins, echoed, and every public answer then says `Vary: Origin`.
/// Preflights (`OPTIONS` with `Access-Control-Request-Method`) of a public route get 204 with
/// the methods and the request headers themed reads.
struct CORSMiddleware: Middleware {
    let allowedOrigins: [String]
    /// `*` is among them: any origin may read (settled once, not asked again per request).
    let anyOrigin: Bool

    init(allowedOrigins: [String]) {
        self.allowedOrigins = allowedOrigins
        anyOrigin = allowedOrigins.contains("*")
    }

    /// Request headers a page may send: the conditional and trait headers, and EventSource's.
    static let allowedRequestHeaders = ["Accept-Language", "If-None-Match", "Last-Event-ID", "X-Request-Id", "Sec-CH-Prefers-Color-Scheme",
                                        "Sec-CH-Prefers-Contrast", "Sec-CH-DPR", "DPR"]
    /// Response headers a page may read besides the safelisted ones.
    static let exposedHeaders = "ETag, Content-Location, X-Themed-Variant, X-Request-Id, Surrogate-Key"

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        var routed = next(request)
        guard routed.crossOrigin else { return routed }
        if request.method == .options {
            // A preflight is only ever asked with an Origin; it says nothing to a request without one.
            guard let origin = request.headers[.origin] else { return routed }
            routed.response = routed.response.map { preflightAnswer($0, origin: origin, request: request) }
        } else {
            routed.response = routed.response.map { response in
                var response = response
                settle(&response)
                addOriginFields(to: &response.requestFields, origin: request.headers[.origin])
                return response
            }
        }
        return routed
    }

    /// What every answer of a public route carries, whoever asks: what a browser or CDN keeps must
    /// be right for every origin that asks next. With any origin allowed, every answer carries `*`
    /// (asked with an Origin or not); with a list, every answer varies by Origin, even one asked
    /// without it. The response cache keeps answers with these, so a hit adds only what follows.
    func settle(_ response: inout Response) {
        if anyOrigin {
            guard !response.headers.contains(.accessControlAllowOrigin) else { return }
            // Appended, not set: neither is there, so nothing need be looked for and replaced.
            response.headers.append(HTTPField(name: .accessControlAllowOrigin, value: "*"))
            response.headers.append(HTTPField(name: .accessControlExposeHeaders, value: Self.exposedHeaders))
        } else {
            Self.addVaryOrigin(&response)
        }
    }

    /// What an answer adds for the Origin it was asked from: with a list, a listed origin echoed
    /// and the headers it may read (fields of this request alone, not of the kept answer). With
    /// any origin allowed there is nothing to add, and the Origin is not even read.
    func addOriginFields(to fields: inout FieldLines, origin: @autoclosure () -> String?) {
        guard !anyOrigin, let origin = origin(), allowedOrigins.contains(origin) else { return }
        fields.append(.accessControlAllowOrigin, origin)
        fields.append(.accessControlExposeHeaders, Self.exposedHeaders)
    }

    private func preflightAnswer(_ response: Response, origin: String, request: Request) -> Response {
        var response = response
        if !anyOrigin { Self.addVaryOrigin(&response) }
        guard let allowed = allowedValue(for: origin) else { return response }
        response.headers[.accessControlAllowOrigin] = allowed
        response.headers[.accessControlAllowMethods] = "GET, HEAD"
        let asked = request.headers[.accessControlRequestHeaders]?.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        let granted = asked.filter { name in Self.allowedRequestHeaders.contains { $0.lowercased() == name.lowercased() } }
        if !granted.isEmpty { response.headers[.accessControlAllowHeaders] = granted.joined(separator: ", ") }
        response.headers[.accessControlMaxAge] = "600"
        return response
    }

    /// `*` when any origin may read, the origin itself when it is listed, nil otherwise.
    func allowedValue(for origin: String) -> String? {
        if anyOrigin { return "*" }
        return allowedOrigins.contains(origin) ? origin : nil
    }

    private static func addVaryOrigin(_ response: inout Response) {
        let vary = response.headers[.vary] ?? ""
        guard !vary.lowercased().contains("origin") else { return }
        response.headers[.vary] = vary.isEmpty ? "Origin" : vary + ", Origin"
    }
}
