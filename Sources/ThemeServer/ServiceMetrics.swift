import CoreMetrics
import Prometheus
import Synchronization

/// Request counters and latencies, exposed at `/metrics` in Prometheus text format.
///
/// Metrics are made through swift-metrics with an explicit Prometheus factory (not the global
/// bootstrap), so several services can live in one process, as they do in the tests.
public final class ServiceMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private struct Key: Hashable {
        var route: String
        var status: Int
    }

    private let counters = Mutex<[Key: CoreMetrics.Counter]>([:])
    private let timers = Mutex<[String: CoreMetrics.Timer]>([:])

    public init() {
        factory = PrometheusMetricsFactory(registry: registry)
    }

    func record(route: String, status: Int, duration: Duration) {
        let key = Key(route: route, status: status)
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(label: "themed_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
        let timer = timers.withLock { timers in
            if let timer = timers[route] { return timer }
            let timer = CoreMetrics.Timer(label: "themed_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            timers[route] = timer
            return timer
        }
        timer.recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
