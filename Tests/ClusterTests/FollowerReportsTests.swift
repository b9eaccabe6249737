@testable import Cluster
import Foundation
import Logging
import Synchronization
import Testing
import TestSupport

/// A replica's follower starts before its service exists: what it reports waits for the service
/// (`attach`), and what the first index reads another way is dropped (`dropHeldReports`).
@Suite("a follower's reports before its callbacks", .needsPostgres)
struct FollowerReportsTests {
    @Test("reports made before attach are held and given first when the callbacks come; those dropped are not given")
    func heldUntilAttached() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let themes = NSTemporaryDirectory() + "themed-held-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: themes) }
        try store.publish(theme: "light", files: ClusterTests.files("one"))
        let follower = ClusterFollower(url: postgres.url, materializer: Materializer(themesDirectory: themes), logger: Logger(label: "test"))
        defer { follower.stop() }
        follower.start()
        #expect(waitUntil { follower.hasSynced })
        // What the first sync wrote is read by the first index: dropped.
        follower.dropHeldReports()

        // A release and a switch while nothing listens: held.
        let dark = try store.publish(theme: "dark", files: ClusterTests.files("two"))
        let switched = try store.setActive("dark", by: "test")
        #expect(waitUntil { follower.generation >= switched })

        let changed = Mutex<[(theme: String, generation: Int64)]>([])
        let active = Mutex<[String]>([])
        follower.attach(.init(themesChanged: { themes in changed.withLock { $0 += themes } },
                              activeChanged: { theme, _ in active.withLock { $0.append(theme) } }))
        #expect(changed.withLock { $0.map(\.theme) } == ["dark"] && changed.withLock { $0.first?.generation } == dark, "light was dropped")
        #expect(active.withLock { $0 } == ["dark"])

        // Attached: a later release is given as it comes.
        try store.publish(theme: "light", files: ClusterTests.files("three"))
        #expect(waitUntil { changed.withLock { $0.map(\.theme) } == ["dark", "light"] })
    }
}
