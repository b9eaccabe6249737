import HTTPServer

/// Counts every request by route and status and times it (`/metrics`).
struct MetricsMiddleware: Middleware {
    let metrics: ServiceMetrics

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        let start = ContinuousClock.now
        let routed = next(request)
        metrics.record(route: routed.route, status: routed.response.status.code, duration: ContinuousClock.now - start)
        return routed
    }
}
