import Foundation
import HTTPServer
import JSON
import Synchronization
import Testing
import ServiceSupport
import TestSupport
import ThemeIndex
@testable import ThemeServer

/// Aliases and assignment through the API (folder mode, kept in the index): a client asks which
/// theme and generation to read, and reads them at generation-pinned URLs.
@Suite("aliases and assignment")
struct AudienceRouteTests {
    static let holiday = #"""
    {"theme": "light", "rules": [{"when": {"platform": ["ios"], "appVersion": ">=5.2", "locale": ["fr", "fr-*"], "attributes": {"tier": ["beta"]}},
                                  "theme": "dark"}]}
    """#

    func json(_ response: APIResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
    }

    @Test("an alias with a rule: the client the rule takes gets its theme, others the alias's; each at a pinned base")
    func assignment() throws {
        let api = try APIFixture()
        #expect(try api.request("/aliases/acme", method: .put, body: Self.holiday).status == 200)
        let generation = try #require(api.service.library.theme(named: "dark")?.generation)
        let beta = try api.request("/assign/acme?client=c1&platform=ios&appVersion=5.10.1&locale=fr-CA&tier=beta")
        #expect(beta.status == 200 && beta.header("Cache-Control") == "private, max-age=60")
        #expect(json(beta)["theme"] as? String == "dark" && json(beta)["generation"] as? Int == Int(generation))
        #expect(json(beta)["base"] as? String == "/themes/dark@\(generation)")
        #expect((json(beta)["reason"] as? String)?.hasPrefix("rule 1 (platform ios, appVersion >=5.2") == true, "\(beta.text)")
        for query in ["client=c2&platform=ios&appVersion=5.1&locale=fr&tier=beta", "client=c3&platform=android&appVersion=6&locale=fr&tier=beta",
                      "client=c4&platform=ios&appVersion=6&locale=de&tier=beta", "client=c5&platform=ios&appVersion=6&locale=fr"] {
            let other = try api.request("/assign/acme?" + query)
            #expect(json(other)["theme"] as? String == "light" && json(other)["reason"] as? String == "default", "\(query): \(other.text)")
        }
        // `current` is the active theme, always there.
        #expect(json(try api.request("/assign/current?client=c1"))["theme"] as? String == api.service.library.activeTheme)
        let listed = json(try api.request("/aliases"))["aliases"] as? [[String: Any]] ?? []
        #expect(listed.map { $0["name"] as? String } == ["current", "acme"])
        #expect(try api.request("/assign/nope?client=c1").status == 404)
        #expect(try api.request("/assign/acme").status == 400, "a client id is required")
    }

    @Test("clients placed alike get the same bytes, and each client its own placing, whatever was answered before it")
    func answersWrittenOncePerPlacing() throws {
        let api = try APIFixture()
        #expect(try api.request("/aliases/acme", method: .put, body: Self.holiday).status == 200)
        let rule = "&platform=ios&appVersion=5.10.1&locale=fr-CA&tier=beta"
        let answers = try ["c1", "c2" + rule, "c3", "c4" + rule, "c5"].map { try api.request("/assign/acme?client=" + $0) }
        #expect(answers.map { json($0)["theme"] as? String } == ["light", "dark", "light", "dark", "light"])
        #expect(answers[0].body == answers[2].body && answers[2].body == answers[4].body && answers[1].body == answers[3].body)
        // A reload that moves the alias's theme to a new generation is answered, not the bytes before it.
        api.fixtures.colorSet("themes/light", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        try api.service.reload()
        let after = try api.request("/assign/acme?client=c1")
        #expect(json(after)["generation"] as? Int == api.service.library.theme(named: "light").map { Int($0.generation) } && after.body != answers[0].body, "\(after.text)")
    }

    @Test("a pinned URL answers as the theme while it serves that generation, for good; another generation is a 404 naming the one served")
    func pinnedURLs() throws {
        let api = try APIFixture()
        let generation = try #require(api.service.library.theme(named: "dark")?.generation)
        let plain = try api.request("/themes/dark/colors/primary?appearance=dark")
        let pinned = try api.request("/themes/dark@\(generation)/colors/primary?appearance=dark")
        #expect(pinned.status == 200 && pinned.body == plain.body)
        #expect(pinned.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(plain.header("Cache-Control") != pinned.header("Cache-Control"))
        let hits = OneProbeTests.counter("themed_cache_hits_total", try api.request("/metrics").text) ?? -1
        let again = try api.request("/themes/dark@\(generation)/colors/primary?appearance=dark")
        #expect(again.body == plain.body && again.header("Cache-Control") == "public, max-age=31536000, immutable", "the kept answer is the pinned one")
        #expect(OneProbeTests.counter("themed_cache_hits_total", try api.request("/metrics").text) == hits + 1, "answered as a kept answer")
        #expect(try api.request("/themes/dark@\(generation)/images/logo?scale=2").status == 200, "every theme route")
        let gone = try api.request("/themes/dark@\(generation + 5)/colors/primary")
        #expect(gone.status == 404 && gone.text.contains("generation_not_kept") && gone.text.contains("serves generation \(generation)"))
        #expect(try api.request("/themes/nope@1/colors/primary").status == 404)
    }

    @Test("bad input is refused naming the problem, and nothing is kept", arguments: [
        (#"{"theme": "light", "rules": [{"when": {"appVersion": ">=5.x"}, "theme": "dark"}]}"#, 422, "rules[0].when.appVersion"),
        (#"{"theme": "light", "rules": [{"when": {"locale": ["fr-"]}, "theme": "dark"}]}"#, 422, "rules[0].when.locale"),
        (#"{"theme": "nope"}"#, 404, "no theme named nope"),
        (#"{"theme": "light", "rules": [{"when": {}, "theme": "gone"}]}"#, 404, "rules[0].theme: no theme named gone"),
        (#"{"theme": "light", "generation": 999}"#, 422, "generation 999 of light is not kept"),
        (#"{"theme": "light""#, 400, "not JSON"),
        (#"{"theme": "light", "at": "2030-01-01T00:00:00Z"}"#, 409, "cluster"),
    ])
    func refused(_ body: String, _ status: Int, _ words: String) throws {
        let api = try APIFixture()
        let answer = try api.request("/aliases/acme", method: .put, body: body)
        #expect(answer.status == status && answer.text.contains(words), "\(answer.text)")
        #expect(try api.request("/aliases/acme").status == 404, "nothing kept")
    }

    @Test("who may change aliases: loopback without a token; current is PUT /active's; a deleted alias is gone")
    func permissions() throws {
        let api = try APIFixture()
        #expect(try api.request("/aliases/acme", method: .put, body: #"{"theme": "light"}"#, from: "203.0.113.9:5000").status == 403)
        #expect(try api.request("/aliases/current", method: .put, body: #"{"theme": "light"}"#).status == 400)
        #expect(try api.request("/aliases/acme", method: .put, body: #"{"theme": "light"}"#).status == 200)
        #expect(try api.request("/aliases/acme", method: .delete, from: "203.0.113.9:5000").status == 403)
        #expect(try api.request("/aliases/acme", method: .delete).status == 200)
        #expect(try api.request("/aliases/acme", method: .delete).status == 404)
        #expect(try api.request("/assign/acme?client=c1").status == 404)
        let tokened = try APIFixture(activeToken: "s3cret")
        #expect(try tokened.request("/aliases/acme", method: .put, body: #"{"theme": "light"}"#).status == 401)
        #expect(try tokened.request("/aliases/acme", method: .put, headers: ["Authorization": "Bearer s3cret"], body: #"{"theme": "light"}"#).status == 200)
    }

    @Test("aliases are kept in the index: a restarted service answers them")
    func kept() throws {
        let api = try APIFixture()
        #expect(try api.request("/aliases/acme", method: .put, body: Self.holiday).status == 200)
        let app = try api.fixtures.restartedApplication()
        defer { app.shutdown() }
        #expect(app.service?.aliases.alias(named: "acme")?.rules.count == 1)
    }

    @Test("clients are told to ask again: a changed alias, a reloaded theme it points at, a switch of current")
    func events() throws {
        let api = try APIFixture()
        let seen = Mutex<[String]>([])
        api.service.events.observe { event in
            guard case .assignmentChanged(let alias, _) = event.change else { return }
            seen.withLock { $0.append(alias) }
        }
        #expect(try api.request("/aliases/acme", method: .put, body: Self.holiday).status == 200)
        api.fixtures.colorSet("themes/dark", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        try api.service.reload()
        #expect(try api.request("/active", method: .put, body: #"{"theme": "dark"}"#).status == 200)
        let announced = seen.withLock { $0 }
        #expect(announced.first == "acme", "the alias itself")
        #expect(announced.filter { $0 == "acme" }.count == 2, "and when dark, which its rule points at, reloaded: \(announced)")
        #expect(announced.contains("current"), "a switch moves current")
    }

    @Test("assignments are counted in /metrics by theme, generation and reason")
    func metrics() throws {
        let api = try APIFixture()
        #expect(try api.request("/aliases/acme", method: .put, body: Self.holiday).status == 200)
        _ = try api.request("/assign/acme?client=c1&platform=ios&appVersion=6&locale=fr&tier=beta")
        _ = try api.request("/assign/acme?client=c2")
        _ = try api.request("/assign/acme?client=c3")
        let metrics = try api.request("/metrics").text
        let generation = try #require(api.service.library.theme(named: "light")?.generation)
        #expect(metrics.contains("themed_assignments_total{theme=\"light\",generation=\"\(generation)\",reason=\"default\"} 2"), "\(metrics)")
        #expect(metrics.contains("reason=\"rule\"} 1"))
    }

    @Test("over the network, every event loop answers an alias's change at once, though each keeps its own assigners")
    func changeSeenByEveryLoop() throws {
        let server = try ServerFixture()
        // Loopback is the operator here (no token, no cluster store).
        #expect(try server.client().request("/aliases/acme", method: "PUT", body: #"{"theme": "light"}"#).status == 200)
        // A connection each: the server hands them to its loops in turn, and each loop keeps the assigner it made.
        let clients = try (0..<4).map { _ in try server.client() }
        for client in clients {
            #expect(try client.request("/assign/acme?client=c1").text.contains(#""theme":"light""#))
        }
        #expect(try server.client().request("/aliases/acme", method: "PUT", body: #"{"theme": "dark"}"#).status == 200)
        for client in clients {
            let answer = try client.request("/assign/acme?client=c1").text
            #expect(answer.contains(#""theme":"dark""#), "\(answer)")
        }
    }

    @Test("over the network, the assignments each event loop counted add up in /metrics and in the rollout's line")
    func metricsAcrossLoops() throws {
        let server = try ServerFixture()
        // A connection each: the server hands them to its loops in turn.
        for number in 0..<8 {
            #expect(try server.client().request("/assign/current?client=c\(number)").status == 200)
        }
        let metrics = try server.client().request("/metrics").text
        let active = try #require(server.service.library.activeTheme)
        let generation = try #require(server.service.library.theme(named: active)?.generation)
        #expect(metrics.contains("themed_assignments_total{theme=\"\(active)\",generation=\"\(generation)\",reason=\"default\"} 8"), "\(metrics)")
    }
}
