import HTTPServer
import Synchronization

/// Requests counted by route and status, and timed by route in a Prometheus histogram: tallied by
/// each event loop for itself (`PerLoop`) and summed when `/metrics` is read.
///
/// Why not a metrics library's counters and histograms: there, every loop's requests update the
/// same counter and take the same histogram's lock, which moves their memory between the cores at
/// every request. Here the request path writes only its own loop's tally.
final class RequestTallies: Sendable {
    /// A route and a status, numbered once: the numbers index every loop's tallies. A kept answer
    /// holds its own, so a hit records without looking anything up.
    struct Series: Sendable, Hashable {
        let route: Int
        let status: Int
        /// Which count of `Tally.requests` it is.
        let number: Int
    }

    /// The upper bounds of the duration buckets (Prometheus' default buckets), in nanoseconds and
    /// as `/metrics` writes them; the last bucket, +Inf, has none.
    static let bounds: [Int] = [5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000, 500_000_000,
                                1_000_000_000, 2_500_000_000, 5_000_000_000, 10_000_000_000]
    static let boundNames = ["0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "+Inf"]
    static var buckets: Int { bounds.count + 1 }

    /// What one loop counted: requests per series; per route, requests per duration bucket (not
    /// cumulative) and the sum of their durations.
    struct Tally: Sendable {
        var requests: [Int] = []
        var buckets: [Int] = []
        var nanoseconds: [Int] = []
    }

    private struct Names {
        var routes: [String] = []
        var series: [Series] = []
        var numbers: [String: Int] = [:]
        var seriesByName: [SeriesName: Series] = [:]
    }

    private struct SeriesName: Hashable {
        var route: String
        var status: Int
    }

    private let names = Mutex(Names())
    private let tallies = PerLoop { _ in Tally() }
    private let lastAsked = PerLoop<(route: String, status: Int, series: Series)?> { _ in nil }

    /// The series of answers of `route` with `status`, numbered on first use.
    func series(route: String, status: Int) -> Series {
        names.withLock { names in
            if let series = names.seriesByName[SeriesName(route: route, status: status)] { return series }
            let routeNumber = names.numbers[route] ?? {
                names.routes.append(route)
                names.numbers[route] = names.routes.count - 1
                return names.routes.count - 1
            }()
            let series = Series(route: routeNumber, status: status, number: names.series.count)
            names.series.append(series)
            names.seriesByName[SeriesName(route: route, status: status)] = series
            return series
        }
    }

    /// `series(route:status:)` for a request of event loop `loop`. A loop asking again for the
    /// series it asked for last (a direct route's answers, which keep no series of their own, as
    /// kept answers do) gets it from its own slot, without the lock every loop shares.
    func series(route: String, status: Int, loop: Int?) -> Series {
        if let series = lastAsked.withState(forLoop: loop, { _, last in last.flatMap { $0.route == route && $0.status == status ? $0.series : nil } }) {
            return series
        }
        let series = series(route: route, status: status)
        lastAsked.withState(forLoop: loop) { _, last in last = (route, status, series) }
        return series
    }

    /// Counts one answer of `series` that took `duration`, in the tally of the event loop `loop`.
    func record(_ series: Series, duration: Duration, loop: Int?) {
        let nanoseconds = Int(duration.components.seconds) * 1_000_000_000 + Int(duration.components.attoseconds / 1_000_000_000)
        var bucket = 0
        while bucket < Self.bounds.count && nanoseconds > Self.bounds[bucket] { bucket += 1 }
        tallies.withState(forLoop: loop) { _, tally in
            if tally.requests.count <= series.number {
                tally.requests += repeatElement(0, count: series.number + 1 - tally.requests.count)
            }
            if tally.nanoseconds.count <= series.route {
                tally.nanoseconds += repeatElement(0, count: series.route + 1 - tally.nanoseconds.count)
                tally.buckets += repeatElement(0, count: tally.nanoseconds.count * Self.buckets - tally.buckets.count)
            }
            tally.requests[series.number] += 1
            tally.buckets[series.route * Self.buckets + bucket] += 1
            tally.nanoseconds[series.route] += nanoseconds
        }
    }

    /// `themed_request_duration_seconds` (a histogram by route) and `themed_requests_total` (by
    /// route and status) in the Prometheus text format, every loop's tallies summed.
    func exposition() -> String {
        let (routes, series) = names.withLock { ($0.routes, $0.series) }
        var total = Tally(requests: Array(repeating: 0, count: series.count), buckets: Array(repeating: 0, count: routes.count * Self.buckets),
                          nanoseconds: Array(repeating: 0, count: routes.count))
        tallies.forEach { tally in
            for (index, count) in tally.requests.enumerated() where index < total.requests.count { total.requests[index] += count }
            for (index, count) in tally.buckets.enumerated() where index < total.buckets.count { total.buckets[index] += count }
            for (index, sum) in tally.nanoseconds.enumerated() where index < total.nanoseconds.count { total.nanoseconds[index] += sum }
        }
        var text = "# HELP themed_request_duration_seconds Time from a request's arrival to its answer, by route.\n"
        text += "# TYPE themed_request_duration_seconds histogram\n"
        for (number, route) in routes.enumerated() {
            var cumulative = 0
            for (bucket, bound) in Self.boundNames.enumerated() {
                cumulative += total.buckets[number * Self.buckets + bucket]
                text += "themed_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(bound)\"} \(cumulative)\n"
            }
            text += "themed_request_duration_seconds_sum{route=\"\(route)\"} \(Double(total.nanoseconds[number]) / 1e9)\n"
            text += "themed_request_duration_seconds_count{route=\"\(route)\"} \(cumulative)\n"
        }
        text += "# HELP themed_requests_total Answers by route and status.\n# TYPE themed_requests_total counter\n"
        for series in series {
            text += "themed_requests_total{route=\"\(routes[series.route])\",status=\"\(series.status)\"} \(total.requests[series.number])\n"
        }
        return text
    }
}
