import HTTPServer
import HTTPTypes
import Logging
import ThemeContent

/// The route table: finds the route for a request and runs its handler, turning thrown errors
/// into JSON error answers. It is the innermost responder of the middleware chain.
struct Router: Sendable {
    let routes: [Route]
    let library: ThemeLibrary
    let logger: Logger
    /// The routes a path may take, in table order, by its first segment: those whose pattern
    /// begins with that literal and those that begin with a parameter (`firstIsParameter`, also
    /// every path's whose first segment no pattern names). A request tries a handful, not the table.
    private let byFirstSegment: [String: [Int]]
    private let firstIsParameter: [Int]
    /// `/assign/`: how the targets of direct routes begin (their first segment), for the fast
    /// path to tell at a glance the requests that may be answered directly.
    let directPrefixes: [String]
    /// The direct routes that alone take every path of their shape (see `SoleRoute`).
    private let soleRoutes: [SoleRoute]

    /// A direct route `/{literal}/{name}` that is the only route whose first segment is its
    /// literal, in a table with no route that begins with a parameter: every path that is the
    /// literal and one segment can only be its. Such a path (`/assign/current`, every client at
    /// start) is matched on its bytes, without the array of segments and the table's lookup.
    private struct SoleRoute: Sendable {
        let index: Int
        /// `/assign/`, as bytes.
        let prefix: [UInt8]
        let parameter: String
    }

    init(_ collections: [any RouteCollection], library: ThemeLibrary, logger: Logger) {
        routes = collections.flatMap(\.routes)
        self.library = library
        self.logger = logger
        var literal: [String: [Int]] = [:], parameter: [Int] = []
        for (index, route) in routes.enumerated() {
            switch route.pattern.segments.first {
            case .literal(let text): literal[text, default: []].append(index)
            case nil: literal["", default: []].append(index)
            case .parameter, .rest: parameter.append(index)
            }
        }
        byFirstSegment = literal.mapValues { ($0 + parameter).sorted() }
        firstIsParameter = parameter
        directPrefixes = routes.filter(\.direct).map { route in
            guard case .literal(let first)? = route.pattern.segments.first else { preconditionFailure("a direct route begins with a literal") }
            return "/\(first)/"
        }
        let table = routes
        soleRoutes = table.indices.compactMap { index in
            let segments = table[index].pattern.segments
            guard table[index].direct, parameter.isEmpty, segments.count == 2, case .literal(let first) = segments[0],
                  case .parameter(let name) = segments[1], literal[first] == [index] else { return nil }
            return SoleRoute(index: index, prefix: Array("/\(first)/".utf8), parameter: name)
        }
    }

    func respond(to request: Request) -> RoutedResponse {
        let isRead = request.method == .get || request.method == .head
        let segments = request.pathSegments
        if isRead, segments.contains(where: Self.isRefused) {
            return RoutedResponse(route: "other", response: APIError.badRequest("path segments '.' and '..', backslashes and NUL are not allowed").response)
        }
        if request.method == .options { return preflight(segments) }
        let (found, pathMatched) = match(segments, request.method)
        if let (index, parameters) = found {
            let route = routes[index]
            let context = RequestContext(request: request, parameters: parameters, library: library)
            return RoutedResponse(route: route.label, response: run(route, context), cacheable: route.cacheable, crossOrigin: route.crossOrigin)
        }
        guard isRead, !pathMatched else {
            return RoutedResponse(route: "other", response: APIError(status: .methodNotAllowed, code: "method_not_allowed",
                                                                     message: "\(request.method) is not supported here").response)
        }
        return RoutedResponse(route: "other", response: APIError.notFound("no route for \(request.path)").response)
    }

    /// A segment no read may name: `..`, `.`, a backslash or NUL (tested as bytes, not with
    /// Foundation's string search: every routed request passes here).
    private static func isRefused(_ segment: String) -> Bool {
        var segment = segment
        return segment.withUTF8(isRefused)
    }

    private static func isRefused(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        segment.elementsEqual(dot) || segment.elementsEqual(dotDot) || segment.contains { $0 == UInt8(ascii: "\\") || $0 == 0 }
    }

    private static let dot = Array(".".utf8), dotDot = Array("..".utf8)

    /// The answer of the direct route `request` reads (a GET or HEAD), as the chain's innermost
    /// responder gives it; nil when the route it takes is not direct.
    func respondDirectly(to request: Request) -> RoutedResponse? {
        guard request.method == .get || request.method == .head else { return nil }
        // The route the chain would take: answered here only when it is direct.
        guard let (index, parameters) = soleRouteMatch(request.path, request.method) ?? tableMatch(request), routes[index].direct else { return nil }
        let route = routes[index]
        let context = RequestContext(request: request, parameters: parameters, library: library)
        return RoutedResponse(route: route.label, response: run(route, context), crossOrigin: route.crossOrigin)
    }

    /// The route and parameters of `path` when it has a sole route's shape (its prefix, then one
    /// segment that reads may name) and the route takes `method`; nil for any other, which the
    /// table matches. Read as bytes: `String.UTF8View`'s generic searches cost more than the
    /// segments' array they replace.
    private func soleRouteMatch(_ path: String, _ method: HTTPRequest.Method) -> (index: Int, parameters: PathParameters)? {
        var path = path
        return path.withUTF8 { bytes in
            for sole in soleRoutes where bytes.count > sole.prefix.count && bytes.prefix(sole.prefix.count).elementsEqual(sole.prefix) {
                let rest = UnsafeBufferPointer(rebasing: bytes[sole.prefix.count...])
                guard !rest.contains(UInt8(ascii: "/")), !Self.isRefused(rest), routes[sole.index].methods.contains(method) else { return nil }
                var parameters = PathParameters()
                parameters.append(sole.parameter, String(decoding: rest, as: UTF8.self))
                return (sole.index, parameters)
            }
            return nil
        }
    }

    /// The route the table gives a read of `request`'s path, as `respond(to:)` finds it; nil when
    /// no route takes it or a segment is refused.
    private func tableMatch(_ request: Request) -> (index: Int, parameters: PathParameters)? {
        let segments = request.pathSegments
        guard !segments.contains(where: Self.isRefused) else { return nil }
        return match(segments, request.method).found
    }

    /// The first route in table order whose pattern and method take the request, with the path's
    /// parameters; and whether any pattern took the path (a 405 rather than a 404). By index: a
    /// route is read where it is, not copied (with its handler) for each one tried.
    private func match(_ segments: [String], _ method: HTTPRequest.Method) -> (found: (index: Int, parameters: PathParameters)?, pathMatched: Bool) {
        var pathMatched = false
        for index in byFirstSegment[segments.first ?? ""] ?? firstIsParameter {
            guard routes[index].pattern.fits(segments), let parameters = routes[index].pattern.match(segments) else { continue }
            pathMatched = true
            if routes[index].methods.contains(method) { return ((index, parameters), true) }
        }
        return (nil, pathMatched)
    }

    /// `OPTIONS`: the methods of the routes the path matches (204), and whether other origins
    /// may use them, for `CORSMiddleware` to answer a browser's preflight.
    private func preflight(_ segments: [String]) -> RoutedResponse {
        let matching = routes.filter { $0.pattern.match(segments) != nil }
        guard !matching.isEmpty else { return RoutedResponse(route: "other", response: APIError.notFound("no route for this path").response) }
        let methods = matching.flatMap(\.methods).map(\.rawValue) + ["OPTIONS"]
        var response = Response(status: .noContent)
        response.headers[.allow] = methods.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }.joined(separator: ", ")
        return RoutedResponse(route: "preflight", response: response, crossOrigin: matching.allSatisfy(\.crossOrigin))
    }

    private func run(_ route: Route, _ context: RequestContext) -> Response {
        do {
            return try route.handler(context)
        } catch let error as APIError {
            return error.response
        } catch let error as TraitParser.BadParameter {
            return APIError(status: .badRequest, code: "bad_parameter",
                            message: "parameter \(error.name)=\(error.value) is invalid; expected \(error.expected)").response
        } catch {
            logger.error("request failed", metadata: ["path": "\(context.request.path)", "request_id": "\(context.request.headers[.requestID] ?? "")", "error": "\(error)"])
            return APIError(status: .internalServerError, code: "internal", message: "\(error)").response
        }
    }
}
