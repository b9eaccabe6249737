import HTTPServer
import ThemeContent

/// Generation-pinned URLs: `/themes/{theme}@{generation}/...` answers as `/themes/{theme}/...`
/// while the theme serves that generation, with `Cache-Control: public, max-age=31536000,
/// immutable`, so a CDN and clients keep the answer for good; a generation the server does not
/// keep is a 404 that names the one it serves. What `/assign` answers as a client's `base`.
///
/// Outside the shared-cache headers (it has the last word on Cache-Control) and inside the
/// response cache, which keeps such answers by their pinned URL: a kept answer on the fast path.
struct PinnedGenerationMiddleware: Middleware {
    let library: ThemeLibrary
    /// With a cluster store, generations are the store's and the server keeps no others; pinned
    /// URLs are answered only without one (see `AudienceRoutes`).
    let clustered: Bool

    static let immutable = "public, max-age=31536000, immutable"

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        guard request.path.hasPrefix("/themes/"), let pin = Self.pin(in: request.path) else { return next(request) }
        guard !clustered else {
            return RoutedResponse(route: "pinned", response: APIError(status: .notFound, code: "generation_not_kept",
                                                                    message: "generation-pinned URLs are answered by a server without a cluster store").response)
        }
        guard let theme = library.theme(named: pin.theme) else {
            if let misdirected = APIError.misdirected(pin.theme, in: library) { return RoutedResponse(route: "pinned", response: misdirected.response) }
            return RoutedResponse(route: "pinned", response: APIError.notFound("no theme named \(pin.theme)").response)
        }
        guard theme.generation == pin.generation else {
            return RoutedResponse(route: "pinned", response: APIError(status: .notFound, code: "generation_not_kept",
                message: "\(pin.theme) serves generation \(theme.generation); generation \(pin.generation) is not kept (ask /assign for the current base)").response)
        }
        var unpinned = request
        unpinned.path = "/themes/" + pin.theme + pin.rest
        var routed = next(unpinned)
        routed.response = routed.response.map { response in
            guard response.status == .ok else { return response }
            var response = response
            response.headers[.cacheControl] = Self.immutable
            return response
        }
        return routed
    }

    /// `brand-acme@43` and what follows it, from a path under /themes/; nil when the theme
    /// segment names no generation.
    static func pin(in path: String) -> (theme: String, generation: Int, rest: Substring)? {
        let afterPrefix = path.dropFirst("/themes/".count)
        let segment = afterPrefix.prefix { $0 != "/" }
        guard let at = segment.lastIndex(of: "@"), let generation = Int(segment[segment.index(after: at)...]), generation > 0 else { return nil }
        return (String(segment[..<at]), generation, afterPrefix[segment.endIndex...])
    }
}
