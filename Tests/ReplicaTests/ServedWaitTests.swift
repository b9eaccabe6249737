import Foundation
import Testing
import TestSupport

/// A change returns once every ready replica serves it and its purges went out: what an operator
/// reads from `themed publish`, `PUT /active` and the alias routes, with no race to lose.
@Suite("changes wait for every replica", .serialized, .needsPostgres)
struct ServedWaitTests {
    typealias Replica = ReplicaTests.Replica

    /// Three replicas on one store, each purging one recording cache, and `light` published.
    final class Cluster {
        let postgres: PostgresServer
        let folder = NSTemporaryDirectory() + "themed-served-\(UUID().uuidString.prefix(8))"
        let cache = RecordingCache()
        let replicas: [Replica]

        init() throws {
            let (postgres, folder, cache) = (try PostgresServer(), folder, cache)
            #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
            let replicas = try (1...3).map { number in
                try Replica(cluster: postgres.url, unreachableSeconds: 1, folder: "\(folder)/replica\(number)",
                            settings: #""purgeURLs": ["http://127.0.0.1:\#(cache.port)"]"#)
            }
            (self.postgres, self.replicas) = (postgres, replicas)
            // A replica is ready once the store lists it: a change waits for every ready one.
            let listed = try ReplicaTests.run(["replicas", "--cluster", postgres.url]).output
            #expect(replicas.allSatisfy { listed.contains(":\($0.port) ") }, "themed replicas lists every ready replica: \(listed)")
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        /// `themed publish --cluster` of one of the sample themes' folders as `theme`.
        func publish(_ theme: String, from sample: String, _ more: [String] = []) throws -> (status: Int32, output: String, errors: String) {
            try ReplicaTests.run(["publish", "--cluster", postgres.url] + more + [theme, "\(ReplicaTests.sampleThemes)/\(sample)"])
        }

        /// What each replica answers for `target` now: no waiting, that is the point.
        func answers(_ target: String) -> [String] {
            replicas.map { $0.get(target)?.text ?? "no answer" }
        }
    }

    @Test("themed publish returns when every replica serves the release and purged the cache; --no-wait at once")
    func publishWaits() throws {
        let cluster = try Cluster()
        let before = cluster.answers("/themes/light/colors/primary")
        #expect(Set(before).count == 1, "\(before)")
        let purgesBefore = cluster.cache.requests.withLock { $0.count }

        let published = try cluster.publish("light", from: "dark")
        #expect(published.status == 0, "\(published.errors)")
        #expect(published.output.contains("served by 3 replicas"), "\(published.output)")
        let after = cluster.answers("/themes/light/colors/primary")
        #expect(Set(after).count == 1 && after != before, "every replica answers the new colour as the command returns: \(after)")
        let purges = cluster.cache.requests.withLock { Array($0.dropFirst(purgesBefore)) }
        #expect(purges.filter { $0.contains("xkey-purge: theme:light") }.count >= 3, "each replica's purge went out before it said it serves: \(purges)")

        let quick = try cluster.publish("light", from: "light", ["--no-wait"])
        #expect(quick.status == 0 && !quick.output.contains("served by"), "\(quick.output)")
        let outOfRange = try cluster.publish("light", from: "light", ["--wait", "500"])
        #expect(outOfRange.status == 2 && outOfRange.errors.contains("--wait is 0 to 120"), "\(outOfRange.errors)")
    }

    @Test("a hung replica is named with what it serves (exit 3, the release stored); a killed one stops counting at once")
    func laggingReplicas() throws {
        let cluster = try Cluster()
        let hung = cluster.replicas[2]
        kill(hung.process.processIdentifier, SIGSTOP)
        let published = try cluster.publish("dark", from: "dark", ["--wait", "1"])
        let alias = try HTTP.request("PUT", "/aliases/app?wait=1", port: cluster.replicas[0].port, headers: ReplicaTests.asOperator,
                                     body: Array(#"{"theme": "light"}"#.utf8))
        kill(hung.process.processIdentifier, SIGCONT)
        let aliasAnswer = try JSONSerialization.jsonObject(with: Data(alias.body)) as? [String: Any]
        let aliasLagging = (aliasAnswer?["replicas"] as? [String: Any])?["lagging"] as? [[String: Any]]
        #expect(alias.status == 202 && aliasAnswer?["name"] as? String == "app", "an alias's answer is the alias, 202 while a replica lags: \(alias.text)")
        #expect(aliasLagging?.compactMap { $0["name"] as? String }.contains { $0.hasSuffix(":\(hung.port)") } == true, "\(alias.text)")
        #expect(published.status == 3, "\(published.output) \(published.errors)")
        #expect(published.errors.contains(":\(hung.port) (serves generation 1)") && published.errors.contains("generation 2 is stored"),
                "\(published.errors)")
        #expect(waitUntil { hung.themeNames() == ["dark", "light"] }, "the release is stored: the hung replica serves it once it runs again")

        let killed = cluster.replicas[1].process
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        let afterKill = try cluster.publish("light", from: "dark")
        #expect(afterKill.status == 0 && afterKill.output.contains("served by 2 replicas"), "\(afterKill.output) \(afterKill.errors)")
    }

    @Test("themed retire returns once no replica serves the theme and each purged it; a hung replica is named (exit 3)")
    func retireWaits() throws {
        let cluster = try Cluster()
        #expect(try cluster.publish("dark", from: "dark").status == 0)
        #expect(try cluster.publish("plain", from: "light").status == 0)
        let purgesBefore = cluster.cache.requests.withLock { $0.count }

        let retired = try ReplicaTests.run(["retire", "--cluster", cluster.postgres.url, "dark"])
        #expect(retired.status == 0 && retired.output.contains("served by 3 replicas"), "\(retired.output) \(retired.errors)")
        #expect(cluster.answers("/themes/dark/colors/primary").allSatisfy { $0.contains("not_found") },
                "no replica serves it as the command returns: \(cluster.answers("/themes/dark/colors/primary"))")
        let purges = cluster.cache.requests.withLock { Array($0.dropFirst(purgesBefore)) }
        #expect(purges.filter { $0.contains("xkey-purge: theme:dark") }.count >= 3, "each replica's purge went out before it said so: \(purges)")

        let hung = cluster.replicas[2]
        kill(hung.process.processIdentifier, SIGSTOP)
        let lagging = try ReplicaTests.run(["retire", "--cluster", cluster.postgres.url, "--wait", "1", "plain"])
        kill(hung.process.processIdentifier, SIGCONT)
        #expect(lagging.status == 3 && lagging.errors.contains(":\(hung.port) (serves generation") && lagging.errors.contains("is stored"),
                "\(lagging.output) \(lagging.errors)")
        #expect(waitUntil { hung.themeNames() == ["light"] }, "the retirement is stored: the hung replica applies it once it runs again")
        let quick = try ReplicaTests.run(["retire", "--cluster", cluster.postgres.url, "--no-wait", "light"])
        #expect(quick.status == 0 && !quick.output.contains("served by"), "\(quick.output)")
    }

    @Test("a replica counts from the moment it is ready: an alias made on another at once is known to it when the answer comes")
    func readyMeansCounted() throws {
        let cluster = try Cluster()
        for round in 1...3 {
            let joining = try Replica(cluster: cluster.postgres.url, unreachableSeconds: 1, folder: "\(cluster.folder)/joining\(round)")
            let alias = try HTTP.request("PUT", "/aliases/round\(round)", port: cluster.replicas[0].port, headers: ReplicaTests.asOperator,
                                         body: Array(#"{"theme": "light"}"#.utf8))
            #expect(alias.status == 200, "\(alias.text)")
            #expect(joining.get("/assign/round\(round)?client=someone")?.status == 200, "round \(round)")
            kill(joining.process.processIdentifier, SIGTERM)
            joining.process.waitUntilExit()
        }
    }

    @Test("PUT /active and an alias's change answer once every replica serves them, naming them; wait=0 and bad waits")
    func switchesWait() throws {
        let cluster = try Cluster()
        #expect(try cluster.publish("dark", from: "dark").status == 0)
        let switched = try HTTP.request("PUT", "/active", port: cluster.replicas[0].port, headers: ReplicaTests.asOperator,
                                        body: Array(#"{"theme":"dark"}"#.utf8))
        #expect(switched.status == 200, "\(switched.text)")
        let answer = try JSONSerialization.jsonObject(with: Data(switched.body)) as? [String: Any]
        let replicas = answer?["replicas"] as? [String: Any]
        #expect((replicas?["serving"] as? [String])?.count == 3 && (replicas?["lagging"] as? [Any])?.isEmpty == true, "\(switched.text)")
        #expect(cluster.answers("/active").allSatisfy { $0.contains(#""dark""#) }, "\(cluster.answers("/active"))")

        let alias = try HTTP.request("PUT", "/aliases/app", port: cluster.replicas[1].port, headers: ReplicaTests.asOperator,
                                     body: Array(#"{"theme": "light"}"#.utf8))
        #expect(alias.status == 200, "\(alias.text)")
        let aliasReplicas = (try JSONSerialization.jsonObject(with: Data(alias.body)) as? [String: Any])?["replicas"] as? [String: Any]
        #expect((aliasReplicas?["serving"] as? [String])?.count == 3, "an alias's answer names the replicas that serve it: \(alias.text)")
        #expect(cluster.replicas.allSatisfy { $0.get("/aliases/app")?.status == 200 }, "every replica knows the alias as the answer comes")

        let unwaited = try HTTP.request("PUT", "/active?wait=0", port: cluster.replicas[0].port, headers: ReplicaTests.asOperator,
                                        body: Array(#"{"theme":"light"}"#.utf8))
        #expect(unwaited.status == 200 && !unwaited.text.contains("replicas"), "\(unwaited.text)")
        let bad = try HTTP.request("PUT", "/active?wait=soon", port: cluster.replicas[0].port, headers: ReplicaTests.asOperator,
                                   body: Array(#"{"theme":"dark"}"#.utf8))
        #expect(bad.status == 400 && bad.text.contains("wait is the seconds"), "\(bad.text)")
    }
}
