import Caching
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
    /// Cluster releases this replica could not write (it kept serving the one before).
    let releasesRefused = Atomic<Int>(0)
    /// Releases published and rolled back through this replica's HTTP routes, and the
    /// publishes and rollbacks it refused (a token, a body, a limit).
    let publishes = Atomic<Int>(0)
    let rollbacks = Atomic<Int>(0)
    let publishRefusals = Atomic<Int>(0)
    private let timers = Mutex<[String: CoreMetrics.Timer]>([:])

    /// What a release route did, for its counter.
    enum ReleaseAction { case publish, rollback }

    func count(_ action: ReleaseAction) {
        switch action {
        case .publish: publishes.add(1, ordering: .relaxed)
        case .rollback: rollbacks.add(1, ordering: .relaxed)
        }
    }

    public init() {
        factory = PrometheusMetricsFactory(registry: registry)
    }

    func record(route: String, status: Int, duration: Duration) {
        instruments(route: route, status: status).record(duration)
    }

    /// The counter and timer a request of `route` answered with `status` is recorded in, made on
    /// first use. A kept answer holds its own, so a hit records without looking them up.
    func instruments(route: String, status: Int) -> RequestInstruments {
        let key = Key(route: route, status: status)
        let counter = counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(label: "themed_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory)
            counters[key] = counter
            return counter
        }
        let timer = timers.withLock { timers in
            if let timer = timers[route] { return timer }
            let timer = CoreMetrics.Timer(label: "themed_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            timers[route] = timer
            return timer
        }
        return RequestInstruments(counter: counter, timer: timer)
    }

    /// Where one kind of answer (a route and a status) is counted and timed.
    struct RequestInstruments: Sendable {
        let counter: CoreMetrics.Counter
        let timer: CoreMetrics.Timer

        func record(_ duration: Duration) {
            counter.increment()
            timer.recordNanoseconds(Int64(duration.components.seconds) * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
        }
    }

    /// The Prometheus text exposition of every metric, then of `caches` (their bytes, budget,
    /// entries, hits, misses and evictions) and of `gauges`.
    public func exposition(caches: [(name: String, statistics: CacheStatistics)] = [], gauges: [(name: String, help: String, value: Int)] = []) -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        var text = ""
        let families: [(String, String, String, KeyPath<CacheStatistics, Int>)] = [
            ("themed_cache_bytes", "gauge", "Bytes held by each cache.", \.bytes),
            ("themed_cache_capacity_bytes", "gauge", "Each cache's byte budget.", \.capacityBytes),
            ("themed_cache_entries", "gauge", "Entries in each cache.", \.entries),
            ("themed_cache_hits_total", "counter", "Lookups a cache answered.", \.hits),
            ("themed_cache_misses_total", "counter", "Lookups a cache could not answer.", \.misses),
            ("themed_cache_evictions_total", "counter", "Entries dropped to stay within the budget.", \.evictions),
        ]
        for (name, type, help, value) in families where !caches.isEmpty {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for cache in caches { text += "\(name){cache=\"\(cache.name)\"} \(cache.statistics[keyPath: value])\n" }
        }
        for gauge in gauges {
            text += "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) \(gauge.name.hasSuffix("_total") ? "counter" : "gauge")\n"
            text += "\(gauge.name) \(gauge.value)\n"
        }
        buffer += Array(text.utf8)
        return buffer
    }
}
