import Cluster
import Releases
import Testing
import TestSupport

/// The connections a replica's requests change the store through: kept between operations, one
/// opened ahead of the first, and one the server closed replaced without a request failing.
@Suite("store connections", .serialized, .needsPostgres)
struct StoreConnectionsTests {
    /// The client backends of the server, apart from the one asking.
    static func backends(_ observer: PostgresConnection) throws -> [String] {
        try observer.execute("SELECT pid::text FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() ORDER BY pid")
            .values.compactMap { $0.first ?? nil }
    }

    @Test("the connection opened ahead is the one the first operation uses, and the next ones too")
    func openedAhead() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let observer = try PostgresConnection(url: postgres.url)
        let connections = StoreConnections(cluster: postgres.url)
        connections.openAhead()
        let ahead = try Self.backends(observer)
        #expect(ahead.count == 1, "one connection opened ahead")
        for _ in 1...3 {
            let used = try connections.withStore { String($0.backendPID) }
            #expect([used] == ahead)
        }
        #expect(try Self.backends(observer) == ahead, "no connection opened for the operations")
    }

    @Test("a kept connection the server ended is replaced by a new one, and the operation succeeds")
    func endedByTheServer() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let connections = StoreConnections(cluster: postgres.url)
        let first = try connections.withStore { $0.backendPID }
        let admin = try ClusterStore(url: postgres.url)
        try admin.terminate(backend: first)
        let observer = try PostgresConnection(url: postgres.url)
        #expect(try waitUntil { try !Self.backends(observer).contains(String(first)) }, "the server ended it")
        let second = try connections.withStore { store in (store.backendPID, try store.latestReleases().count) }
        #expect(second.0 != first && second.1 == 0)
        #expect(try connections.withStore { $0.backendPID } == second.0, "the new one is kept")
    }
}
