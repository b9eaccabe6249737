import Foundation
import HTTPServer
import JSON
import ServiceSupport
import Testing
@testable import ThemeServer

/// `/events?theme=NAME`: a tenant's client gets its theme's changes (and its parents'), not every
/// tenant's; switches and resyncs still reach everyone.
@Suite("event streams for one theme")
struct EventFilterTests {
    @Test("a stream asking for some themes gets their changes and every switch; replays after Last-Event-ID are filtered the same way")
    func filtered() {
        let hub = EventHub(numbering: .cluster(startedAt: 10))
        let tenant = RecordingStream(), everything = RecordingStream()
        hub.subscribe(tenant, after: nil, interest: .themes(["brand-7", "base"]))
        hub.subscribe(everything, after: nil)
        hub.publish(.theme(.reloaded, ThemeRevision(theme: "brand-7")), generation: 11)
        hub.publish(.theme(.reloaded, ThemeRevision(theme: "brand-8")), generation: 12)
        hub.publish(.theme(.reloaded, ThemeRevision(theme: "base")), generation: 13)
        hub.publish(.theme(.activated, ThemeRevision(theme: "brand-8")), generation: 14)
        #expect(tenant.text.contains("id: g-11\n") && tenant.text.contains("id: g-13\n") && tenant.text.contains("id: g-14\n"))
        #expect(!tenant.text.contains("id: g-12\n"), "another tenant's change is not sent")
        #expect(everything.text.contains("id: g-12\n"))

        // Reconnecting after g-11: the base's change and the switch are replayed, brand-8's not.
        let resumed = RecordingStream()
        hub.subscribe(resumed, after: "g-11", interest: .themes(["brand-7", "base"]))
        #expect(resumed.text.contains("id: g-13\n") && resumed.text.contains("id: g-14\n") && !resumed.text.contains("id: g-12\n"))
    }

    @Test("GET /events?theme= follows the theme and its ancestors: a parent's change reaches the child's stream")
    func ancestorsIncluded() throws {
        let api = try APIFixture { f in
            ServerFixture.standardThemes(f)
            f.write("{\"parent\": \"light\"}", to: "themes/brand/theme.json")
        }
        let stream = RecordingStream()
        let response = try api.service.handle(Request(target: "/events?theme=brand"))
        guard case .stream(let start) = response.body else { Issue.record("not a stream"); return }
        start(stream)
        api.service.events.publish(.theme(.reloaded, ThemeRevision(theme: "light")))
        api.service.events.publish(.theme(.reloaded, ThemeRevision(theme: "dark")))
        #expect(stream.text.contains("\"theme\":\"light\""))
        #expect(!stream.text.contains("\"theme\":\"dark\""))
    }
}

/// Changes from before a hub started (a replica's store history) are replayed like its own.
@Suite("an event history recorded before serving")
struct RecordedHistoryTests {
    @Test("a stream from before the start is replayed the recorded changes, then the hub's own; older than the record: resync")
    func recorded() {
        let hub = EventHub(historyLimit: 4, numbering: .cluster(startedAt: 20))
        hub.publish(.themeError(ThemeRevision(theme: "brand"), error: "broken", time: "2026-12-05T00:00:00Z")) // the first index's own problem, at the start's id
        hub.record([EventHub.Event(id: 17, .theme(.reloaded, ThemeRevision(theme: "light"))),
                    EventHub.Event(id: 20, .theme(.activated, ThemeRevision(theme: "dark")))], completeAfter: 15)
        hub.publish(.theme(.reloaded, ThemeRevision(theme: "dark")), generation: 21)

        let resumed = RecordingStream()
        hub.subscribe(resumed, after: "g-16")
        let ids = resumed.text.split(separator: "\n").filter { $0.hasPrefix("id: ") }
        #expect(ids == ["id: g-17", "id: g-20", "id: g-20", "id: g-21", "id: g-21"], "the record, the hub's own, then the position: \(resumed.text)")
        #expect(!resumed.text.contains("resync"))

        // Past the limit of four, the oldest recorded event goes, and with it what can be replayed.
        hub.publish(.theme(.reloaded, ThemeRevision(theme: "light")), generation: 22)
        let early = RecordingStream()
        hub.subscribe(early, after: "g-16")
        #expect(early.text.contains("event: resync"), "\(early.text)")
        let later = RecordingStream()
        hub.subscribe(later, after: "g-17")
        #expect(!later.text.contains("resync") && later.text.contains("id: g-22\n"), "\(later.text)")

        let before = RecordingStream()
        hub.subscribe(before, after: "g-14")
        #expect(before.text.contains("event: resync"), "older than what the record covers")
    }
}
