import Foundation
import Testing
import TestSupport

/// A rollout and aliases on two `themed serve --cluster` replicas of one real PostgreSQL (issue
/// 44): every replica places a client alike, widening keeps everyone in, a halt brings everyone
/// back, and generation-pinned URLs answer each generation's content for good.
@Suite("rollouts across replicas", .serialized, .needsPostgres)
struct RolloutReplicaTests {
    typealias Replica = ReplicaTests.Replica

    /// The generation each client id is assigned on a replica (one keep-alive connection).
    static func assignments(_ ids: [String], alias: String, on replica: Replica, query: String = "") throws -> [String: Int] {
        let client = try TestClient(port: replica.port)
        var generations: [String: Int] = [:]
        for id in ids {
            let answer = try client.request("/assign/\(alias)?client=\(id)\(query)")
            guard answer.status == 200, let generation = answer.json["generation"] as? Int else {
                throw ReplicaTests.NotStarted(description: "/assign answered \(answer.status): \(answer.text)")
            }
            generations[id] = generation
        }
        return generations
    }

    /// A change by the operator (the replicas' `activeToken`).
    static func put(_ target: String, _ body: String, on replica: Replica) throws -> HTTP.Answer {
        try HTTP.request("PUT", target, port: replica.port, headers: ReplicaTests.asOperator, body: Array(body.utf8))
    }

    @Test("20,000 clients at 10%: 9-11% get the new release, the same on both replicas; widening keeps them; a halt brings everyone back; 100 makes it current; pinned URLs answer each generation")
    func rollout() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-rollout-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func publish(_ source: String, rollout: String? = nil) throws -> Int {
            let result = try ReplicaTests.run(["publish", "--cluster", postgres.url, "brand", "\(ReplicaTests.sampleThemes)/\(source)"]
                                              + (rollout.map { ["--rollout", $0] } ?? []))
            guard result.status == 0, let generation = result.output.split(separator: " ").dropFirst(3).first.flatMap({ Int($0) }) else {
                throw ReplicaTests.NotStarted(description: "publish: \(result.errors)")
            }
            return generation
        }
        let previous = try publish("light")
        let next = try publish("dark", rollout: "10")
        let replicas = try (1...2).map { try Replica(cluster: postgres.url, unreachableSeconds: 1, folder: "\(folder)/replica\($0)") }
        #expect(replicas.allSatisfy { $0.themeNames() == ["brand"] }, "a kept generation is served at its pinned URLs only, never listed")

        // Pinned URLs: each generation's own content, immutable, the same on both replicas.
        let plain = replicas[0].get("/themes/brand/colors/primary")
        for replica in replicas {
            let old = replica.get("/themes/brand@\(previous)/colors/primary")
            let new = replica.get("/themes/brand@\(next)/colors/primary")
            #expect(old?.status == 200 && new?.status == 200)
            #expect(old?.headers["cache-control"] == "public, max-age=31536000, immutable")
            #expect(old?.body == plain?.body, "plain URLs serve the previous release during the rollout")
            #expect(new?.body != old?.body, "the rollout's release is the new content")
            #expect(replica.get("/themes/brand@\(next + 100)/colors/primary")?.status == 404)
        }

        let created = try Self.put("/aliases/production", #"{"theme": "brand"}"#, on: replicas[0])
        #expect(created.status == 200, "\(created.text)")
        let stream = try HTTP.Stream("/events", port: replicas[1].port)
        #expect(stream.read(until: "retry: 1000\n\n"))

        let ids = (0..<20_000).map { "client-\($0)" }
        let first = try Self.assignments(ids, alias: "production", on: replicas[0])
        let second = try Self.assignments(ids, alias: "production", on: replicas[1])
        #expect(first == second, "every replica places a client alike")
        let inside = Set(first.filter { $0.value == next }.keys)
        #expect((1_800...2_200).contains(inside.count), "\(inside.count) of 20,000 at 10%")
        #expect(first.values.allSatisfy { $0 == next || $0 == previous })

        let widened = try Self.put("/themes/brand/rollout", #"{"generation": \#(next), "percent": 25}"#, on: replicas[0])
        #expect(widened.status == 200, "\(widened.text)")
        #expect(stream.read(until: "event: assignment-changed"), "open streams are told to ask again")
        // The first 4,000 ids, read on the other replica once it follows the change.
        let early = Array(ids.prefix(4_000))
        var wider: [String: Int] = [:]
        #expect(waitUntil {
            wider = (try? Self.assignments(early, alias: "production", on: replicas[1])) ?? [:]
            return wider.values.filter { $0 == next }.count > 800
        }, "the other replica follows the change")
        let keptIn = early.filter(inside.contains)
        #expect(!keptIn.isEmpty && keptIn.allSatisfy { wider[$0] == next }, "widening keeps everyone who was in")

        // The history says which release is current for clients outside the rollout.
        let history = replicas[0].get("/themes/brand/releases").flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] }
        let releases = history?["releases"] as? [[String: Any]] ?? []
        #expect(releases.first { $0["current"] as? Bool == true }?["generation"] as? Int == previous, "\(releases)")
        #expect(releases.first { $0["generation"] as? Int == next }?["rollout"] as? Double == 25, "\(releases)")

        let halted = try Self.put("/themes/brand/rollout", #"{"generation": \#(next), "percent": 0}"#, on: replicas[0])
        #expect(halted.status == 200, "\(halted.text)")
        let sample = Array(inside.prefix(200))
        let start = ContinuousClock.now
        #expect(waitUntil {
            replicas.allSatisfy { replica in ((try? Self.assignments(sample, alias: "production", on: replica)) ?? [:]).values.allSatisfy { $0 == previous } }
        }, "a halt brings everyone back")
        #expect(ContinuousClock.now - start < .seconds(1), "within a second: \(ContinuousClock.now - start)")

        let completed = try Self.put("/themes/brand/rollout", #"{"generation": \#(next), "percent": 100}"#, on: replicas[0])
        #expect(completed.status == 200 && completed.text.contains("\"current\":true"), "\(completed.text)")
        #expect(waitUntil { replicas.allSatisfy { $0.get("/themes/brand/colors/primary")?.body == $0.get("/themes/brand@\(next)/colors/primary")?.body } })
        for replica in replicas {
            #expect(replica.get("/themes/brand@\(next)/colors/primary")?.status == 200, "the new current generation keeps its pinned URL")
            #expect(try Self.assignments(["anyone"], alias: "production", on: replica)["anyone"] == next)
        }
    }

    @Test("an alias's rules by platform, version range, locale and attribute answer alike on both replicas; a token without rollout may not change them")
    func rules() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-rules-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for theme in ["light", "dark"] {
            #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, theme, "\(ReplicaTests.sampleThemes)/\(theme)"]).status == 0)
        }
        let publisher = try ReplicaTests.run(["token", "create", "--cluster", postgres.url, "--name", "publisher", "--can", "publish"])
        let secret = publisher.output.split(separator: "\n").first { $0.hasPrefix("themed_") }.map(String.init) ?? ""
        let replicas = try (1...2).map { try Replica(cluster: postgres.url, unreachableSeconds: 1, folder: "\(folder)/replica\($0)") }

        let document = #"{"theme": "light", "rules": [{"when": {"platform": ["ios"], "appVersion": ">=5.2", "locale": ["fr", "fr-*"], "attributes": {"tier": ["beta"]}}, "theme": "dark"}]}"#
        let refused = try HTTP.request("PUT", "/aliases/app", port: replicas[0].port, headers: ["Authorization": "Bearer \(secret)"], body: Array(document.utf8))
        #expect(refused.status == 403, "a token that may only publish: \(refused.text)")
        // With a cluster store loopback is not the operator: no change is made without a token,
        // and none through a proxy on this host that is not trusted either.
        for (method, target, body) in [("PUT", "/aliases/app", document), ("DELETE", "/aliases/app", ""),
                                       ("PUT", "/themes/light/rollout", #"{"generation": 1, "percent": 10}"#), ("PUT", "/active", #"{"theme": "dark"}"#)] {
            let anonymous = try HTTP.request(method, target, port: replicas[0].port, body: Array(body.utf8))
            #expect(anonymous.status == 401 && anonymous.text.contains("needs Authorization"), "\(method) \(target): \(anonymous.status) \(anonymous.text)")
        }
        #expect(try Self.put("/aliases/app", document, on: replicas[0]).status == 200)
        #expect(waitUntil { replicas[1].get("/aliases/app")?.status == 200 })

        let matching = "&platform=ios&appVersion=5.10&locale=fr-CA&tier=beta"
        for (query, theme) in [(matching, "dark"), ("&platform=ios&appVersion=5.1&locale=fr-CA&tier=beta", "light"),
                               ("&platform=android&appVersion=6&locale=fr&tier=beta", "light"), ("&platform=ios&appVersion=5.2&locale=de&tier=beta", "light"),
                               ("&platform=ios&appVersion=5.2&locale=fr&tier=ga", "light")] {
            for replica in replicas {
                let answer = try TestClient(port: replica.port).request("/assign/app?client=c1\(query)")
                #expect(answer.json["theme"] as? String == theme, "\(query): \(answer.text)")
            }
        }
        let bad = try Self.put("/aliases/app", #"{"theme": "light", "rules": [{"when": {"appVersion": ">=five"}, "theme": "dark"}]}"#, on: replicas[0])
        #expect(bad.status == 422 && bad.text.contains("rules[0].when.appVersion"), "\(bad.text)")
        #expect(try Self.put("/aliases/app", #"{"theme": "nowhere"}"#, on: replicas[0]).status == 404)
        let unkept = try Self.put("/aliases/app", #"{"theme": "light", "generation": 999999}"#, on: replicas[0])
        #expect(unkept.status == 422 && unkept.text.contains(#""code":"generation_not_kept""#), "as without a store: \(unkept.text)")
        #expect(try Self.put("/themes/light/rollout", #"{"generation": 1, "percent": 140}"#, on: replicas[0]).status == 422)
    }
}
