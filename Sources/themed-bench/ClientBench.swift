import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import ThemedClient
import ThemeVocabulary

/// `themed-bench client URL`: the Swift client against a running themed (scripts/bench-clients.py
/// runs the Kotlin client's `Bench` beside it on the same server): a palette fetched anew `fetches`
/// times (no cache: a 200 each time), a new client's first frame from its disk copy with the server
/// away, and `switches` switches of the active theme, each timed from the `PUT /active` to the
/// listener's update. Prints one JSON object of milliseconds.
enum ClientBench {
    static func run(server: String, fetches: Int = 300, switches: Int = 20) throws {
        guard let url = URL(string: server) else { throw BenchError("not a URL: \(server)") }
        let result = Mutex<[String: Double]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let measured = await measure(url, fetches: fetches, switches: switches)
            result.withLock { $0 = measured }
            done.signal()
        }
        done.wait()
        guard let numbers = result.withLock({ $0 }) else { throw BenchError("the client measured nothing") }
        let members = numbers.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \((($0.value * 1000).rounded()) / 1000)" }
        print("{" + members.joined(separator: ", ") + "}")
    }

    struct BenchError: Error, CustomStringConvertible { var description: String; init(_ text: String) { description = text } }

    static func measure(_ server: URL, fetches: Int, switches: Int) async -> [String: Double]? {
        let fetcher = ThemedClient(server: server, theme: "light", traits: ThemeTraits(appearance: Appearance(.dark)))
        var fetched: [Double] = []
        for _ in 0..<fetches {
            let start = ContinuousClock.now
            guard await fetcher.refresh() != nil else { return nil }
            fetched.append(milliseconds(ContinuousClock.now - start))
        }

        // Offline start to first frame: a new client draws from its disk copy before it asks the
        // server anything (whether the server is there or not).
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("themed-client-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        guard await ThemedClient(server: server, theme: "light", cacheDirectory: cache).refresh() != nil else { return nil }
        var firstFrames: [Double] = []
        for _ in 0..<50 {
            let start = ContinuousClock.now
            guard ThemedClient(server: server, theme: "light", cacheDirectory: cache).loadCached() != nil else { return nil }
            firstFrames.append(milliseconds(ContinuousClock.now - start))
        }

        let follower = ThemedClient(server: server, theme: "current")
        guard let first = await follower.refresh() else { return nil }
        let seen = Mutex<String?>(nil)
        let token = follower.onUpdate { update in
            if case .event = update.reason { seen.withLock { $0 = update.palette.theme } }
        }
        defer { token.cancel() }
        let following = follower.follow()
        defer { following.cancel() }
        while follower.lastEventID == nil { try? await Task.sleep(for: .milliseconds(5)) }
        var switched: [Double] = []
        var theme = first.theme
        for _ in 0..<switches {
            theme = theme == "dark" ? "light" : "dark"
            seen.withLock { $0 = nil }
            let start = ContinuousClock.now
            guard (try? await follower.setActiveTheme(theme)) != nil else { return nil }
            while seen.withLock({ $0 }) != theme {
                if ContinuousClock.now - start > .seconds(5) { return nil }
                try? await Task.sleep(for: .microseconds(200))
            }
            switched.append(milliseconds(ContinuousClock.now - start))
        }
        return ["fetch_p50_ms": percentile(fetched, 0.5), "fetch_p90_ms": percentile(fetched, 0.9), "offline_first_frame_p50_ms": percentile(firstFrames, 0.5),
                "switch_p50_ms": percentile(switched, 0.5), "switch_max_ms": switched.max() ?? 0]
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }
}
