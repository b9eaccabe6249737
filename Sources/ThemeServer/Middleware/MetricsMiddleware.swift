import HTTPServer

/// Counts every request by route and status and times it (`/metrics`).
struct MetricsMiddleware: Middleware {
    let metrics: ServiceMetrics

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        let start = request.received ?? .now
        var routed = next(request)
        let (route, metrics) = (routed.route, self.metrics)
        routed.response = routed.response.map { response in
            metrics.record(route: route, status: response.status.code, duration: Moment.now - start, for: request)
            return response
        }
        return routed
    }
}
