import Foundation
import Testing
import TestSupport

/// Two replicas of one cluster store, each told of every change: each change's webhook message
/// is posted once (the replica that claims it in the store first), verified by a real receiver.
@Suite("webhooks from replicas", .serialized, .needsPostgres, .needsPython(["standardwebhooks"]))
struct ReplicaWebhookTests {
    static let secret = "whsec_" + Data((0..<32).map { UInt8(($0 * 29 + 5) & 255) }).base64EncodedString()

    @Test("a release (with its diff against the one before), a switch and a rollout are posted once across two replicas, with the store's generation in the webhook-id")
    func oncePerChange() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-webhook-replicas-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let port = Loopback.freePort()
        let receiver = try WebhookReceiver(port: port, secret: Self.secret, out: folder + "/received.jsonl")
        let webhooks = #""webhooks": [{"url": "http://127.0.0.1:\#(port)/hook", "secret": "\#(Self.secret)", "events": ["release-published", "active-changed", "rollout-changed"]}]"#

        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        let replicas = try (1...2).map {
            try ReplicaTests.Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/replica\($0)", settings: webhooks)
        }
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "dark", "\(ReplicaTests.sampleThemes)/dark"]).status == 0)
        // Every replica serves the release before the switch (as ReplicaTests waits for it).
        #expect(waitUntil(10) { replicas.allSatisfy { $0.themeNames() == ["dark", "light"] } })
        // Seen here and not understood yet (with or without webhooks): in the first seconds after
        // the replicas start, a PUT's connection to a replica can be refused while GETs to the
        // same port are answered. Asked again until it is taken (noted on issue 56).
        // A switch to the theme that is not active now (with none set, `current` is the first by name).
        let active = replicas[0].get("/active").flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] }?["theme"] as? String
        let target = active == "dark" ? "light" : "dark"
        var switched: HTTP.Answer?
        _ = waitUntil(20) {
            switched = try? HTTP.request("PUT", "/active", port: replicas[0].port, headers: ReplicaTests.asOperator, body: Array(#"{"theme":"\#(target)"}"#.utf8))
            return switched != nil
        }
        #expect(switched?.status == 200, "\(switched?.text ?? "refused")")

        // Generous. Full runs once saw the switch's message still missing after 60 s (alone it
        // takes 3): each new store connection ran the schema's ALTER TABLE, which waits behind
        // every open transaction and holds up every reader after it. ClusterStore now runs it
        // only on a store whose schema is not current (ClusterTests.connectingToALiveStore).
        let records = receiver.records(waitingUpTo: 60) { WebhookReceiver.delivered($0, "release-published", theme: "dark") && WebhookReceiver.delivered($0, "active-changed", theme: target) }
        #expect(WebhookReceiver.delivered(records, "release-published", theme: "dark") && WebhookReceiver.delivered(records, "active-changed", theme: target),
                "\(records)")
        // A second release of dark: its message carries its diff against the first.
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "dark", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        let diffed = receiver.records(waitingUpTo: 60) { records in records.contains { ($0["data"] as? [String: Any])?["diff"] != nil } }
        let diff = diffed.compactMap { ($0["data"] as? [String: Any])?["diff"] as? [String: Any] }.first
        let changedColours = ((diff?["summary"] as? [String: Any])?["colors"] as? [String: Any])?["changed"] as? Int ?? 0
        #expect(changedColours > 0 && (diff?["changes"] as? [String])?.first?.hasPrefix("changed: ") == true, "\(diffed)")
        #expect(diff?["to"] as? Int ?? 0 > diff?["from"] as? Int ?? 0)

        // A release published into a rollout: its rollout-changed message, with the share.
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "--rollout", "10", "light", "\(ReplicaTests.sampleThemes)/dark"]).status == 0)
        let rolled = receiver.records(waitingUpTo: 60) { records in
            records.contains { $0["type"] as? String == "rollout-changed" && (($0["data"] as? [String: Any])?["rollout"] as? [String: Any])?["percent"] as? Double == 10 }
        }
        #expect(rolled.contains { $0["type"] as? String == "rollout-changed" && ($0["data"] as? [String: Any])?["theme"] as? String == "light" }, "\(rolled) \(replicas[0].get("/rollouts")?.text ?? "")")

        // Both replicas heard of every change: once the store's outbox is empty, every message
        // was posted and answered, and a second copy of any would have been posted before.
        #expect(waitUntil(30) { Self.pending(on: replicas[0]) == 0 }, "the outbox empties")
        let all = receiver.records(waitingUpTo: 0) { _ in true }
        let ids = all.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count, "each message once: \(ids)")
        #expect(all.allSatisfy { $0["verified"] as? Bool == true }, "\(all)")
        #expect(ids.allSatisfy { $0.range(of: #"^msg_[0-9]+_"#, options: .regularExpression) != nil }, "ids carry the store's generation: \(ids)")
    }

    /// Killed, or stopped as systemd stops it (SIGTERM: its shutdown ends the wait between tries
    /// and the post under way, and leaves the messages in the store's outbox).
    @Test("messages kept by a replica that stops before posting them reach the subscriber from another replica, each once, in store order",
          arguments: [SIGKILL, SIGTERM])
    func outliveTheReplica(stoppedBy signal: Int32) throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-webhook-outbox-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let port = Loopback.freePort()
        // A minute between tries: the first replica is still waiting to try again when it is killed.
        let webhooks = #""webhookRetrySeconds": 60, "webhooks": [{"url": "http://127.0.0.1:\#(port)/hook", "secret": "\#(Self.secret)", "events": ["release-published", "active-changed"]}]"#

        // The subscriber is down (503 to everything), on its port from the start: a port let go
        // could be taken by another test's server meanwhile.
        let receiver = try WebhookReceiver(port: port, secret: Self.secret, out: folder + "/received.jsonl")
        receiver.isDown = true
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        let first = try ReplicaTests.Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/first", settings: webhooks)
        // Three changes wait in the outbox.
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "dark", "\(ReplicaTests.sampleThemes)/dark"]).status == 0)
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "dark", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        let auth = ReplicaTests.asOperator.merging(["Content-Type": "application/json"]) { $1 }
        var switched: HTTP.Answer?
        _ = waitUntil(20) {
            switched = try? HTTP.request("PUT", "/active", port: first.port, headers: auth, body: Array(#"{"theme":"dark"}"#.utf8))
            return switched?.status == 200
        }
        #expect(switched?.status == 200, "\(switched?.text ?? "refused")")
        #expect(waitUntil(20) { Self.pending(on: first) ?? 0 >= 3 }, "the outbox holds the three changes")

        // A second replica waits for the subscriber's turn; the first is killed mid-wait (a minute
        // before its next try), and the subscriber comes back.
        let second = try ReplicaTests.Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/second", settings: webhooks)
        defer { withExtendedLifetime(second) {} }
        kill(first.process.processIdentifier, signal)
        if signal == SIGTERM {
            first.process.waitUntilExit()
            #expect(first.process.terminationReason == .exit && first.process.terminationStatus == 0, "a clean stop")
            #expect(Self.pending(on: second) ?? 0 >= 3, "the stop lost none of the outbox's messages")
        }
        receiver.isDown = false
        let records = receiver.records(waitingUpTo: 60) { records in
            records.count { $0["type"] as? String == "release-published" && ($0["data"] as? [String: Any])?["theme"] as? String == "dark" } >= 2
                && WebhookReceiver.delivered(records, "active-changed", theme: "dark")
        }
        #expect(waitUntil(30) { Self.pending(on: second) == 0 }, "the outbox empties")
        let all = receiver.records(waitingUpTo: 0) { _ in true }
        let ids = all.compactMap { $0["id"] as? String }
        #expect(records.count >= 3 && all.allSatisfy { $0["verified"] as? Bool == true }, "\(all)")
        #expect(Set(ids).count == ids.count, "each message once: \(ids)")
        // Store order: the generations in the webhook-ids never go back.
        let generations = ids.compactMap { $0.split(separator: "_").dropFirst().first.flatMap { Int($0) } }
        #expect(generations.count == ids.count && generations == generations.sorted(), "\(ids)")
    }

    /// The store's messages still waiting for a subscriber, as a replica lists them (the same on
    /// every replica); nil when it does not answer.
    static func pending(on replica: ReplicaTests.Replica) -> Int? {
        let deliveries = try? HTTP.get("/webhooks/deliveries", port: replica.port, headers: ReplicaTests.asOperator)
        return deliveries.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] }?["pending"] as? Int
    }
}
