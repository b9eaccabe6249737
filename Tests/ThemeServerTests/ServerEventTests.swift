import Audiences
import JSON
import Testing
@testable import ThemeServer

/// Each change the server announces has one name and one rendering, on `/events` and in webhooks.
@Suite("server events")
struct ServerEventTests {
    @Test("each case's wire name and data, as docs/API.md lists them")
    func rendering() throws {
        let light = ThemeRevision(theme: "light", generation: 7, revision: "r7")
        let rollout = try Rollout(theme: "light", generation: 8, previous: 7, percent: 12.5, seed: "s")
        let expected: [(ServerEvent, String, String)] = [
            (.theme(.added, light), "theme-added", #"{"theme":"light","generation":7,"revision":"r7"}"#),
            (.theme(.reloaded, light), "theme-reloaded", #"{"theme":"light","generation":7,"revision":"r7"}"#),
            (.theme(.removed, ThemeRevision(theme: "old", generation: 9)), "theme-removed", #"{"theme":"old","generation":9,"revision":""}"#),
            (.theme(.activated, light), "active-changed", #"{"theme":"light","generation":7,"revision":"r7"}"#),
            (.themeError(light, error: "bad.car: truncated", time: "2026-12-05T00:00:00Z"), "theme-error",
             #"{"theme":"light","generation":7,"revision":"r7","error":"bad.car: truncated","time":"2026-12-05T00:00:00Z"}"#),
            (.assignmentChanged(alias: "acme", theme: "light"), "assignment-changed", #"{"alias":"acme","theme":"light"}"#),
            (.assignmentChanged(alias: "acme", theme: nil), "assignment-changed", #"{"alias":"acme"}"#),
            (.rolloutChanged(theme: "light", rollout: rollout), "rollout-changed",
             #"{"theme":"light","rollout":{"generation":8,"previous":7,"percent":12.5}}"#),
            (.rolloutChanged(theme: "light", rollout: nil), "rollout-changed", #"{"theme":"light","rollout":null}"#),
            (.resync(reason: "events after 3 are no longer kept"), "resync", #"{"reason":"events after 3 are no longer kept"}"#),
        ]
        for (event, name, data) in expected {
            #expect(event.name == name)
            #expect(event.data.serialized() == data, "\(name)")
        }
    }

    @Test("a spread of refetches rides on the event's data; the event itself is unchanged")
    func refetchSpread() {
        let event = EventHub.Event(id: 3, .theme(.reloaded, ThemeRevision(theme: "dark")), refetchWithin: 600)
        #expect(event.data.serialized() == #"{"theme":"dark","generation":0,"revision":"","refetchWithin":600}"#)
        #expect(event.change == .theme(.reloaded, ThemeRevision(theme: "dark")))
    }
}
