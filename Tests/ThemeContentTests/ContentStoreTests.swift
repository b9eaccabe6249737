import BlobStore
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
import ThemeContent
import ThemeIndex

/// The content layer: loads happen on the worker pool, once per content, and refuse when the
/// queue is full.
@Suite("content store")
struct ContentStoreTests {
    /// A theme with one image, indexed, and the resolution of that image.
    func resolvedImage(_ fixtures: ThemeFixtures) throws -> Resolution {
        fixtures.imageSet("themes/t", "icon", [["scale": "1x"]])
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.path("themes"))
        let chain = try ThemeInfo.chain(of: "t", in: try index.reader.themes())
        return try #require(try index.reader.resolveImage(named: "icon", in: chain, for: TraitRequest()))
    }

    @Test("concurrent misses for the same content load it once; every caller gets the same bytes")
    func singleFlight() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let resolution = try resolvedImage(fixtures)
        let workers = WorkerPool(threads: 1)
        // Hold the only worker, so that every load below is asked for before the first can run.
        let gate = DispatchSemaphore(value: 0)
        workers.submit { gate.wait() }
        let store = ContentStore(blobs: try BlobStore(directory: fixtures.path("blobs")), configuration: .init(workers: workers))
        let group = DispatchGroup()
        let bodies = Mutex<[[UInt8]]>([])
        for _ in 0..<20 {
            group.enter()
            store.load(resolution) { result in
                if case .success(let content) = result, let bytes = try? store.bytes(of: content) { bodies.withLock { $0.append(bytes) } }
                group.leave()
            }
        }
        #expect(store.cached(resolution) == nil, "nothing is loaded on the caller's thread")
        gate.signal()
        group.wait()
        let answers = bodies.withLock { $0 }
        #expect(answers.count == 20)
        #expect(Set(answers).count == 1)
        #expect(answers.first?.suffix(9).elementsEqual("variant 0".utf8) == true)
        #expect(store.decodes == 1)
        #expect(try store.cached(resolution).map(store.bytes(of:)) == answers.first)
    }

    @Test("a full queue refuses the load, saying so; the next load after it drains works")
    func fullQueue() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let resolution = try resolvedImage(fixtures)
        let workers = WorkerPool(threads: 1, queueLimit: 1)
        let gate = DispatchSemaphore(value: 0), running = DispatchSemaphore(value: 0)
        workers.submit {
            running.signal()
            gate.wait()
        }
        running.wait() // the only worker is busy; the queue is empty
        #expect(workers.submit {}, "one job may wait")
        let store = ContentStore(blobs: try BlobStore(directory: fixtures.path("blobs")), configuration: .init(workers: workers))
        let refused = Mutex<(any Error)?>(nil)
        let answered = DispatchSemaphore(value: 0)
        store.load(resolution) { result in
            if case .failure(let error) = result { refused.withLock { $0 = error } }
            answered.signal()
        }
        answered.wait()
        #expect(refused.withLock { $0 } is ContentStore.Busy)
        gate.signal()
        #expect(waitUntil(5) { workers.queued == 0 })
        let loaded = DispatchSemaphore(value: 0)
        store.load(resolution) { result in
            if case .success = result { loaded.signal() }
        }
        #expect(loaded.wait(timeout: .now() + 5) == .success)
    }
}
