import Audiences
@testable import Cluster
import Foundation
import JSON
import Testing
import TestSupport

/// A deploy without a refetch storm (issue 47): a replica that starts on a cluster store has the
/// store's recent changes in its event history, so a stream that moves to it from a replica that
/// stopped resumes by Last-Event-ID instead of being told to resync.
@Suite("event history from the store", .serialized, .needsPostgres)
struct EventReplayTests {
    typealias Replica = ReplicaTests.Replica

    @Test("a stream from before a replica started is replayed what it missed there, filtered by ?theme=; only an id older than the history resyncs")
    func replayAfterRestart() throws {
        let cluster = try ClusterFixture()
        defer { cluster.remove() }
        let (postgres, first) = (cluster.postgres, cluster.replica)
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        #expect(waitUntil { first.themeNames() == ["light"] })

        // A client on the first replica knows where it is...
        // (An opening ends with the stream's position: an id line with no event.) The theme shows
        // in /themes a moment before its event is numbered: a stream opened in between starts at
        // g-0, before the store's first change, which no history replays. So the position is read
        // once the replica has numbered the release (g-1).
        let positionLine = #"id: g-[0-9]+\n\n"#
        var position = ""
        #expect(waitUntil {
            guard let stream = try? HTTP.Stream("/events", port: first.port), stream.read(untilMatching: positionLine) else { return false }
            position = stream.text.split(separator: "\n").last { $0.hasPrefix("id: g-") }.map { String($0.dropFirst(4)) } ?? ""
            return position != "" && position != "g-0"
        }, "the first replica numbered the release: \(position)")

        // ...then changes happen while it is away (its replica is stopped for a deploy).
        first.process.terminate()
        first.process.waitUntilExit()
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "dark", "\(ReplicaTests.sampleThemes)/dark"]).status == 0)
        let store = try ClusterStore(url: postgres.url)
        let switched = try store.setActive("dark")
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/dark"]).status == 0)

        // A replica started after all of it, keeping three changes. It waits for its first sync
        // up to unreachableSeconds; the history is loaded from what that sync read.
        let started = try Replica(cluster: postgres.url, unreachableSeconds: 30, folder: "\(cluster.folder)/started", settings: #""eventHistory": 3"#)
        let resumed = try HTTP.Stream("/events", port: started.port, headers: ["Last-Event-ID": position])
        #expect(resumed.read(untilMatching: positionLine))
        let blocks = resumed.text.components(separatedBy: "\n\n").filter { $0.contains("event: ") }
        #expect(blocks.map { $0.split(separator: "\n").first { $0.hasPrefix("event: ") } ?? "" } == ["event: theme-added", "event: active-changed", "event: theme-reloaded"],
                "\(resumed.text)")
        #expect(blocks[safe: 0]?.contains(#""theme":"dark""#) == true && blocks[safe: 1]?.contains("id: g-\(switched)\n") == true, "\(resumed.text)")
        #expect(!resumed.text.contains("resync"))
        #expect(blocks[safe: 0]?.range(of: #""revision":"[0-9a-f]{32}""#, options: .regularExpression) != nil,
                "a replayed change names what the replica serves of the theme: \(resumed.text)")

        // A tenant's stream gets its theme's changes and every switch.
        let tenant = try HTTP.Stream("/events?theme=light", port: started.port, headers: ["Last-Event-ID": position])
        #expect(tenant.read(untilMatching: positionLine))
        #expect(tenant.text.contains("event: theme-reloaded"))
        #expect(!tenant.text.contains("event: theme-added") && tenant.text.contains("event: active-changed"), "\(tenant.text)")

        // Older than the three changes kept: the client cannot catch up event by event.
        let number = try #require(Int(position.dropFirst(2)))
        let stale = try HTTP.Stream("/events", port: started.port, headers: ["Last-Event-ID": "g-\(number - 1)"])
        #expect(stale.read(until: "event: resync"), "\(stale.text)")
    }
}

extension EventReplayTests {
    @Test("an alias changed and a rollout moved while a stream was away are replayed as assignment-changed, naming the aliases concerned")
    func replayAssignments() throws {
        let cluster = try ClusterFixture()
        defer { cluster.remove() }
        let (postgres, first) = (cluster.postgres, cluster.replica)
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        #expect(waitUntil { first.themeNames() == ["light"] })
        let stream = try HTTP.Stream("/events", port: first.port)
        #expect(stream.read(untilMatching: #"id: g-[0-9]+\n\n"#))
        let position = try #require(stream.text.split(separator: "\n").last { $0.hasPrefix("id: g-") }.map { String($0.dropFirst(4)) })
        first.process.terminate()
        first.process.waitUntilExit()

        let store = try ClusterStore(url: postgres.url)
        let production = try store.putAlias(try Alias(name: "production", json: JSONParser.parse(Array(#"{"theme": "light"}"#.utf8))), by: "ops")
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "--rollout", "10", "light", "\(ReplicaTests.sampleThemes)/dark"]).status == 0)
        let rolled = try #require(try store.latestRelease(of: "light")).generation
        let widened = try store.setRollout(theme: "light", generation: rolled, percent: 50, by: "ops").generation
        let history = try store.history(through: widened, limit: 10).changes
        #expect(history.suffix(3).map(\.kind) == [.assignment(alias: "production"), .reloaded, .assignment(alias: nil)])

        let started = try Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(cluster.folder)/started")
        let resumed = try HTTP.Stream("/events", port: started.port, headers: ["Last-Event-ID": position])
        #expect(resumed.read(until: "id: g-\(widened)\n"), "\(resumed.text)")
        let blocks = resumed.text.components(separatedBy: "\n\n").filter { $0.contains("event: assignment-changed") }
        #expect(blocks.count == 2 && blocks.allSatisfy { $0.contains(#""alias":"production""#) }, "\(resumed.text)")
        #expect(blocks.first?.contains("id: g-\(production)\n") == true && !resumed.text.contains("resync"), "\(resumed.text)")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
