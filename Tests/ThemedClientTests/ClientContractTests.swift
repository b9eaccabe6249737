import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPServer
import Synchronization
import Testing
import ServiceSupport
import TestSupport
@testable import ThemeServer
import ThemeVocabulary
@testable import ThemedClient

/// The scenarios of docs/CLIENTS.md ("The contract"), each named by its id in
/// clients/scenarios.tsv, against a real themed (`ServerFixture`) or, where a server must
/// misbehave on cue, a scripted one (`ScriptedServer`).
@Suite("client contract: Swift", .serialized)
struct ClientContractTests {
    let scratch = ScratchFolder("contract")
    static let quick = ThemedClient.Settings(minimumReconnectDelay: .milliseconds(20), maximumReconnectDelay: .milliseconds(100))

    func folder() -> URL { URL(fileURLWithPath: scratch.path()) }

    @Test("offline-start-catch-up: started with the server away, the active theme switched meanwhile: the client catches up when the server is back")
    func offlineStartCatchUp() async throws {
        let server = try ServerFixture()
        let cache = folder()
        #expect(await ThemedClient(server: ThemedClientTests.base(server.port), cacheDirectory: cache).refresh()?.theme == "light")
        server.stopServing()
        let client = ThemedClient(server: ThemedClientTests.base(server.port), cacheDirectory: cache, settings: Self.quick)
        let updates = UpdateLog(client)
        #expect(client.loadCached()?.theme == "light", "the first frame from the disk copy")
        _ = await client.refresh()
        guard case .offline = client.status else { Issue.record("status \(client.status)"); return }
        let following = client.follow()
        defer { following.cancel() }
        server.service.applyActive("dark")
        try server.resumeServing()
        #expect(await updates.next(timeout: 30) { $0.palette.theme == "dark" } != nil, "caught up once the stream reopened")
        #expect(client.status == .live)
    }

    @Test("stale-answer-dropped: a slow answer for the old traits that lands after the new traits' answer is dropped")
    func staleAnswerDropped() async throws {
        let heldLight = Mutex<(@Sendable (Response) -> Void)?>(nil)
        let server = try ScriptedServer { request in
            guard request.query["appearance"] == "light" else { return ScriptedServer.palette("t", ["primary": "#000000FF"]) }
            return Response(deferred: { respond in heldLight.withLock { $0 = respond } })
        }
        let client = ThemedClient(server: server.base, theme: "t", traits: ThemeTraits(appearance: Appearance(.light)))
        let updates = UpdateLog(client)
        let slow = Task { await client.refresh() }
        #expect(await waitUntil(within: 5) { heldLight.withLock { $0 != nil } })
        await client.setTraits(ThemeTraits(appearance: Appearance(.dark)))
        #expect(client.palette?.colors["primary"]?.hex == "#000000FF")
        heldLight.withLock { $0 }?(ScriptedServer.palette("t", ["primary": "#FFFFFFFF"]))
        _ = await slow.value
        #expect(client.palette?.colors["primary"]?.hex == "#000000FF", "the dark palette stays")
        #expect(await updates.next(timeout: 0.2) { $0.palette.colors["primary"]?.hex == "#FFFFFFFF" } == nil, "the light answer was never published")
    }

    @Test("degraded-theme: a broken colour file: the last good value of the missing colour is kept and named; the disk copy keeps it too")
    func degradedTheme() async throws {
        let server = try ServerFixture()
        let cache = folder()
        let client = ThemedClient(server: ThemedClientTests.base(server.port), theme: "light", cacheDirectory: cache)
        let good = try #require(await client.refresh()?.colors["primary"])
        server.fixtures.write("{\"colors\": [", to: "themes/light/Theme.xcassets/primary.colorset/Contents.json")
        try server.service.reload()
        let kept = await client.refresh()
        #expect(kept?.colors["primary"] == good && kept?.colors["background"] != nil)
        #expect(client.status == .degraded(missing: ["primary"]))
        #expect(ThemedClient(server: client.server, theme: "light", cacheDirectory: cache).loadCached()?.colors["primary"] == good)
    }

    @Test("garbage-200: a captive portal's page and a 200 without colours replace neither the palette nor the disk copy")
    func garbage200() async throws {
        let answer = Mutex("good")
        let server = try ScriptedServer { _ in
            switch answer.withLock({ $0 }) {
            case "portal": Response(status: .ok, headers: [.contentType: "text/html"], body: Array("<html>Sign in to the Wi-Fi</html>".utf8))
            case "empty": Response(status: .ok, headers: [.contentType: "application/json"], body: Array("{\"theme\":\"t\"}".utf8))
            default: ScriptedServer.palette("t", ["primary": "#102030FF"])
            }
        }
        let cache = folder()
        let client = ThemedClient(server: server.base, theme: "t", cacheDirectory: cache)
        let good = try #require(await client.refresh())
        for mode in ["portal", "empty"] {
            answer.withLock { $0 = mode }
            #expect(await client.refresh() == good, "\(mode)")
            guard case .invalidResponse? = client.lastError else { Issue.record("\(mode): \(String(describing: client.lastError))"); continue }
            #expect(ThemedClient(server: server.base, theme: "t", cacheDirectory: cache).loadCached() == good, "\(mode): the disk copy")
        }
    }

    @Test("cut-stream: a stream cut mid-line dispatches nothing and takes no id; it is reopened after a delay")
    func cutStream() async throws {
        let streams = Mutex(0)
        let server = try ScriptedServer { request in
            guard request.path == "/events" else { return ScriptedServer.palette("t", ["primary": "#102030FF"]) }
            streams.withLock { $0 += 1 }
            return Response(status: .ok, headers: [.contentType: "text/event-stream"]) { stream in
                _ = stream.write(Array("id: 9\nevent: theme-rel".utf8))
                stream.close()
            }
        }
        let client = ThemedClient(server: server.base, theme: "t", settings: Self.quick)
        let good = try #require(await client.refresh())
        let following = client.follow()
        defer { following.cancel() }
        #expect(await waitUntil(within: 10) { streams.withLock { $0 } >= 3 }, "reopened after each cut")
        #expect(client.lastEventID == nil && client.palette == good)
    }

    @Test("hung-server: a request that never answers ends at the request timeout, a silent stream is reopened at the idle limit")
    func hungServer() async throws {
        let streams = Mutex(0), hang = Mutex(false)
        let server = try ScriptedServer { request in
            if request.path == "/events" {
                streams.withLock { $0 += 1 }
                return Response(status: .ok, headers: [.contentType: "text/event-stream"]) { _ in } // never a byte
            }
            return hang.withLock({ $0 }) ? Response(deferred: { _ in }) : ScriptedServer.palette("t", ["primary": "#102030FF"])
        }
        var settings = Self.quick
        (settings.requestTimeout, settings.streamIdleTimeout) = (.milliseconds(300), .milliseconds(300))
        let client = ThemedClient(server: server.base, theme: "t", settings: settings)
        let good = try #require(await client.refresh())
        hang.withLock { $0 = true }
        #expect(await client.refresh() == good)
        guard case .offline(.transport) = client.status else { Issue.record("status \(client.status)"); return }
        let following = client.follow()
        defer { following.cancel() }
        #expect(await waitUntil(within: 10) { streams.withLock { $0 } >= 3 }, "reopened after each silence")
    }

    @Test("close-while-hanging: close() returns at once and cancels the request in flight; nothing is fetched after")
    func closeWhileHanging() async throws {
        let asked = Mutex(0)
        let server = try ScriptedServer { _ in
            asked.withLock { $0 += 1 }
            return Response(deferred: { _ in })
        }
        let client = ThemedClient(server: server.base, theme: "t", settings: ThemedClient.Settings(requestTimeout: .seconds(60)))
        let waiting = Task { await client.refresh() }
        #expect(await waitUntil(within: 5) { asked.withLock { $0 } == 1 })
        let closing = ContinuousClock.now
        client.close()
        #expect(ContinuousClock.now - closing < .milliseconds(100))
        let ended = Mutex(false)
        Task { _ = await waiting.value; ended.withLock { $0 = true } }
        #expect(await waitUntil(within: 5) { ended.withLock { $0 } }, "the hung request was cancelled, not waited out (60 s)")
        _ = await client.refresh()
        #expect(asked.withLock { $0 } == 1, "a closed client asks nothing")
        #expect(client.follow().isCancelled)
    }

    @Test("unwritable-cache: the palette is still served and live, the cache error is reported; an id the app keeps is used")
    func unwritableCache() async throws {
        let server = try ServerFixture()
        let parent = folder()
        let blocker = parent.appendingPathComponent("a-file")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: blocker)
        let client = ThemedClient(server: ThemedClientTests.base(server.port), theme: "light", cacheDirectory: blocker.appendingPathComponent("cache"))
        let errors = Mutex<[ThemedClientError]>([])
        client.onError { error in errors.withLock { $0.append(error) } }
        #expect(await client.refresh()?.colors["primary"] != nil)
        #expect(client.status == .live)
        #expect(errors.withLock { $0.contains { if case .cache = $0 { true } else { false } } }, "\(errors.withLock { $0 })")
        let kept = ThemedClient(server: client.server, cacheDirectory: blocker, settings: ThemedClient.Settings(clientID: "from-the-keychain"))
        #expect(kept.clientID == "from-the-keychain")
    }

    @Test("alias-offline: a client following an alias starts offline from its last assignment, and asks again once the server is back")
    func aliasOffline() async throws {
        let server = try ServerFixture()
        #expect(try server.client().request("/aliases/acme", method: "PUT", body: #"{"theme": "dark"}"#).status == 200)
        let cache = folder()
        let first = ThemedClient(server: ThemedClientTests.base(server.port), cacheDirectory: cache)
        let assignment = try await first.follow(alias: "acme")
        let palette = try #require(first.palette)
        server.stopServing()
        let offline = ThemedClient(server: ThemedClientTests.base(server.port), cacheDirectory: cache, settings: Self.quick)
        #expect(try await offline.follow(alias: "acme") == assignment)
        #expect(offline.palette == palette, "the assigned theme's disk copy")
        guard case .offline = offline.status else { Issue.record("status \(offline.status)"); return }
        try server.resumeServing()
        let following = offline.follow()
        defer { following.cancel() }
        #expect(await waitUntil(within: 30) { offline.status == .live })
    }

    @Test("bootstrap-304: a shipped bootstrap is the first frame, and the first request is a 304 for an iPhone's and a browser's traits; a bad file is an error")
    func bootstrap304() async throws {
        let server = try ServerFixture()
        let bootstrap = try Self.bootstrap(theme: "light", server)
        let downloads = try Self.paletteRequests(server, status: 200)
        let phone = ThemeTraits(appearance: Appearance(.dark), scale: 3, languages: ["fr-CA", "en"])
        let browser = ThemeTraits(appearance: Appearance(.light, highContrast: true))
        for (number, traits) in [phone, browser].enumerated() {
            let client = ThemedClient(server: ThemedClientTests.base(server.port), theme: "light", traits: traits, cacheDirectory: folder().appendingPathComponent("\(number)"))
            let shipped = try client.loadBootstrap(bootstrap)
            #expect(await client.refresh() == shipped)
        }
        #expect(try Self.paletteRequests(server, status: 304) == 2, "both revalidated")
        #expect(try Self.paletteRequests(server, status: 200) == downloads, "neither downloaded")

        let client = ThemedClient(server: ThemedClientTests.base(server.port), theme: "dark", cacheDirectory: folder())
        for (file, expected) in [(bootstrap, "exported for theme light"), (bootstrap.prefix(bootstrap.count / 2), "not a themed bootstrap"), (Data("{}".utf8), "not a themed bootstrap")] {
            #expect(throws: ThemedClientError.self) { try client.loadBootstrap(Data(file)) }
            do { try client.loadBootstrap(Data(file)) } catch { #expect("\(error)".contains(expected), "\(error)") }
        }
        #expect(client.palette == nil)
    }

    @Test("unrelated-reloads-ignored: following current, another theme's reload costs no request")
    func unrelatedReloadsIgnored() async throws {
        let server = try ServerFixture()
        let client = ThemedClient(server: ThemedClientTests.base(server.port), settings: Self.quick)
        _ = await client.refresh()
        let updates = UpdateLog(client)
        let following = client.follow()
        defer { following.cancel() }
        try await ThemedClientTests.waitForSubscriber(server)
        try await ThemedClientTests.waitForPaletteRequests(server, 2)
        server.fixtures.colorSet("themes/dark", "primary", [(nil, ["red": "0", "green": "1", "blue": "0", "alpha": "1"], [:])])
        try server.service.reload()
        server.fixtures.colorSet("themes/light", "primary", [(nil, ["red": "0", "green": "0", "blue": "1", "alpha": "1"], [:])])
        try server.service.reload()
        #expect(await updates.next { $0.reason == .event("theme-reloaded") && $0.palette.colors["primary"]?.hex == "#0000FFFF" } != nil)
        try await ThemedClientTests.waitForPaletteRequests(server, 3)
        #expect(try Self.paletteRequests(server) == 3, "dark's reload asked nothing")
    }

    @Test("restart-resumed: the server restarted with nothing changed: the stream resumes by Last-Event-ID and the revalidation is a 304")
    func restartResumed() async throws {
        let server = try ServerFixture()
        let cache = folder()
        let client = ThemedClient(server: ThemedClientTests.base(server.port), theme: "light", cacheDirectory: cache, settings: Self.quick)
        _ = await client.refresh()
        let following = client.follow()
        defer { following.cancel() }
        try await ThemedClientTests.waitForSubscriber(server)
        // The stream's position counts once its opening's revalidation has ended.
        #expect(await waitUntil(within: 30) { client.lastEventID != nil })
        let seen = try #require(client.lastEventID)
        let updates = UpdateLog(client)
        server.stopServing()
        try server.resumeServing()
        try await ThemedClientTests.waitForSubscriber(server)
        try await ThemedClientTests.waitForPaletteRequests(server, 3)
        #expect(try server.client().request("/metrics").text.contains("themed_requests_total{route=\"colors\",status=\"200\"} 1"), "one download, at the start")
        #expect(client.lastEventID == seen)
        #expect(await updates.next(timeout: 0.2) { $0.reason != .current } == nil, "nothing new published")
    }

    @Test("failed-refresh-retried: an event whose refresh fails is not taken as seen; the reopened stream replays it and the refresh is retried")
    func failedRefreshRetried() async throws {
        let palettes = Mutex(0), streams = Mutex(0)
        let server = try ScriptedServer { request in
            if request.path == "/events" {
                streams.withLock { $0 += 1 }
                let seen = request.headers[.lastEventID] == "5"
                return Response(status: .ok, headers: [.contentType: "text/event-stream"]) { stream in
                    stream.write(Array(("retry: 10\n\n" + (seen ? "" : "id: 5\nevent: theme-reloaded\ndata: {\"theme\":\"t\"}\n\n") + "id: 5\n\n").utf8))
                }
            }
            // The first answer, then a 500 (the refresh after the event), then the new palette.
            let number = palettes.withLock { $0 += 1; return $0 }
            if number == 2 { return Response(status: .internalServerError, body: Array("boom".utf8)) }
            return ScriptedServer.palette("t", ["primary": number == 1 ? "#000000FF" : "#FFFFFFFF"])
        }
        let client = ThemedClient(server: server.base, theme: "t", settings: Self.quick)
        _ = await client.refresh()
        let following = client.follow()
        defer { following.cancel() }
        #expect(await waitUntil(within: 10) { client.palette?.colors["primary"]?.hex == "#FFFFFFFF" })
        #expect(await waitUntil(within: 5) { client.lastEventID == "5" })
        #expect(streams.withLock { $0 } >= 2, "the stream was reopened after the failed refresh")
    }

    @Test("refetch-spread: an event that asks to spread refetches is waited on for a random part of refetchWithin")
    func refetchSpread() async throws {
        let asked = Mutex<[ContinuousClock.Instant]>([])
        let opened = Mutex<ContinuousClock.Instant?>(nil)
        let server = try ScriptedServer { request in
            if request.path == "/events" {
                opened.withLock { $0 = $0 ?? .now }
                return Response(status: .ok, headers: [.contentType: "text/event-stream"]) { stream in
                    stream.write(Array("retry: 10\n\nid: 1\n\n".utf8))
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
                        _ = stream.write(Array("id: 2\nevent: theme-reloaded\ndata: {\"theme\":\"t\",\"refetchWithin\":600}\n\n".utf8))
                    }
                }
            }
            asked.withLock { $0.append(.now) }
            return ScriptedServer.palette("t", ["primary": "#000000FF"])
        }
        let client = ThemedClient(server: server.base, theme: "t", settings: Self.quick)
        let following = client.follow()
        defer { following.cancel() }
        #expect(await waitUntil(within: 10) { client.lastEventID == "2" })
        let times = asked.withLock { $0 }
        #expect(times.count == 2, "the revalidation at the opening, then the event's refetch")
        if let start = opened.withLock({ $0 }), let last = times.last { #expect(last - start <= .milliseconds(200 + 600 + 2000)) }
    }

    @Test("held-revision-skipped: an event whose revision the palette held already has asks nothing; its id is taken; a new revision is fetched")
    func heldRevisionSkipped() async throws {
        let palettes = Mutex(0)
        let stream = Mutex<(any ResponseStream)?>(nil)
        let server = try ScriptedServer { request in
            if request.path == "/events" {
                return Response(status: .ok, headers: [.contentType: "text/event-stream"]) { opened in
                    stream.withLock { $0 = opened }
                    opened.write(Array("retry: 10\n\nid: 1\n\n".utf8))
                }
            }
            // The first answer and the opening's revalidation hold r1; once the revalidation is
            // asked, the stream replays r1's event and announces r2.
            let number = palettes.withLock { $0 += 1; return $0 }
            if number == 2 {
                let events = "id: 2\nevent: theme-reloaded\ndata: {\"theme\":\"t\",\"revision\":\"r1\"}\n\n"
                    + "id: 3\nevent: theme-reloaded\ndata: {\"theme\":\"t\",\"revision\":\"r2\"}\n\n"
                _ = stream.withLock { $0 }?.write(Array(events.utf8))
            }
            return ScriptedServer.palette("t", ["primary": number <= 2 ? "#000000FF" : "#FFFFFFFF"], revisions: ["t": number <= 2 ? "r1" : "r2"])
        }
        let client = ThemedClient(server: server.base, theme: "t", settings: Self.quick)
        _ = await client.refresh()
        let following = client.follow()
        defer { following.cancel() }
        #expect(await waitUntil(within: 10) { client.lastEventID == "3" })
        #expect(client.palette?.colors["primary"]?.hex == "#FFFFFFFF")
        #expect(palettes.withLock { $0 } == 3, "the first answer, the opening's revalidation and r2's refetch; nothing for r1's replay")
    }

    /// The bootstrap `themed export --format bootstrap` writes, made of the server's answers as
    /// the exporter asks them (`Bootstrap.file`: the same targets, body and ETag as sent).
    static func bootstrap(theme: String, _ server: ServerFixture) throws -> Data {
        var palettes: [[String: Any]] = []
        for appearance in ["light", "dark"] {
            for contrast in ["normal", "high"] {
                let path = "/themes/\(theme)/colors?resolve=1&appearance=\(appearance)" + (contrast == "high" ? "&contrast=high" : "")
                let response = server.service.handle(try Request(method: .get, target: path)).waitForCompletion()
                let etags = try [nil, "br", "gzip"].map { coding in
                    server.service.handle(try Request(method: .get, target: path, headers: coding.map { [.acceptEncoding: $0] } ?? [:]))
                        .waitForCompletion().headers[.eTag] ?? ""
                }
                palettes.append(["appearance": appearance, "contrast": contrast, "path": path, "etag": etags[0], "etags": etags,
                                 "body": String(decoding: response.bodyBytes(), as: UTF8.self)])
            }
        }
        return try JSONSerialization.data(withJSONObject: ["format": "themed-bootstrap", "version": 1, "theme": theme, "generation": 1,
                                                           "exportedAt": ISO8601DateFormatter().string(from: Date()), "palettes": palettes])
    }

    /// The palette requests the server answered (with `status`, or all).
    static func paletteRequests(_ server: ServerFixture, status: Int? = nil) throws -> Int {
        try server.client().request("/metrics").text.split(separator: "\n")
            .filter { $0.hasPrefix("themed_requests_total{route=\"colors\"," + (status.map { "status=\"\($0)\"" } ?? "")) }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
    }
}

/// A server that answers as a test scripts it, to misbehave on cue.
final class ScriptedServer: Sendable {
    let server: HTTPServer
    var base: URL { ThemedClientTests.base(server.port) }

    init(_ answer: @escaping @Sendable (Request) -> Response) throws {
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        server = HTTPServer(configuration: configuration, handler: answer)
        try server.start()
    }

    deinit { server.shutdown(timeout: .milliseconds(200)) }

    /// A palette answer with these colours (hex by name) and its ETag.
    static func palette(_ theme: String, _ colors: [String: String], status: String = "ok", revisions: [String: String] = [:]) -> Response {
        let members = colors.sorted { $0.key < $1.key }.map { name, hex in
            "\"\(name)\":{\"hex\":\"\(hex)\",\"css\":\"\(hex)\",\"colorSpace\":\"srgb\",\"components\":[0,0,0,1]}"
        }
        let held = revisions.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",")
        let body = Array(#"{"theme":"\#(theme)","status":"\#(status)","revisions":{\#(held)},"colors":{\#(members.joined(separator: ","))}}"#.utf8)
        return Response(status: .ok, headers: [.contentType: "application/json", .eTag: "\"\(body.hashValue)\""], body: body)
    }
}

extension ServerFixture {
    /// Stops answering: the service, its index and events stay, as in a process restarted.
    func stopServing() {
        server.shutdown(timeout: .seconds(1))
    }

    /// Listens again on the same port.
    func resumeServing() throws {
        var configuration = HTTPServer.Configuration()
        configuration.port = port
        let service = self.service
        let server = HTTPServer(configuration: configuration, headResponder: service) { service.answerRouted($0) }
        try server.start()
        restarted = server
    }
}
