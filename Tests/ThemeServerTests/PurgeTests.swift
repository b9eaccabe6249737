@testable import Cluster
import Foundation
import Logging
import Synchronization
import Testing
import TestSupport
@testable import ThemeServer

/// What a cache in front is told when a theme changes: `PURGE` with the theme's `xkey`.
@Suite("surrogate-key purges")
struct PurgeTests {
    @Test("a reloaded theme purges its key, an active switch purges `current`; other events purge nothing")
    func purges() throws {
        let cache = RecordingCache()
        let target = try #require(CachePurger.Target(url: "http://127.0.0.1:\(cache.port)"))
        let events = EventHub()
        let purger = CachePurger(targets: [target], repeats: [], logger: Logger(label: "test"))
        // As ThemeService wires it: each event's keys to the purger.
        events.observe { purger.purge(SurrogateKeys.keys(for: $0)) }
        events.publish(.themeError(ThemeRevision(theme: "dark"), error: "broken", time: "2026-12-05T00:00:00Z"))
        events.publish(.theme(.reloaded, ThemeRevision(theme: "Brand Dark")))
        events.publish(.theme(.activated, ThemeRevision(theme: "dark")))
        let requests = cache.waitForRequests(2)
        #expect(requests.count == 2)
        #expect(requests.first?.hasPrefix("PURGE / HTTP/1.1\r\n") == true)
        #expect(requests.first?.contains("\r\nxkey-purge: theme:Brand%20Dark\r\n") == true, "the key the answers carry: \(requests)")
        #expect(requests.last?.contains("\r\nxkey-purge: current\r\n") == true)
    }

    @Test("each purge goes out again after its repeats: what a fetch begun before it kept is dropped too")
    func repeats() throws {
        let cache = RecordingCache()
        let target = try #require(CachePurger.Target(url: "http://127.0.0.1:\(cache.port)"))
        let purger = CachePurger(targets: [target], repeats: [.milliseconds(100)], logger: Logger(label: "test"))
        let started = ContinuousClock.now
        purger.purge(["theme:dark"])
        let requests = cache.waitForRequests(2)
        #expect(requests.count == 2 && requests.allSatisfy { $0.contains("\r\nxkey-purge: theme:dark\r\n") }, "\(requests)")
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        #expect(CachePurger(targets: [target], logger: Logger(label: "test")).repeats == [.milliseconds(150), .seconds(1)])
    }

    @Test("awaitSent returns once every purge asked for so far reached each cache, and reached it again at its first repeat, not at the later ones")
    func awaitSent() throws {
        let (first, second) = (RecordingCache(), RecordingCache())
        let targets = try [first, second].map { try #require(CachePurger.Target(url: "http://127.0.0.1:\($0.port)")) }
        let purger = CachePurger(targets: targets, repeats: [.milliseconds(200), .seconds(30)], logger: Logger(label: "test"))
        let started = ContinuousClock.now
        purger.purge(["theme:dark"])
        purger.purge(["current"])
        purger.awaitSent()
        #expect(ContinuousClock.now - started >= .milliseconds(200))
        for cache in [first, second] {
            let requests = cache.requests.withLock { $0 }
            #expect(requests.count == 4 && requests.last?.contains("\r\nxkey-purge: current\r\n") == true, "\(requests)")
        }
        // Without repeats, once sent.
        let alone = CachePurger(targets: targets, repeats: [], logger: Logger(label: "test"))
        alone.purge(["theme:light"])
        alone.awaitSent()
        #expect(first.requests.withLock { $0.count } == 5)
    }

    @Test("awaitSent sends every purge whose first repeat is to come again at once when the fetches begun before are done, else at that repeat")
    func awaitSentWhenFetchesDone() throws {
        let cache = RecordingCache()
        let target = try #require(CachePurger.Target(url: "http://127.0.0.1:\(cache.port)"))
        let purger = CachePurger(targets: [target], repeats: [.seconds(30)], logger: Logger(label: "test"))
        purger.purge(["theme:dark"])
        purger.purge(["current"])
        let given = Mutex<Duration?>(nil)
        let started = ContinuousClock.now
        purger.awaitSent { left in
            given.withLock { $0 = left }
            return true
        }
        #expect(ContinuousClock.now - started < .seconds(10), "not at the repeat, 30 s away")
        let left = try #require(given.withLock { $0 })
        #expect(left > .seconds(20) && left <= .seconds(30), "told how long until the repeat: \(left)")
        let requests = cache.waitForRequests(3)
        #expect(requests.count == 3 && requests.last?.contains("\r\nxkey-purge: current theme:dark\r\n") == true, "\(requests)")

        // Fetches not known to be done: the repeat's time, as without a way to tell.
        let timed = CachePurger(targets: [target], repeats: [.milliseconds(200)], logger: Logger(label: "test"))
        timed.purge(["theme:light"])
        let waited = ContinuousClock.now
        timed.awaitSent { _ in false }
        #expect(ContinuousClock.now - waited >= .milliseconds(200))
        #expect(cache.waitForRequests(5).count == 5)
    }

    @Test("purge addresses: http with a host, the port defaulting to 80")
    func targets() {
        #expect(CachePurger.Target(url: "http://varnish:6081") == CachePurger.Target(url: "http://varnish:6081"))
        #expect(CachePurger.Target(url: "http://cache")?.port == 80)
        #expect(CachePurger.Target(url: "https://cache") == nil)
        #expect(CachePurger.Target(url: "cache:6081") == nil)
    }

    @Test("a cache that is not there costs a log line, not the event")
    func unreachableCache() throws {
        let closed = RecordingCache()
        let port = closed.port
        closed.close()
        let target = try #require(CachePurger.Target(url: "http://127.0.0.1:\(port)"))
        #expect(throws: CachePurger.PurgeError.self) { try CachePurger.exchange(Array("PURGE / HTTP/1.1\r\n\r\n".utf8), with: target) }
    }
}
