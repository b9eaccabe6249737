@testable import Cluster
import Foundation
import Synchronization
import Testing
import TestSupport
import ThemeVocabulary

/// `awaitServed` on a real PostgreSQL: a wait ends when every connected replica reported the
/// generation, counts only replicas whose connection lives, and names the laggards at its limit.
@Suite("the store's wait for every replica", .needsPostgres)
struct ServedWaitStoreTests {
    @Test("a wait ends once the last replica reports; a replica whose connection closes stops counting; at its limit the wait names who lags")
    func waitsForReports() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let asking = try ClusterStore(url: postgres.url)
        // Each replica reports on a connection of its own, as a follower does.
        let first = try ClusterStore(url: postgres.url)
        var second: ClusterStore? = try ClusterStore(url: postgres.url)
        try first.reportServing(replica: "first", generation: 1)
        try second?.reportServing(replica: "second", generation: 1)

        let found = Mutex<ReplicaReport?>(nil)
        let waiter = Thread {
            let served = try? asking.awaitServed(2, timeout: .seconds(60))
            found.withLock { $0 = served }
        }
        waiter.start()
        try first.reportServing(replica: "first", generation: 2)
        #expect(found.withLock { $0 } == nil, "second still serves generation 1")
        try second?.reportServing(replica: "second", generation: 3)
        #expect(waitUntil(30) { found.withLock { $0 } != nil })
        let served = try #require(found.withLock { $0 })
        #expect(served.isComplete && served.serving == ["first", "second"])

        // The second replica goes away: only the first is waited for.
        second = nil
        #expect(waitUntil(30) { (try? asking.replicasServing().map(\.name)) == ["first"] })
        let alone = try asking.awaitServed(2, timeout: .seconds(10))
        #expect(alone.isComplete && alone.serving == ["first"])

        let late = try asking.awaitServed(4, timeout: .milliseconds(300))
        #expect(!late.isComplete && late.serving.isEmpty)
        #expect(late.lagging == [ReplicaServing(name: "first", generation: 2)] && late.waitedMilliseconds >= 300)
        #expect(late.laggingDescription == "first (serves generation 2)")
    }

    @Test("a report's notification names the generation and the replica: a wait follows it without asking the store")
    func reportsSayWhose() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let listening = try PostgresConnection(url: postgres.url)
        try listening.execute("LISTEN \(ClusterStore.servedChannel)")
        try ClusterStore(url: postgres.url).reportServing(replica: "replica one", generation: 7)
        let said = try listening.notifications(waitingUpTo: .seconds(30))
        #expect(said == ["7 replica one"])
        #expect(said.map(ReplicaServing.init(report:)) == [ReplicaServing(name: "replica one", generation: 7)])
    }

    @Test("reports move the replicas they name on, never back; a report from a replica not counted yet, or without a name, or none at all, sends the wait to the store")
    func followingReports() {
        let replicas = [ReplicaServing(name: "a", generation: 1), ReplicaServing(name: "b", generation: 1)]
        let reports = ["3 a", "2 a", "2 b"].map(ReplicaServing.init(report:))
        #expect(ClusterStore.applying(reports, to: replicas) == [ReplicaServing(name: "a", generation: 3), ReplicaServing(name: "b", generation: 2)])
        #expect(ClusterStore.applying([ReplicaServing(report: "4 c")], to: replicas) == nil, "a replica that connected meanwhile")
        #expect(ClusterStore.applying([ReplicaServing(report: "4")], to: replicas) == nil, "an older replica's report")
        #expect(ClusterStore.applying([], to: replicas) == nil, "no report: one may have gone away")
        for bad in ["", "x a", "-", " a"] { #expect(ReplicaServing(report: bad) == nil, "\(bad)") }
    }
}
