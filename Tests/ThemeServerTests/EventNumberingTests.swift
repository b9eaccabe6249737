import Foundation
import HTTPServer
import JSON
import Testing
import ServiceSupport
import TestSupport
@testable import ThemeServer

/// Event ids behind a balancer: with a cluster store they are the store's generations, so a
/// client that moves to another replica resumes where it was.
@Suite("event numbering")
struct EventNumberingTests {
    /// Two replicas that started at generation 10 and applied the same changes.
    func replicas() -> (EventHub, EventHub) {
        let first = EventHub(numbering: .cluster(startedAt: 10))
        let second = EventHub(numbering: .cluster(startedAt: 10))
        for hub in [first, second] {
            hub.publish(.theme(.reloaded, ThemeRevision(theme: "light")), generation: 11)
            hub.publish(.theme(.activated, ThemeRevision(theme: "dark")), generation: 12)
        }
        return (first, second)
    }

    @Test("a cluster id means the same change on every replica: a client that moves resumes without a resync")
    func failover() {
        let (first, second) = replicas()
        #expect(first.events(after: 0).map(\.id) == [11, 12])
        #expect(second.events(after: 0).map(\.id) == [11, 12])

        let moved = RecordingStream()
        second.subscribe(moved, after: "g-11")
        #expect(!moved.text.contains("resync"))
        #expect(moved.text.contains("id: g-12\nevent: active-changed"))
        #expect(!moved.text.contains("event: theme-reloaded"), "what it saw on the first replica is not sent again")
    }

    @Test("a client ahead of this replica (it saw a change here not yet applied) waits for what comes after it")
    func clientAhead() {
        let (_, behind) = replicas()
        let client = RecordingStream()
        behind.subscribe(client, after: "g-13")
        #expect(!client.text.contains("resync") && !client.text.contains("event:"))
        #expect(!client.text.contains("id: g-12"), "its position is not moved back")
        behind.publish(.theme(.reloaded, ThemeRevision(theme: "brand")), generation: 13)
        #expect(!client.text.contains("\"brand\""), "generation 13 was seen on the other replica")
        behind.publish(.theme(.removed, ThemeRevision(theme: "old")), generation: 14)
        #expect(client.text.contains("id: g-14\nevent: theme-removed"))
    }

    @Test("ids from before the replica started, or of a local numbering, get a resync")
    func resyncs() {
        let (hub, _) = replicas()
        let old = RecordingStream()
        hub.subscribe(old, after: "g-9")
        #expect(old.text.contains("event: resync") && old.text.contains("events after g-9 are no longer kept"))
        let local = RecordingStream()
        hub.subscribe(local, after: "3fa2c01b-12")
        #expect(local.text.contains("event: resync") && local.text.contains("unknown event id 3fa2c01b-12"))
        let fresh = RecordingStream()
        hub.subscribe(fresh, after: "g-10")
        #expect(!fresh.text.contains("resync") && fresh.text.contains("id: g-11\nevent: theme-reloaded"))
    }

    @Test("an event without a generation (a local rescan, an error) takes the id of the last change")
    func eventWithoutGeneration() {
        let (hub, _) = replicas()
        #expect(hub.publish(.themeError(ThemeRevision(theme: "light"), error: "broken", time: "2026-12-05T00:00:00Z")).id == 12)
        #expect(hub.publish(.theme(.reloaded, ThemeRevision(theme: "light")), generation: 5).id == 12, "ids never go back")
    }

    @Test("a stream's opening names its position, so a client that has seen no event yet resumes from there")
    func openingPosition() {
        let (hub, _) = replicas()
        let stream = RecordingStream()
        hub.subscribe(stream, after: nil)
        #expect(stream.text == "retry: 1000\n\nid: g-12\n\n")
        let local = EventHub(source: "ab12", firstID: 7)
        let other = RecordingStream()
        local.subscribe(other, after: nil)
        #expect(other.text == "retry: 1000\n\nid: ab12-6\n\n")
        local.publish(.theme(.added, ThemeRevision(theme: "light")))
        let resumed = RecordingStream()
        local.subscribe(resumed, after: "ab12-6")
        #expect(resumed.text.contains("id: ab12-7\nevent: theme-added"), "the change it missed while away is replayed")
    }

    @Test("a drain tells each stream its own reconnection delay, within the range")
    func jitteredDrain() {
        let hub = EventHub(numbering: .cluster(startedAt: 1))
        let streams = (0..<50).map { _ in RecordingStream() }
        for stream in streams { hub.subscribe(stream, after: nil) }
        hub.closing(retryMilliseconds: 500...2500)
        let delays = streams.compactMap { stream in
            stream.text.components(separatedBy: "\n").last { $0.hasPrefix("retry: ") }.flatMap { Int($0.dropFirst(7)) }
        }
        #expect(delays.count == 50)
        #expect(delays.allSatisfy { (500...2500).contains($0) })
        #expect(Set(delays).count > 10, "spread, not one instant for every client")
    }

    @Test("an event stream whose client reads nothing is ended once its backlog passes the limit; the server goes on")
    func stalledStream() throws {
        let server = try ServerFixture(configure: {
            $0.streamBacklogLimit = 16 << 10
            $0.sendGrace = .seconds(3600) // only the backlog can end it
        })
        let stalled = try server.client(receiveBuffer: 4096)
        stalled.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        try waitFor { server.service.events.subscriberCount == 1 }
        // 4 MB of events: more than the kernel's buffers for the stalled socket hold.
        let filler = String(repeating: "x", count: 4000)
        for _ in 0..<1000 { server.service.events.publish(.themeError(ThemeRevision(theme: "light"), error: filler, time: "2026-12-05T00:00:00Z")) }
        try waitFor { server.service.events.subscriberCount == 0 && server.server.connectionCount == 0 }
        #expect(server.service.events.subscriberCount == 0, "the stalled stream is gone")
        #expect(server.server.connectionCount == 0)

        let reader = try server.client()
        reader.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try reader.readUntil("retry:")
        try waitFor { server.service.events.subscriberCount == 1 }
        server.service.events.publish(.theme(.activated, ThemeRevision(theme: "dark")))
        #expect(try reader.readUntil("event: active-changed").contains("\"dark\""))
    }

    func waitFor(_ condition: () throws -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try waitUntil(10, condition), "not so within 10 s", sourceLocation: sourceLocation)
    }
}

/// JSON strings as answers carry them: most are written whole, the rest escaped.
@Suite("JSON strings")
struct JSONStringTests {
    @Test("strings without anything to escape are written as they are; quotes, backslashes and control characters are escaped",
          arguments: [("plain", "\"plain\""), ("é ✓ 日本", "\"é ✓ 日本\""), ("a\"b", "\"a\\\"b\""), ("a\\b", "\"a\\\\b\""),
                      ("line\nnext\ttab\r", "\"line\\nnext\\ttab\\r\""), ("\u{1}", "\"\\u0001\""), ("", "\"\"")])
    func escaping(_ text: String, _ expected: String) throws {
        #expect(JSONValue.string(text).serialized() == expected)
        let parsed = try JSONSerialization.jsonObject(with: Data("[\(expected)]".utf8)) as? [String]
        #expect(parsed == [text], "a JSON parser reads back the same string")
    }
}
