@testable import Cluster
import Foundation
import Testing
import TestSupport

/// The webhooks' outbox in the store, as replicas share it: a change's message is kept once
/// whichever replica keeps it, each subscriber's turn is one connection's at a time and passes on
/// when that connection closes, and a subscriber is given messages in the order they were kept.
@Suite("the webhook outbox in the store", .needsPostgres)
struct WebhookOutboxTests {
    static let hook = "http://127.0.0.1:9/hook"

    @Test("a message kept by two replicas is one; a subscriber's turn is one connection's until it closes; messages come in the order kept")
    func sharedOutbox() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let (first, second) = (try ClusterStore(url: postgres.url), try ClusterStore(url: postgres.url))

        // A subscriber new to the store starts after what is kept already.
        try first.keepWebhook(id: "msg_1_theme-added", type: "release-published", data: #"{"theme":"old"}"#, keptAt: 1)
        #expect(try first.takeWebhookTurn(url: Self.hook))
        #expect(try first.webhookMessages(for: Self.hook, types: ["release-published"], limit: 10).isEmpty)

        // Both replicas keep the same changes, in the same order: each is kept once.
        for store in [first, second] {
            try store.keepWebhook(id: "msg_2_theme-reloaded", type: "release-published", data: #"{"theme":"dark","generation":2}"#, keptAt: 2)
            try store.keepWebhook(id: "msg_3_active-changed", type: "active-changed", data: #"{"theme":"dark"}"#, keptAt: 3)
        }
        try second.keepWebhook(id: "msg_4_theme-reloaded", type: "release-published", data: #"{"theme":"light","generation":4}"#, keptAt: 4)
        let kept = try first.webhookMessages(for: Self.hook, types: ["release-published", "active-changed"], limit: 10)
        #expect(kept.map(\.id) == ["msg_2_theme-reloaded", "msg_3_active-changed", "msg_4_theme-reloaded"])
        #expect(kept.map(\.keptAt) == [2, 3, 4] && kept.first?.data == #"{"theme":"dark","generation":2}"#)
        // Only the kinds asked for; the count waiting says the same.
        #expect(try first.webhookMessages(for: Self.hook, types: ["active-changed"], limit: 10).map(\.id) == ["msg_3_active-changed"])
        #expect(try second.webhooksWaiting(for: Self.hook, types: ["release-published", "active-changed"]) == 3)

        // The turn is the first connection's: the second cannot take it.
        #expect(try second.takeWebhookTurn(url: Self.hook) == false)
        #expect(try second.takeWebhookTurn(url: "http://127.0.0.1:9/other"), "another subscriber's turn is free")

        // The body is made once: a second seal gets the first's bytes.
        #expect(try first.sealWebhook(sequence: kept[0].sequence, body: "one") == "one")
        #expect(try second.sealWebhook(sequence: kept[0].sequence, body: "two") == "one")

        // Given: the next read starts after it. Given up on: listed, and the next read after it too.
        try first.webhookDone(sequence: kept[0].sequence, url: Self.hook, failure: nil)
        let failure: ClusterStore.WebhookFailure = (kept[1].id, kept[1].type, Self.hook, 5, "answered 500", 0)
        try first.webhookDone(sequence: kept[1].sequence, url: Self.hook, failure: failure)
        #expect(try first.webhookMessages(for: Self.hook, types: ["release-published", "active-changed"], limit: 10).map(\.id) == ["msg_4_theme-reloaded"])
        let failures = try second.webhookFailures(limit: 10)
        #expect(failures.map(\.id) == ["msg_3_active-changed"] && failures.first?.error == "answered 500" && failures.first?.attempts == 5)
        #expect(try second.webhooksWaiting(for: Self.hook, types: ["release-published", "active-changed"]) == 1)

        // The first connection closes (its replica stopped): the second takes the turn and goes
        // on from where the first left off.
        try second.terminate(backend: first.backendPID)
        #expect(try waitUntil(10) { try second.takeWebhookTurn(url: Self.hook) })
        #expect(try second.webhookMessages(for: Self.hook, types: ["release-published"], limit: 10).map(\.id) == ["msg_4_theme-reloaded"])
    }

    @Test("a text[] parameter keeps a comma, a quote or a backslash inside its value: the store reads back what was sent")
    func arrayLiteral() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let connection = try PostgresConnection(url: postgres.url)
        let values = ["a", #"b"c"#, #"d\e"#, "f,g", "h i"]
        let read = try connection.execute("SELECT unnest($1::text[])", [.textArray(values)]).values.compactMap { $0.first ?? nil }
        #expect(read == values)
    }
}
