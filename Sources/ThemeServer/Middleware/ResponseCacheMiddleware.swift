import HTTPServer
import HTTPTypes
import Synchronization
import ThemeContent

/// Keeps the answers of cacheable routes, so a repeated lookup is a dictionary probe: no routing,
/// trait parsing or SQL.
///
/// One cache, keyed one way: the library's epoch, the raw request target and the headers that
/// carry traits. The epoch moves with every reload and active-theme change, which empties the
/// cache; a stored response has its header lines serialised once.
final class ResponseCacheMiddleware: Middleware {
    /// Headers a lookup's answer depends on besides its target.
    static let varyingHeaders: [HTTPField.Name] = [
        TraitParser.colorScheme, TraitParser.contrast, TraitParser.devicePixelRatio, TraitParser.legacyDevicePixelRatio, .acceptLanguage,
    ]

    private struct State {
        var epoch = -1
        var entries: [String: RoutedResponse] = [:]
    }

    let library: ThemeLibrary
    let maximumEntries: Int
    private let state = Mutex(State())

    init(library: ThemeLibrary, maximumEntries: Int = 50_000) {
        self.library = library
        self.maximumEntries = maximumEntries
    }

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        guard request.method == .get || request.method == .head else { return next(request) }
        let epoch = library.epoch
        let key = Self.key(request)
        if let hit = state.withLock({ $0.epoch == epoch ? $0.entries[key] : nil }) { return hit }
        var routed = next(request)
        guard routed.cacheable else { return routed }
        let route = routed.route
        routed.response = routed.response.map { [self] response in
            guard response.status == .ok, response.headers[.eTag] != nil else { return response }
            let prepared = response.prepared()
            state.withLock { state in
                guard epoch >= state.epoch else { return } // computed before a reload: never stored over newer answers
                if epoch > state.epoch || state.entries.count >= maximumEntries { state = State(epoch: epoch) }
                state.entries[key] = RoutedResponse(route: route, response: prepared, cacheable: true)
            }
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

    var count: Int { state.withLock { $0.entries.count } }
}
