import Foundation
import Testing
import TestSupport

/// Four-eyes approval on a real PostgreSQL and a real replica: a release posted as a draft is
/// reviewed (its diff stored with it), approved by someone other than its publisher, and only then
/// served; a theme's policy makes every publish a draft; posting the content again voids the
/// approvals; a theme that moved on since is refused.
@Suite("drafts and approvals", .serialized, .needsPostgres, .needsPython(["standardwebhooks"]))
struct DraftTests {
    typealias Replica = ReplicaTests.Replica

    static func approve(_ id: Int, on replica: Replica, token: String) throws -> HTTP.Answer {
        try HTTP.request("POST", "/drafts/\(id)/approve", port: replica.port, headers: ["Authorization": "Bearer \(token)"], body: [])
    }

    static func primary(_ replica: Replica) -> String? {
        TeamReleaseTests.json(replica.get("/themes/light/colors/primary"))["hex"] as? String
    }

    @Test("a draft is reviewed, approved by another and then served; a policy makes every publish a draft; a repost voids approvals; a theme moved on is refused")
    func fourEyes() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-drafts-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let alice = try TeamReleaseTests.token(postgres, ["--name", "alice", "--can", "publish,review"])
        let bob = try TeamReleaseTests.token(postgres, ["--name", "bob", "--can", "review"])
        let carol = try TeamReleaseTests.token(postgres, ["--name", "carol", "--can", "review"])
        let mallory = try TeamReleaseTests.token(postgres, ["--name", "mallory", "--can", "publish"])
        let auditor = try TeamReleaseTests.token(postgres, ["--name", "auditor", "--can", "activate"])
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let port = Loopback.freePort()
        let receiver = try WebhookReceiver(port: port, secret: ReplicaWebhookTests.secret, out: folder + "/received.jsonl")
        let webhooks = #""webhooks": [{"url": "http://127.0.0.1:\#(port)/hook", "secret": "\#(ReplicaWebhookTests.secret)", "events": ["draft-created", "draft-approved"]}]"#
        let replica = try Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/replica", settings: webhooks)
        #expect(waitUntil { replica.themeNames() == ["light"] })
        let before = Self.primary(replica)
        let darkTar = try TeamReleaseTests.archive("\(ReplicaTests.sampleThemes)/dark")

        // Posted as a draft: 202, its diff against what is live stored with it, nothing served.
        let posted = try TeamReleaseTests.post("/themes/light/releases?draft=1", on: replica, token: alice, body: darkTar)
        #expect(posted.status == 202, "\(posted.text)")
        let draft = TeamReleaseTests.json(posted)
        let id = try #require(draft["id"] as? Int)
        #expect(draft["state"] as? String == "open" && draft["publisher"] as? String == "alice" && draft["required"] as? Int == 1)
        let changed = ((draft["review"] as? [String: Any])?["changed"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(changed.contains("primary"), "the review lists the colours it changes: \(draft["review"] ?? "none")")
        #expect(Self.primary(replica) == before, "a draft serves nothing")
        let listed = TeamReleaseTests.json(replica.get("/themes/light/drafts"))["drafts"] as? [[String: Any]]
        #expect(listed?.compactMap { $0["id"] as? Int } == [id])
        #expect(TeamReleaseTests.json(replica.get("/drafts/\(id)"))["digest"] as? String == draft["digest"] as? String)
        // A path whose id is not a draft's (not a positive number) names nothing.
        for notAnID in ["abc", "0", "-3", "99999999999999999999"] {
            let answer = try HTTP.request("GET", "/drafts/\(notAnID)", port: replica.port)
            #expect(answer.status == 404 && answer.text.contains("no draft \(notAnID)"), "\(answer.status) \(answer.text)")
        }

        // Not by its publisher, not without review, not without a token.
        #expect(try Self.approve(id, on: replica, token: alice).status == 403)
        #expect(try Self.approve(id, on: replica, token: mallory).status == 403)
        #expect(try HTTP.request("POST", "/drafts/\(id)/approve", port: replica.port, body: []).status == 401)
        #expect(try Self.approve(999_999, on: replica, token: bob).status == 404)

        // Bob's approval is the one needed: published, served, its approver in the history.
        let approved = try Self.approve(id, on: replica, token: bob)
        #expect(approved.status == 201, "\(approved.text)")
        let release = TeamReleaseTests.json(approved)["release"] as? [String: Any]
        #expect(release?["publisher"] as? String == "alice" && release?["approvers"] as? [String] == ["bob"], "\(approved.text)")
        #expect(waitUntil { Self.primary(replica) != before }, "the approved release is served")
        #expect(try Self.approve(id, on: replica, token: carol).status == 409, "a published draft takes no more approvals")
        let history = TeamReleaseTests.json(replica.get("/themes/light/releases"))["releases"] as? [[String: Any]]
        #expect(history?.first?["approvers"] as? [String] == ["bob"])
        // Subscribers heard of the draft and of its approval (signed, verified by the receiver).
        let records = receiver.records(waitingUpTo: 30) { records in records.contains { $0["type"] as? String == "draft-approved" } }
        let created = records.first { $0["type"] as? String == "draft-created" }?["data"] as? [String: Any]
        let approval = records.first { $0["type"] as? String == "draft-approved" }?["data"] as? [String: Any]
        #expect(created?["id"] as? Int == id && approval?["approver"] as? String == "bob"
                && (approval?["draft"] as? [String: Any])?["state"] as? String == "published", "\(records)")
        #expect(records.allSatisfy { $0["verified"] as? Bool == true })

        // With a policy of two approvals every publish is a draft; posting its content again voids them.
        #expect(try ReplicaTests.run(["policy", "set", "--cluster", postgres.url, "light", "--require-approval", "2"]).status == 0)
        let lightTar = try TeamReleaseTests.archive("\(ReplicaTests.sampleThemes)/light")
        let held = try TeamReleaseTests.post("/themes/light/releases", on: replica, token: alice, body: lightTar)
        #expect(held.status == 202, "\(held.text)")
        let second = try #require(TeamReleaseTests.json(held)["id"] as? Int)
        #expect(TeamReleaseTests.json(try Self.approve(second, on: replica, token: bob))["approvers"] as? [String] == ["bob"])
        let reposted = try HTTP.request("PUT", "/drafts/\(second)", port: replica.port,
                                        headers: ["Authorization": "Bearer \(alice)", "Content-Type": "application/gzip"], body: lightTar)
        #expect(reposted.status == 200 && TeamReleaseTests.json(reposted)["approvers"] as? [String] == [], "\(reposted.text)")
        #expect(try Self.approve(second, on: replica, token: bob).status == 200)
        let published = try Self.approve(second, on: replica, token: carol)
        #expect(published.status == 201 && (TeamReleaseTests.json(published)["release"] as? [String: Any])?["approvers"] as? [String] == ["bob", "carol"],
                "\(published.text)")
        #expect(waitUntil { Self.primary(replica) == before }, "the second release is served")

        // A draft whose theme moved on since it was posted: refused, naming the release that moved it.
        let stale = try #require(TeamReleaseTests.json(try TeamReleaseTests.post("/themes/light/releases", on: replica, token: alice, body: darkTar))["id"] as? Int)
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/dark"]).status == 0)
        let newest = (TeamReleaseTests.json(replica.get("/themes/light/releases"))["releases"] as? [[String: Any]])?.first?["generation"] as? Int ?? 0
        #expect(try Self.approve(stale, on: replica, token: bob).status == 200)
        let refused = try Self.approve(stale, on: replica, token: carol)
        #expect(refused.status == 409 && refused.text.contains("release \(newest) has moved it on"), "\(refused.text)")

        // The audit trail names who drafted, approved and published.
        let audit = TeamReleaseTests.json(try HTTP.get("/audit?theme=light", port: replica.port, headers: ["Authorization": "Bearer \(auditor)"]))["entries"] as? [[String: Any]] ?? []
        let actions = audit.compactMap { entry in (entry["action"] as? String).map { "\($0) \(entry["actor"] as? String ?? "")" } }
        #expect(actions.contains("draft alice") && actions.contains("approve bob") && actions.contains("approve carol") && actions.contains("publish alice"), "\(actions)")
    }
}
