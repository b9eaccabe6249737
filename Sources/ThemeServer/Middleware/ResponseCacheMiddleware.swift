import Caching
import HTTPServer
import HTTPTypes
import Synchronization
import ThemeContent

/// Keeps the answers of cacheable routes, so a repeated lookup is a dictionary probe: no routing,
/// trait parsing or SQL.
///
/// One cache, keyed one way: the raw request target and the headers that carry traits, for the
/// library's current epoch. The epoch moves with every reload and active-theme change, which
/// empties the cache; a stored response has its header lines serialised once. The cache holds at
/// most its byte budget.
final class ResponseCacheMiddleware: Middleware {
    /// Headers a lookup's answer depends on besides its target.
    static let varyingHeaders: [HTTPField.Name] = [
        TraitParser.colorScheme, TraitParser.contrast, TraitParser.devicePixelRatio, TraitParser.legacyDevicePixelRatio, .acceptLanguage,
        .acceptEncoding, .accept,
    ]

    /// Kept answers with bodies up to this size hold the bytes (read from the blob once), larger
    /// ones a reference to the blob, sent with `sendfile`.
    static let inlineFileBytes = 32 << 10

    let library: ThemeLibrary
    let cache: BoundedCache<String, RoutedResponse>
    /// The epoch the cached answers belong to.
    private let epoch = Mutex(-1)

    init(library: ThemeLibrary, capacityBytes: Int) {
        self.library = library
        cache = BoundedCache(name: "responses", capacityBytes: capacityBytes) { routed in
            // The body (a file body is a reference to a blob) and, roughly, the head and the key.
            guard case .bytes(let body) = routed.response.body else { return 512 }
            return body.count + 512
        }
    }

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        guard request.method == .get || request.method == .head else { return next(request) }
        let current = library.epoch
        let key = Self.key(request)
        if epoch.withLock({ $0 == current }), let hit = cache.value(for: key) { return hit }
        var routed = next(request)
        guard routed.cacheable else { return routed }
        let (route, crossOrigin) = (routed.route, routed.crossOrigin)
        routed.response = routed.response.map { [self] response in
            guard response.status == .ok, response.headers[.eTag] != nil else { return response }
            let prepared = response.inliningFile(upTo: Self.inlineFileBytes).prepared()
            let fresh = epoch.withLock { stored -> Bool in
                guard current >= stored else { return false } // computed before a reload: never stored over newer answers
                if current > stored {
                    cache.removeAll { _ in true }
                    stored = current
                }
                return true
            }
            if fresh { cache.insert(RoutedResponse(route: route, response: prepared, cacheable: true, crossOrigin: crossOrigin), for: key) }
            return prepared
        }
        return routed
    }

    static func key(_ request: Request) -> String {
        var key = request.target
        let headers = request.headers
        for name in varyingHeaders {
            key += "\u{0}"
            key += headers[name] ?? ""
        }
        return key
    }
}
