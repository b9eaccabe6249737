import HTTPServer
import ThemeContent
import ThemeVocabulary

/// Generation-pinned URLs: `/themes/{theme}@{generation}/...` answers as `/themes/{theme}/...`
/// while the theme serves that generation, or with a cluster store, from the folder a replica
/// keeps that generation in (a rollout's, an alias's pin: `store.folder`), with `Cache-Control:
/// public, max-age=31536000, immutable`, so a CDN and clients keep the answer for good; a
/// generation the server does not keep is a 404 that names the one it serves. What `/assign`
/// answers as a client's `base`.
///
/// Outside the shared-cache headers (it has the last word on Cache-Control) and inside the
/// response cache, which keeps such answers by their pinned URL: a kept answer on the fast path.
struct PinnedGenerationMiddleware: Middleware {
    let library: ThemeLibrary
    /// With a cluster store, generations are the store's releases, and a replica keeps those
    /// clients may be pinned to.
    let store: (any AudienceStore)?

    static let immutable = "public, max-age=31536000, immutable"

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        guard request.path.hasPrefix("/themes/"), let pin = Self.pin(in: request.path) else { return next(request) }
        guard let theme = library.theme(named: pin.theme) else {
            if let misdirected = APIError.misdirected(pin.theme, in: library) { return RoutedResponse(route: "pinned", response: misdirected.response) }
            return RoutedResponse(route: "pinned", response: APIError.notFound("no theme named \(pin.theme)").response)
        }
        let folder = store.map { $0.folder(of: pin.theme, generation: pin.generation) } ?? (theme.generation == pin.generation ? pin.theme : nil)
        guard let folder else {
            let serves = store?.assigner.generations[pin.theme] ?? theme.generation
            return RoutedResponse(route: "pinned", response: APIError(status: .notFound, code: "generation_not_kept",
                message: "\(pin.theme) serves generation \(serves); generation \(pin.generation) is not kept (ask /assign for the current base)").response)
        }
        var unpinned = request
        unpinned.path = "/themes/" + folder + pin.rest
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
    static func pin(in path: String) -> (theme: String, generation: Generation, rest: Substring)? {
        let afterPrefix = path.dropFirst("/themes/".count)
        let segment = afterPrefix.prefix { $0 != "/" }
        guard let at = segment.lastIndex(of: "@"), let generation = Generation(segment[segment.index(after: at)...]), generation > 0 else { return nil }
        return (String(segment[..<at]), generation, afterPrefix[segment.endIndex...])
    }
}
