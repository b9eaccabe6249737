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

    init(_ collections: [any RouteCollection], library: ThemeLibrary, logger: Logger) {
        routes = collections.flatMap(\.routes)
        self.library = library
        self.logger = logger
    }

    func respond(to request: Request) -> RoutedResponse {
        let isRead = request.method == .get || request.method == .head
        let segments = request.pathSegments
        if isRead, segments.contains(where: { $0 == ".." || $0 == "." || $0.contains("\\") || $0.contains("\u{0}") }) {
            return RoutedResponse(route: "other", response: APIError.badRequest("path segments '.' and '..', backslashes and NUL are not allowed").response)
        }
        var pathMatched = false
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            pathMatched = true
            guard route.methods.contains(request.method) else { continue }
            let context = RequestContext(request: request, parameters: parameters, library: library)
            return RoutedResponse(route: route.label, response: run(route, context), cacheable: route.cacheable)
        }
        guard isRead, !pathMatched else {
            return RoutedResponse(route: "other", response: APIError(status: .methodNotAllowed, code: "method_not_allowed",
                                                                     message: "\(request.method) is not supported here").response)
        }
        return RoutedResponse(route: "other", response: APIError.notFound("no route for \(request.path)").response)
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
