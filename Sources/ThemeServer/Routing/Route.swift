import HTTPServer
import HTTPTypes

/// One entry of the route table: which requests it answers and the handler that answers them.
public struct Route: Sendable {
    var methods: [HTTPRequest.Method]
    var pattern: PathPattern
    /// The route's name in metrics (`themed_requests_total{route="color"}`).
    var label: String
    /// Its 200 answers with an ETag may be kept by the response cache: they depend only on the
    /// target, the trait headers and the index epoch.
    var cacheable: Bool
    /// Pages of other origins may read it (CORS); false for the admin routes.
    var crossOrigin: Bool
    /// Answered on the fast path, not down the middleware chain (`PreparedResponder`): its answer is made
    /// per request from the target alone, short, never kept, never compressed, never conditional
    /// (`/assign`). It gets what every answer gets: the request id, CORS, metrics and the logs.
    /// Its handler must answer with bytes (a known length), and reads the request's target alone:
    /// on the fast path its `Request` carries no fields (`RequestHead.targetOnlyRequest`).
    var direct: Bool
    var handler: @Sendable (RequestContext) throws -> Response

    public init(_ methods: [HTTPRequest.Method], _ pattern: String, label: String, cacheable: Bool = false, crossOrigin: Bool = true,
                direct: Bool = false, handler: @escaping @Sendable (RequestContext) throws -> Response) {
        precondition(!(direct && cacheable), "a direct route's answers are never kept")
        self.methods = methods
        self.pattern = PathPattern(pattern)
        self.label = label
        self.cacheable = cacheable
        self.crossOrigin = crossOrigin
        self.direct = direct
        self.handler = handler
    }

    /// A route answering the requests `shape` describes.
    public init(_ shape: RouteShape, label: String, crossOrigin: Bool = true, handler: @escaping @Sendable (RequestContext) throws -> Response) {
        self.init(shape.methods, shape.pattern.description, label: label, crossOrigin: crossOrigin, handler: handler)
    }

    public static func get(_ pattern: String, label: String, cacheable: Bool = false, crossOrigin: Bool = true, direct: Bool = false,
                           handler: @escaping @Sendable (RequestContext) throws -> Response) -> Route {
        Route([.get, .head], pattern, label: label, cacheable: cacheable, crossOrigin: crossOrigin, direct: direct, handler: handler)
    }
}

/// Which requests a route answers, without its handler: for a question asked of a request before
/// it is routed, from the same methods and pattern as the route table (the uploads a server spools
/// to a file as they arrive: Releases' `ReleaseRoutes.receivesUpload`).
public struct RouteShape: Sendable {
    let methods: [HTTPRequest.Method]
    let pattern: PathPattern

    public init(_ methods: [HTTPRequest.Method], _ pattern: String) {
        (self.methods, self.pattern) = (methods, PathPattern(pattern))
    }

    /// Whether the route answers `request` (its method and path; nothing else is read).
    public func matches(_ request: Request) -> Bool {
        methods.contains(request.method) && pattern.match(request.pathSegments) != nil
    }
}

/// A group of routes that belong together (Hummingbird's RouteCollection). The service's own are
/// listed in `ThemeService`; a side module registers its own through `ThemeService`'s
/// `collections` (Releases' `ReleaseRoutes`).
public protocol RouteCollection: Sendable {
    var routes: [Route] { get }
}

/// What a request became: the route that answered it (its label, for metrics) and the response.
public struct RoutedResponse: Sendable {
    public var route: String
    public var response: Response
    /// The response cache may keep it.
    var cacheable = false
    /// Pages of other origins may read it (see `CORSMiddleware`).
    var crossOrigin = false
}
