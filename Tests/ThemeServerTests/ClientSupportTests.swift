import Foundation
import HTTPServer
import JSON
import ServiceSupport
import Testing
@testable import ThemeServer

/// What the clients rely on from the server (docs/CLIENTS.md, "The contract"): palettes that say
/// what they vary by and whether they are whole, and event streams that follow what a moving
/// name stands for and ask a crowd to spread its refetches.
@Suite("server support for the clients")
struct ClientSupportTests {
    static let palette = "/themes/light/colors?resolve=1&appearance=dark"

    @Test("a palette's bytes and ETag are the same at every density and language when no colour varies by them; Vary names the hints honoured")
    func densityFreePalette() throws {
        let api = try APIFixture()
        let plain = try api.request(Self.palette)
        #expect(plain.status == 200)
        let etag = try #require(plain.header("ETag"))
        // Android's densities, iOS's scales, the web's device pixel ratio as a hint, and languages.
        for query in ["&dpr=2.625", "&dpr=1.5", "&scale=3", "&scale=2&lang=fr", "&idiom=universal&dpr=4"] {
            let answer = try api.request(Self.palette + query)
            #expect(answer.header("ETag") == etag, "\(query)")
            #expect(answer.text == plain.text, "\(query)")
            #expect(try api.request(Self.palette + query, headers: ["If-None-Match": etag]).status == 304, "a bootstrap's ETag answers \(query)")
        }
        #expect(try api.request(Self.palette, headers: ["Sec-CH-DPR": "2.625"]).header("ETag") == etag)
        let traits = try #require(plain.json["traits"] as? [String: Any])
        #expect(traits["scale"] == nil, "colours ignore scale: it is not echoed")
        let vary = try #require(plain.header("Vary"))
        #expect(vary.contains("Sec-CH-Prefers-Color-Scheme") && vary.contains("Sec-CH-Prefers-Contrast"))
        #expect(!vary.contains("DPR") && !vary.contains("Accept-Language"), "nothing here varies by them: \(vary)")

        // The hints the Vary names do choose other colours: a shared cache must keep them apart.
        let byHint = try api.request("/themes/light/colors?resolve=1", headers: ["Sec-CH-Prefers-Color-Scheme": "dark"])
        let light = try api.request("/themes/light/colors?resolve=1", headers: ["Sec-CH-Prefers-Color-Scheme": "light"])
        #expect(byHint.header("ETag") != light.header("ETag"))
        #expect(byHint.header("Vary")?.contains("Sec-CH-Prefers-Color-Scheme") == true)
    }

    @Test("a colour set with a 3x entry: colours ignore scale (lookup-rules.md 4.4), so its palette is still one at every density")
    func scaledColorSet() throws {
        let api = try APIFixture { f in
            ServerFixture.standardThemes(f)
            f.colorSet("themes/light", "hairline", [
                (nil, ["red": "0", "green": "0", "blue": "0", "alpha": "1"], [:]),
                (nil, ["red": "1", "green": "0", "blue": "0", "alpha": "1"], ["scale": "3x"]),
            ])
        }
        let three = try api.request(Self.palette + "&scale=3"), one = try api.request(Self.palette + "&scale=1")
        #expect(three.text == one.text && three.header("ETag") == one.header("ETag"))
        #expect(three.header("Vary")?.contains("DPR") == false)
        #expect(try api.request("/themes/light/colors/hairline?scale=3").json["hex"] as? String
                == ((three.json["colors"] as? [String: Any])?["hairline"] as? [String: Any])?["hex"] as? String, "the one-name lookup agrees")
    }

    @Test("a theme with a broken colour file: its palette says degraded in the body and a header; a whole one says ok")
    func degradedPalette() throws {
        let api = try APIFixture()
        let whole = try api.request(Self.palette)
        #expect(whole.json["status"] as? String == "ok" && whole.header("Themed-Status") == nil)
        api.fixtures.write("{\"colors\": [", to: "themes/light/Theme.xcassets/primary.colorset/Contents.json")
        try api.service.reload()
        let degraded = try api.request(Self.palette)
        #expect(degraded.json["status"] as? String == "degraded")
        #expect(degraded.header("Themed-Status") == "degraded; problems=\"/themes/light/problems\"")
        #expect(degraded.json["missing"] as? [String] == ["primary"], "what the last whole generation had")
        #expect(degraded.header("Themed-Missing") == "\"primary\"")
        // Mended: whole again, nothing missing.
        api.fixtures.colorSet("themes/light", "primary", [(nil, ["red": "0", "green": "0", "blue": "0", "alpha": "1"], [:])])
        try api.service.reload()
        let mended = try api.request(Self.palette)
        #expect(mended.json["status"] as? String == "ok" && mended.json["missing"] == nil && mended.header("Themed-Missing") == nil)
        #expect((degraded.json["colors"] as? [String: Any])?["primary"] == nil, "the broken colour is missing")
        #expect((degraded.json["colors"] as? [String: Any])?["background"] != nil)
    }

    @Test("a palette names the revision of each theme of its chain: the one a reload's event carries, the same in /themes")
    func paletteRevisions() throws {
        let api = try APIFixture { f in
            ServerFixture.standardThemes(f)
            f.write("{\"parent\": \"light\"}", to: "themes/brand/theme.json")
        }
        let before = try #require(try api.request("/themes/brand/colors?resolve=1").json["revisions"] as? [String: String])
        #expect(Set(before.keys) == ["brand", "light"])
        let listed = try #require(try api.request("/themes/light").json["revision"] as? String)
        #expect(before["light"] == listed)
        let stream = try Self.open("/events?theme=brand", api)
        api.fixtures.colorSet("themes/light", "primary", [(nil, ["red": "0", "green": "0", "blue": "1", "alpha": "1"], [:])])
        try api.service.reload()
        let after = try #require(try api.request("/themes/brand/colors?resolve=1").json["revisions"] as? [String: String])
        #expect(after["light"] != before["light"] && after["brand"] == before["brand"], "only the parent changed")
        let announced = try #require(after["light"])
        #expect(stream.text.contains(#""theme":"light""#) && stream.text.contains(#""revision":"\#(announced)""#),
                "the parent's reload carries the revision the palette now names")
    }

    @Test("with theme.json's onError keep, a broken colour file leaves the palette whole and stale: the last good value serves")
    func stalePalette() throws {
        let api = try APIFixture { f in
            ServerFixture.standardThemes(f)
            f.write(#"{"onError": "keep"}"#, to: "themes/light/theme.json")
        }
        let whole = try api.request(Self.palette)
        api.fixtures.write("{\"colors\": [", to: "themes/light/Theme.xcassets/primary.colorset/Contents.json")
        try api.service.reload()
        let stale = try api.request(Self.palette)
        #expect(stale.json["status"] as? String == "stale" && stale.json["missing"] == nil)
        #expect(stale.header("Themed-Status") == "stale; problems=\"/themes/light/problems\"" && stale.header("Themed-Missing") == nil)
        #expect(stale.json["colors"] as? NSDictionary == whole.json["colors"] as? NSDictionary, "the colours as they were")
        #expect(try api.request("/themes/light").json["status"] as? String == "stale")
    }

    @Test("/events?theme=current: the active theme's changes and its parents', not unrelated themes'; it moves with a switch")
    func followsCurrent() throws {
        let api = try APIFixture { f in
            ServerFixture.standardThemes(f)
            f.write("{\"parent\": \"light\"}", to: "themes/brand/theme.json")
        }
        #expect(try api.request("/active", method: .put, body: #"{"theme":"brand"}"#).status == 200)
        let stream = try Self.open("/events?theme=current", api)
        let events = api.service.events
        events.publish(.theme(.reloaded, ThemeRevision(theme: "dark")))
        events.publish(.theme(.reloaded, ThemeRevision(theme: "light")))
        #expect(!stream.text.contains(#""theme":"dark""#), "an unrelated theme's reload")
        #expect(stream.text.contains(#""theme":"light""#), "the active theme's parent")
        #expect(try api.request("/active", method: .put, body: #"{"theme":"dark"}"#).status == 200)
        #expect(stream.text.contains("event: active-changed"))
        events.publish(.theme(.reloaded, ThemeRevision(theme: "dark", generation: 9)))
        events.publish(.theme(.reloaded, ThemeRevision(theme: "light", generation: 9)))
        #expect(stream.text.contains(#""theme":"dark","generation":9"#), "the new active theme's reload")
        #expect(!stream.text.contains(#""theme":"light","generation":9"#), "the old one's parent no longer concerns it")
    }

    @Test("/events?theme=ALIAS: the themes the alias points at and its own assignment-changed, not another alias's")
    func followsAlias() throws {
        let api = try APIFixture()
        #expect(try api.request("/aliases/acme", method: .put, body: #"{"theme":"dark"}"#).status == 200)
        #expect(try api.request("/aliases/other", method: .put, body: #"{"theme":"light"}"#).status == 200)
        let stream = try Self.open("/events?theme=acme", api)
        let events = api.service.events
        events.publish(.theme(.reloaded, ThemeRevision(theme: "light", generation: 7)))
        events.publish(.assignmentChanged(alias: "other", theme: nil))
        #expect(!stream.text.contains("generation\":7") && !stream.text.contains(#""alias":"other""#))
        #expect(try api.request("/aliases/acme", method: .put, body: #"{"theme":"light"}"#).status == 200)
        #expect(stream.text.contains(#""alias":"acme""#))
        events.publish(.theme(.reloaded, ThemeRevision(theme: "light", generation: 8)))
        #expect(stream.text.contains("generation\":8"), "the alias moved to light: its changes come now")
    }

    @Test("a change that reaches more streams than eventRefetchRate asks them to spread their refetches; a small crowd is not asked")
    func refetchSpread() throws {
        let hub = EventHub(refetchRate: 4)
        let streams = (0..<10).map { _ in RecordingStream() }
        for stream in streams.prefix(3) { hub.subscribe(stream, after: nil) }
        hub.publish(.theme(.reloaded, ThemeRevision(theme: "light")))
        #expect(!streams[0].text.contains("refetchWithin"))
        for stream in streams.dropFirst(3) { hub.subscribe(stream, after: nil) }
        hub.publish(.theme(.reloaded, ThemeRevision(theme: "light")))
        #expect(streams[9].text.contains(#""refetchWithin":2500"#), "10 streams at 4 a second: 2.5 s")
        hub.publish(.themeError(ThemeRevision(theme: "light"), error: "broken", time: "2026-12-05T00:00:00Z"))
        let error = try #require(streams[9].text.components(separatedBy: "event: theme-error").last)
        #expect(!error.contains("refetchWithin"), "an error sets off no refetch")
    }

    static func open(_ target: String, _ api: APIFixture) throws -> RecordingStream {
        let stream = RecordingStream()
        let response = try api.service.handle(Request(target: target))
        guard case .stream(let start) = response.body else {
            Issue.record("\(target) did not answer a stream")
            return stream
        }
        start(stream)
        return stream
    }
}
