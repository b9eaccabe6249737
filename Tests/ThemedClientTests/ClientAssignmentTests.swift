import Foundation
import Testing
import ServiceSupport
import TestSupport
@testable import ThemedClient

/// An app that follows an alias: it asks which theme and generation it reads, reads them at the
/// pinned base, and follows the assignment when the alias changes.
@Suite("ThemedClient following an alias", .serialized)
struct ClientAssignmentTests {
    let scratch = ScratchFolder("client")

    static func putAlias(_ server: ServerFixture, _ body: String) throws {
        #expect(try server.client().request("/aliases/acme", method: "PUT", body: body).status == 200)
    }

    @Test("the client reads its assigned theme at the pinned base, keeps its id, and moves when the alias changes")
    func followsAlias() async throws {
        let server = try ServerFixture()
        try Self.putAlias(server, #"{"theme": "light", "rules": [{"when": {"attributes": {"tier": ["beta"]}}, "theme": "dark"}]}"#)
        let cache = URL(fileURLWithPath: scratch.path())
        let client = ThemedClient(server: ThemedClientTests.base(server.port), cacheDirectory: cache,
                                  settings: .init(minimumReconnectDelay: .milliseconds(20), maximumReconnectDelay: .milliseconds(100)))
        let updates = UpdateLog(client)
        let assignment = try await client.follow(alias: "acme", platform: "ios", appVersion: "5.3.1", attributes: ["tier": "beta"])
        let dark = try #require(server.service.library.theme(named: "dark")?.generation)
        #expect(assignment.theme == "dark" && assignment.base == "/themes/dark@\(dark)" && client.theme == "dark@\(dark)")
        let darkPrimary = try #require(client.palette?.colors["primary"]?.hex)
        #expect(ThemedClient(server: client.server, cacheDirectory: cache).clientID == client.clientID, "the id is made once and kept")

        let following = client.follow()
        defer { following.cancel() }
        try await ThemedClientTests.waitForSubscriber(server)
        try await ThemedClientTests.waitForPaletteRequests(server, 2)
        try Self.putAlias(server, #"{"theme": "light"}"#)
        // Waited for as long as a loaded machine may take (the whole suite runs beside the corpus
        // tests: in CI this test takes 100-120 s in all, and 30 s for this step was once too few).
        let moved = await updates.next(timeout: 90) { $0.reason == .event("assignment-changed") }
        #expect(moved != nil && client.assignment?.theme == "light", "\(String(describing: client.assignment))")
        #expect(moved?.palette.colors["primary"]?.hex != darkPrimary, "the light theme's palette")
    }

    @Test("a pinned generation no longer served: the client asks again and reads the new one")
    func generationGone() async throws {
        let server = try ServerFixture()
        try Self.putAlias(server, #"{"theme": "light"}"#)
        let client = ThemedClient(server: ThemedClientTests.base(server.port))
        let first = try await client.follow(alias: "acme")
        server.fixtures.colorSet("themes/light", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        try server.service.reload()
        let palette = await client.refresh()
        #expect(client.assignment?.generation == first.generation + 1, "\(String(describing: client.assignment))")
        #expect(palette?.colors["accent"] != nil)
    }

    @Test("a pinned URL that stays a 404 after asking again is an error, not a loop")
    func stillGone() async throws {
        let server = try ServerFixture()
        let generation = try #require(server.service.library.theme(named: "light")?.generation)
        // The alias pins the generation: once the theme moves on, asking again gives the same base.
        try Self.putAlias(server, #"{"theme": "light", "generation": \#(generation)}"#)
        let client = ThemedClient(server: ThemedClientTests.base(server.port))
        let good = try #require(try await client.follow(alias: "acme") == client.assignment ? client.palette : nil)
        server.fixtures.colorSet("themes/light", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        try server.service.reload()
        #expect(await client.refresh() == good, "the last good palette stays")
        guard case .status(404, _)? = client.lastError else { Issue.record("\(String(describing: client.lastError))"); return }
        #expect(client.theme == "light@\(generation)")
    }
}
