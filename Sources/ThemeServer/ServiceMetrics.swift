import Caching
import HTTPServer
import Synchronization
import ThemeVocabulary

/// Request counters and latencies, exposed at `/metrics` in Prometheus text format: requests by
/// route and status, durations by route (`RequestTallies`, tallied per event loop), then the
/// caches and the gauges the service passes in.
public final class ServiceMetrics: Sendable {
    private let requests = RequestTallies()
    /// Cluster releases this replica could not write (it kept serving the one before).
    let releasesRefused = Atomic<Int>(0)
    /// Releases published and rolled back through this replica's HTTP routes, and the
    /// publishes and rollbacks it refused (a token, a body, a limit).
    let publishes = Atomic<Int>(0)
    let rollbacks = Atomic<Int>(0)
    public let publishRefusals = Atomic<Int>(0)
    /// Webhook messages delivered, tries after a failure, and messages given up on (`Webhooks`).
    public let webhooksDelivered = Atomic<Int>(0)
    public let webhooksRetried = Atomic<Int>(0)
    public let webhooksFailed = Atomic<Int>(0)

    /// What a release route did, for its counter.
    public enum ReleaseAction: Sendable { case publish, rollback }

    public func count(_ action: ReleaseAction) {
        switch action {
        case .publish: publishes.add(1, ordering: .relaxed)
        case .rollback: rollbacks.add(1, ordering: .relaxed)
        }
    }

    /// Assignments answered by `/assign`, by theme, generation and reason (default, rule,
    /// pinned, rollout-in, rollout-out), counted by each event loop on its own (`PerLoop`): every
    /// client asks at its start, and one lock for both loops moved between the cores at each.
    private let assignments = PerLoop<[AssignmentSeries: Int]> { _ in [:] }

    struct AssignmentSeries: Hashable {
        var theme: String
        var generation: Generation
        var reason: String
    }

    /// Counts an assignment answered to a request read by event loop `loop` (nil: in-process).
    func countAssignment(theme: String, generation: Generation, reason: String, loop: Int?) {
        assignments.withState(forLoop: loop) { _, series in series[AssignmentSeries(theme: theme, generation: generation, reason: reason), default: 0] += 1 }
    }

    /// Every loop's assignment counts, added up.
    private var assignmentTotals: [AssignmentSeries: Int] {
        var totals: [AssignmentSeries: Int] = [:]
        assignments.forEach { series in totals.merge(series, uniquingKeysWith: +) }
        return totals
    }

    /// How many assignments each generation of `theme` got (the gallery's rollout line).
    func assignmentCounts(of theme: String) -> [Generation: Int] {
        assignmentTotals.filter { $0.key.theme == theme }.reduce(into: [:]) { $0[$1.key.generation, default: 0] += $1.value }
    }

    public init() {}

    func record(route: String, status: Int, duration: Duration, for request: Request) {
        record(series(route: route, status: status, loop: request.loop), duration: duration, loop: request.loop)
    }

    /// The series a request of `route` answered with `status` is counted and timed in. A kept
    /// answer holds its own, so a hit records without looking it up; `loop` is the event loop asking
    /// (see `RequestTallies.series(route:status:loop:)`), nil in-process.
    func series(route: String, status: Int, loop: Int? = nil) -> RequestTallies.Series {
        requests.series(route: route, status: status, loop: loop)
    }

    /// Counts and times one answer of `series`, read by event loop `loop`.
    ///
    /// A method of the metrics, not of something a kept answer holds: the hot path reaches the
    /// tallies through the service's own reference, so answering takes no reference count on
    /// them (an object every loop would count at every request, its memory moving between cores).
    func record(_ series: RequestTallies.Series, duration: Duration, loop: Int?) {
        requests.record(series, duration: duration, loop: loop)
    }

    /// The Prometheus text exposition of every metric, then of `caches` (their bytes, budget,
    /// entries, hits, misses and evictions) and of `gauges`.
    public func exposition(caches: [(name: String, statistics: CacheStatistics)] = [], gauges: [(name: String, help: String, value: Int)] = []) -> [UInt8] {
        var text = requests.exposition()
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
        let assigned = assignmentTotals.sorted { ($0.key.theme, $0.key.generation, $0.key.reason) < ($1.key.theme, $1.key.generation, $1.key.reason) }
        if !assigned.isEmpty {
            text += "# HELP themed_assignments_total Assignments answered by /assign, by theme, generation and reason.\n# TYPE themed_assignments_total counter\n"
            for (series, count) in assigned {
                text += "themed_assignments_total{theme=\"\(series.theme)\",generation=\"\(series.generation)\",reason=\"\(series.reason)\"} \(count)\n"
            }
        }
        for gauge in gauges {
            text += "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) \(gauge.name.hasSuffix("_total") ? "counter" : "gauge")\n"
            text += "\(gauge.name) \(gauge.value)\n"
        }
        return Array(text.utf8)
    }
}
