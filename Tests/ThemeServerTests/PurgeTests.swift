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
    /// A one-connection-at-a-time HTTP listener that records each request's head and answers 200.
    final class RecordingCache: @unchecked Sendable {
        let descriptor: Int32
        let port: Int
        let requests = Mutex<[String]>([])

        init() {
            let (descriptor, port) = Loopback.boundSocket(listening: true)
            self.descriptor = descriptor
            self.port = port
            Thread { [self] in
                while true {
                    let client = accept(descriptor, nil, nil)
                    guard client >= 0 else { return }
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    let count = recv(client, &buffer, buffer.count, 0)
                    if count > 0 { requests.withLock { $0.append(String(decoding: buffer[..<count], as: UTF8.self)) } }
                    let answer = Array("HTTP/1.1 200 Purged\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                    _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    close(client)
                }
            }.start()
        }

        deinit { shutdown(descriptor, Int32(SHUT_RDWR)); close(descriptor) }

        func waitForRequests(_ count: Int) -> [String] {
            _ = waitUntil(5) { requests.withLock { $0.count } >= count }
            return requests.withLock { $0 }
        }
    }

    @Test("a reloaded theme purges its key, an active switch purges `current`; other events purge nothing")
    func purges() throws {
        let cache = RecordingCache()
        let target = try #require(CachePurger.Target(url: "http://127.0.0.1:\(cache.port)"))
        let events = EventHub()
        let purger = CachePurger(targets: [target], repeats: [], logger: Logger(label: "test"))
        // As ThemeService wires it: each event's keys to the purger.
        events.observe { purger.purge(SurrogateKeys.keys(for: $0)) }
        events.publish("theme-error", ["theme": "dark"])
        events.publish("theme-reloaded", ["theme": "Brand Dark"])
        events.publish("active-changed", ["theme": "dark"])
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
        shutdown(closed.descriptor, Int32(SHUT_RDWR))
        let target = try #require(CachePurger.Target(url: "http://127.0.0.1:\(port)"))
        #expect(throws: CachePurger.PurgeError.self) { try CachePurger.exchange(Array("PURGE / HTTP/1.1\r\n\r\n".utf8), with: target) }
    }
}
