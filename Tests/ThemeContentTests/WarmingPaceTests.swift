import BlobStore
import Foundation
import Synchronization
import Testing
import TestSupport
import ThemeContent
import ThemeIndex

/// The background warming steps aside while clients are answered: one content every
/// `busyInterval` then, and without pauses once they are quiet or where no server answers.
@Suite("warming pace")
struct WarmingPaceTests {
    @Test("no server, or clients quiet for longer than `quiet`: no pause; clients answered: the rest of the interval since the last content")
    func pauses() {
        let noServer = WarmingPace(quiet: .milliseconds(50), busyInterval: .milliseconds(20))
        #expect(noServer.pause(sinceLastWork: .zero) == nil)

        let quietClients = WarmingPace(quiet: .milliseconds(50), busyInterval: .milliseconds(20)) { .milliseconds(50) }
        #expect(quietClients.pause(sinceLastWork: .zero) == nil)

        let busy = WarmingPace(quiet: .milliseconds(50), busyInterval: .milliseconds(20)) { .milliseconds(3) }
        #expect(busy.pause(sinceLastWork: .zero) == .milliseconds(20))
        #expect(busy.pause(sinceLastWork: .milliseconds(15)) == .milliseconds(5))
        #expect(busy.pause(sinceLastWork: .milliseconds(20)) == nil)
        #expect(busy.pause(sinceLastWork: .seconds(1)) == nil)
    }

    @Test("while clients are read from, the warming encodes one content and waits; once they are quiet it does the rest")
    func warmingWaitsForQuiet() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        // Each 1x image is another file's bytes ("variant N"): three contents, not one stored three times.
        fixtures.imageSet("themes/t", "a", [["scale": "1x"]])
        fixtures.imageSet("themes/t", "b", [["scale": "2x"], ["scale": "1x"]])
        fixtures.imageSet("themes/t", "c", [["scale": "2x"], ["scale": "3x"], ["scale": "1x"]])
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.path("themes"))
        let chain = try ThemeInfo.chain(of: "t", in: try index.reader.themes())
        let resolutions = try ["a", "b", "c"].map { try #require(try index.reader.resolveImage(named: $0, in: chain, for: TraitRequest())) }

        // A server whose clients were read from just now, until the test says they went quiet;
        // the interval is far longer than the test, so a second content can only come from quiet.
        let clientsActive = Mutex(true)
        let asked = Atomic(0)
        let pace = WarmingPace(quiet: .milliseconds(50), busyInterval: .seconds(600)) {
            asked.add(1, ordering: .relaxed)
            return clientsActive.withLock { $0 } ? .zero : .seconds(1)
        }
        let store = ContentStore(blobs: try BlobStore(directory: fixtures.path("blobs")), configuration: .init(warmingPace: pace))
        store.warm("t", resolutions)
        #expect(waitUntil(5) { store.warming("t")?.done == 1 })
        // The warming asks again each `quiet`; asked three times more, it held off each time.
        let askedThen = asked.load(ordering: .relaxed)
        #expect(waitUntil(5) { asked.load(ordering: .relaxed) >= askedThen + 3 })
        #expect(store.warming("t")?.done == 1, "the next content waits while clients are answered")
        #expect(store.decodes == 1)

        clientsActive.withLock { $0 = false }
        #expect(waitUntil(5) { store.warming("t")?.done == 3 })
        #expect(store.decodes == 3)
        #expect(resolutions.allSatisfy { store.cached($0) != nil }, "every content is in the blob store")
    }
}
