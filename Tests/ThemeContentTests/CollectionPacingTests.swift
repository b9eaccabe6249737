import BlobStore
import Dispatch
import Synchronization
import Testing
import TestSupport
@testable import ThemeContent
import ThemeIndex

/// The blobs nothing references are collected after reloads, at most once an interval: a burst
/// of changes at a platform of thousands of themes reads every theme's content once, not per change.
@Suite("collection pacing")
struct CollectionPacingTests {
    @Test("a collection asked for within the interval waits for the rest of it, once, keeping what the newest asked")
    func pacing() throws {
        let pacing = CollectionPacing(grace: .seconds(3600))
        #expect(pacing.interval == .seconds(60), "a minute at most")
        let start = ContinuousClock.now
        let ran = Mutex<[String]>([])
        func collection(_ name: String) -> CollectionPacing.Collection { { ran.withLock { $0.append(name) } } }

        #expect(pacing.ask(collection("first"), at: start) == .now)
        #expect(pacing.takeWaiting(at: start) == nil, "nothing waits after a collection that ran at once")
        #expect(pacing.ask(collection("second"), at: start + .seconds(10)) == .after(.seconds(50)))
        #expect(pacing.ask(collection("third"), at: start + .seconds(20)) == .joinsTheWaiting)
        let waiting = try #require(pacing.takeWaiting(at: start + .seconds(60)))
        waiting()
        #expect(ran.withLock { $0 } == ["third"], "one collection, with what the newest keeps")
        #expect(pacing.takeWaiting(at: start + .seconds(60)) == nil)
        #expect(pacing.ask(collection("fourth"), at: start + .seconds(100)) == .after(.seconds(20)), "the interval starts when the waiting one ran")
        #expect(pacing.ask(collection("fifth"), at: start + .seconds(130)) == .joinsTheWaiting, "a late take still hands out one")

        #expect(CollectionPacing(grace: .seconds(100)).interval == .seconds(10), "a tenth of a short grace")
        let eager = CollectionPacing(grace: .zero)
        #expect(eager.ask(collection("a"), at: start) == .now && eager.ask(collection("b"), at: start) == .now,
                "with no grace, every reload collects at once")
    }

    @Test("at a content store, a collection asked for within the interval runs when it is up, with what the newest keeps")
    func waitingCollectionRuns() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let store = ContentStore(blobs: try BlobStore(directory: fixtures.path("blobs")), configuration: .init(collectionGrace: .seconds(10)))
        defer { store.shutdown() }
        // Each collection reads what it keeps first: the order of those reads is the order they ran.
        let ran = Mutex<[String]>([])
        func keeping(_ name: String) -> @Sendable () throws -> [Resolution] { { ran.withLock { $0.append(name) }; return [] } }

        store.collect(keeping: keeping("first"))
        store.collect(keeping: keeping("second"))
        store.collect(keeping: keeping("third"))
        // The three are asked for well within the interval (a second, a tenth of the grace).
        #expect(waitUntil(10) { ran.withLock { $0.last } == "third" }, "the waiting collection ran")
        #expect(ran.withLock { $0 } == ["first", "third"], "the second never ran: the third, asked while it waited, took its turn")
    }
}
