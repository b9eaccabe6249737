@testable import Cluster
import Testing
import TestSupport

/// The store's history of changes, which a replica that starts reads into its event history
/// (a stream that moves to it resumes by Last-Event-ID: Tests/ReplicaTests/EventReplayTests).
@Suite("the store's history", .serialized, .needsPostgres)
struct StoreHistoryTests {
    @Test("the store's history names each change as a replica announced it: added, reloaded, retired, activated; a full window says where it starts")
    func storeHistory() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let light = try store.publish(theme: "light", files: ClusterTests.files("one"))
        let again = try store.publish(theme: "light", files: ClusterTests.files("two"))
        let switched = try store.setActive("light")
        let retired = try store.retire(theme: "light")
        let back = try store.publish(theme: "light", files: ClusterTests.files("three"))
        let rolledBack = try store.rollback(theme: "light", to: again, by: "ops")

        let whole = try store.history(through: rolledBack, limit: 100)
        #expect(whole.changes == [
            StoreChange(generation: light, theme: "light", kind: .added),
            StoreChange(generation: again, theme: "light", kind: .reloaded),
            StoreChange(generation: switched, theme: "light", kind: .activated),
            StoreChange(generation: retired, theme: "light", kind: .retired),
            StoreChange(generation: back, theme: "light", kind: .added),
            StoreChange(generation: rolledBack, theme: "light", kind: .reloaded),
        ])
        #expect(whole.completeAfter == 0, "fewer changes than the window: every one there is")

        let window = try store.history(through: back, limit: 2)
        #expect(window.changes.map(\.generation) == [retired, back], "the newest up to the generation asked")
        #expect(window.completeAfter == retired - 1, "a client that saw less than the window's first missed what it no longer holds")
        #expect(window.changes.last?.kind == .added, "a release after a retirement adds the theme, though the retirement's own release is outside the window")
    }
}
