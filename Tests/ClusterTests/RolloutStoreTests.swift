import Audiences
@testable import Cluster
import Foundation
import JSON
import Testing
import TestSupport

/// Aliases and rollouts as the cluster store keeps them (issue 44): every change with a
/// generation of the one sequence, an audit line, checked against the releases kept, nothing
/// stored when refused.
@Suite("aliases and rollouts in the cluster store", .serialized, .needsPostgres)
struct RolloutStoreTests {
    static func publish(_ store: ClusterStore, _ theme: String, _ value: String, keep: Int = Release.defaultRetention, rollout: Double? = nil) throws -> Int64 {
        let files = ClusterTests.files(value)
        return try store.publish(theme: theme, paths: files.map(\.path), by: "team", keep: keep, rollout: rollout) { files[$0].bytes }
    }

    static func alias(_ name: String, _ json: String) throws -> Alias {
        try Alias(name: name, json: JSONParser.parse(Array(json.utf8)))
    }

    @Test("an alias is kept with its rules for every replica; one naming a theme without a release or a generation not kept is refused and nothing is stored")
    func aliases() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let first = try Self.publish(store, "brand", "one")
        let holiday = try Self.publish(store, "holiday", "two")

        let production = try Self.alias("production", #"{"theme": "brand", "generation": \#(first), "rules": [{"when": {"platform": "ios", "appVersion": ">=5.2"}, "theme": "holiday"}]}"#)
        let changed = try store.putAlias(production, by: "ops")
        #expect(changed > holiday, "a change takes the next generation of the one sequence")
        let kept = try store.audiences()
        #expect(kept.aliases["production"] == production && kept.generation == changed)
        #expect(kept.pinnedGenerations == [PinnedGeneration(theme: "brand", generation: first)])

        #expect(throws: ClusterError.noSuchTheme("nowhere")) { try store.putAlias(try Self.alias("staging", #"{"theme": "nowhere"}"#), by: "ops") }
        #expect(throws: ClusterError.generationNotKept("brand", 999)) {
            try store.putAlias(try Self.alias("staging", #"{"theme": "brand", "generation": 999}"#), by: "ops")
        }
        #expect(try store.audiences().aliases.keys.sorted() == ["production"], "refusals store nothing")

        let removed = try #require(try store.removeAlias("production", by: "ops"))
        let afterRemoval = try store.audiences()
        #expect(removed > changed && afterRemoval.aliases.isEmpty && afterRemoval.generation == removed)
        #expect(try store.removeAlias("production", by: "ops") == nil)
        let actions = try store.auditTrail(theme: nil, since: nil, limit: 10).map(\.action)
        #expect(actions.prefix(2) == ["alias-delete", "alias"])
    }

    @Test("a release published into a rollout goes to a share of clients and the one before stays current; raising keeps the seed; 100 ends it; 0 halts; a plain publish ends it")
    func rollouts() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let previous = try Self.publish(store, "brand", "one")
        let next = try Self.publish(store, "brand", "two", rollout: 10)
        var rollout = try #require(try store.audiences().rollouts["brand"])
        #expect(rollout.generation == Int(next) && rollout.previous == Int(previous) && rollout.percent == 10)
        #expect(try store.audiences().servedGeneration(of: "brand", latest: next) == previous, "plain requests stay on the previous release")

        let raised = try store.setRollout(theme: "brand", generation: next, percent: 25, by: "ops")
        #expect(raised.rollout?.percent == 25 && raised.rollout?.seed == rollout.seed && raised.rollout?.previous == previous)
        rollout = try #require(try store.audiences().rollouts["brand"])
        #expect(rollout.basisPoints == 2_500)

        #expect(throws: ClusterError.badRollout("a rollout sends brand's newest release, \(next), not \(previous)")) {
            try store.setRollout(theme: "brand", generation: previous, percent: 50, by: "ops")
        }
        #expect(throws: ClusterError.self) { try store.setRollout(theme: "brand", generation: next, percent: 101, by: "ops") }
        #expect(throws: ClusterError.noSuchTheme("nowhere")) { try store.setRollout(theme: "nowhere", generation: next, percent: 5, by: "ops") }
        #expect(try store.audiences().rollouts["brand"]?.basisPoints == 2_500, "refusals change nothing")

        let halted = try store.setRollout(theme: "brand", generation: next, percent: 0, by: "ops")
        #expect(halted.rollout?.basisPoints == 0 && halted.rollout?.includes("anyone") == false)
        let done = try store.setRollout(theme: "brand", generation: next, percent: 100, by: "ops")
        let completed = try store.audiences()
        #expect(done.rollout == nil && completed.rollouts.isEmpty)
        #expect(try store.audiences().servedGeneration(of: "brand", latest: next) == next)

        let third = try Self.publish(store, "brand", "three", rollout: 5)
        #expect(try store.audiences().rollouts["brand"]?.previous == next)
        _ = try Self.publish(store, "brand", "four")
        #expect(try store.audiences().rollouts.isEmpty, "a release published for everyone ends the rollout of \(third)")
        let details = try store.auditTrail(theme: "brand", since: nil, limit: 20).filter { $0.action == "rollout" }.map(\.detail)
        #expect(details.first == "generation \(next) to 100%, the rest on \(previous)" && details.count == 3)
    }

    @Test("retention keeps what a rollout or an alias points at, past the newest N, until nothing does")
    func retentionKeepsPinned() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let first = try Self.publish(store, "brand", "one", keep: 1)
        try store.putAlias(try Self.alias("frozen", #"{"theme": "brand", "generation": \#(first)}"#), by: "ops")
        let second = try Self.publish(store, "brand", "two", keep: 1)
        let third = try Self.publish(store, "brand", "three", keep: 1, rollout: 10)
        #expect(try store.history(of: "brand").map(\.generation) == [third, second, first],
                "the rollout's previous release and the alias's pin outlive a retention of one")
        #expect(try store.release(of: "brand", generation: first)?.files.count == 2)

        _ = try store.removeAlias("frozen", by: "ops")
        try store.setRollout(theme: "brand", generation: third, percent: 100, by: "ops")
        _ = try Self.publish(store, "brand", "four", keep: 1)
        #expect(try store.history(of: "brand").count == 1, "once nothing points at them, the next release's retention takes them")
    }

    @Test("an alias scheduled with at is kept when due, with its own generation; one whose theme has gone by then is spent with an audit line")
    func scheduledAlias() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        _ = try Self.publish(store, "brand", "one")
        let soon = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-1))
        let schedule = try store.schedule(alias: try Self.alias("staging", #"{"theme": "brand"}"#), at: soon, by: "ops")
        #expect(schedule.kind == "alias" && schedule.alias == "staging")
        #expect(try store.audiences().aliases.isEmpty)
        #expect(try store.applyDueSchedules() == 1)
        #expect(try store.audiences().aliases["staging"]?.theme == "brand")

        try store.schedule(alias: try Self.alias("later", #"{"theme": "brand"}"#), at: soon, by: "ops")
        try store.retire(theme: "brand")
        #expect(try store.applyDueSchedules() == 1)
        let spent = try store.audiences()
        let pending = try store.pendingSchedules()
        #expect(spent.aliases["later"] == nil && pending.isEmpty)
        #expect(try store.auditTrail(theme: "brand", since: nil, limit: 5).contains { $0.action == "schedule-failed" })
    }
}
