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
    }

    func respond(to request: Request) -> RoutedResponse {
        let isRead = request.method == .get || request.method == .head
        let segments = request.pathSegments
        // Bytes, not Foundation's string search: every routed request passes here.
        if isRead, segments.contains(where: { $0 == ".." || $0 == "." || $0.utf8.contains(UInt8(ascii: "\\")) || $0.utf8.contains(0) }) {
            return RoutedResponse(route: "other", response: APIError.badRequest("path segments '.' and '..', backslashes and NUL are not allowed").response)
        }
        var pathMatched = false
        if request.method == .options { return preflight(segments) }
        // By index: a route is read where it is, not copied (with its handler) for each one tried.
        for index in byFirstSegment[segments.first ?? ""] ?? firstIsParameter {
            guard routes[index].pattern.fits(segments), let parameters = routes[index].pattern.match(segments) else { continue }
            let route = routes[index]
            pathMatched = true
            guard route.methods.contains(request.method) else { continue }
            let context = RequestContext(request: request, parameters: parameters, library: library)
            return RoutedResponse(route: route.label, response: run(route, context), cacheable: route.cacheable, crossOrigin: route.crossOrigin)
        }
        guard isRead, !pathMatched else {
            return RoutedResponse(route: "other", response: APIError(status: .methodNotAllowed, code: "method_not_allowed",
                                                                     message: "\(request.method) is not supported here").response)
        }
        return RoutedResponse(route: "other", response: APIError.notFound("no route for \(request.path)").response)
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
