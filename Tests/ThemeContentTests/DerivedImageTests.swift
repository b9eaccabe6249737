import BlobStore
import Codecs
import Dispatch
import Foundation
import ImageCoders
import Synchronization
import Testing
import TestSupport
@testable import ThemeContent
import ThemeIndex

/// What transforms make is kept within a budget apart from the themes' content, and a flood of
/// transforms waits in a bounded queue, then is refused (issue 46).
@Suite("derived images")
struct DerivedImageTests {
    /// A theme whose image is a real 64 x 64 PNG, and its resolution.
    func resolvedImage(_ fixtures: ThemeFixtures) throws -> Resolution {
        fixtures.imageSet("themes/t", "icon", [["scale": "1x"]])
        var pixels: [UInt8] = []
        for n in 0..<64 * 64 { pixels += [UInt8(n % 256), UInt8(n / 64 * 4), 128, 255] }
        fixtures.write(PNG.encode(Bitmap(width: 64, height: 64, layout: .bgra8, pixels: pixels)), to: "themes/t/Theme.xcassets/icon.imageset/icon-0.png")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.path("themes"))
        let chain = try ThemeInfo.chain(of: "t", in: try index.reader.themes())
        return try #require(try index.reader.resolveImage(named: "icon", in: chain, for: TraitRequest()))
    }

    func load(_ store: ContentStore, _ resolution: Resolution, _ request: ImageRequest) -> Result<ContentStore.Content, any Error> {
        Result { try store.loadWaiting(resolution, as: request) }
    }

    @Test("1,500 sizes of one image: the derived store stays within its budget, the image itself stays, /metrics counts it")
    func budget() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let resolution = try resolvedImage(fixtures)
        let derived = DerivedImages(blobs: try BlobStore(directory: fixtures.path("blobs/derived")), budgetBytes: 64 << 10)
        let store = ContentStore(blobs: try BlobStore(directory: fixtures.path("blobs")), configuration: .init(derived: derived, transforms: WorkerPool(threads: 2)))
        var largest = 0
        for width in 1...300 {
            for fit in ImageRequest.Fit.allCases {
                let request = ImageRequest(format: .png, width: width, height: 301 - width, fit: fit)
                guard case .success = load(store, resolution, request) else { Issue.record("\(request.key) failed"); return }
                largest = max(largest, derived.blobs.statistics.blobBytes)
            }
        }
        #expect(store.transcodes == 900)
        #expect(largest <= 64 << 10 && derived.blobs.statistics.packBytes < 2 * (64 << 10), "bytes \(largest), on disk \(derived.blobs.statistics.packBytes)")
        #expect(store.cached(resolution) != nil && store.blobs.statistics.blobs == 1, "the theme's own image is in the content store, never evicted")
        let report = try #require(store.caches.first { $0.name == "derived-images" }?.statistics)
        #expect(report.capacityBytes == 64 << 10 && report.evictions > 0 && report.bytes <= report.capacityBytes)

        // The newest is still there; one made long ago is made again when asked.
        let newest = ImageRequest(format: .png, width: 300, height: 1, fit: .fill)
        #expect(store.cached(resolution, as: newest) != nil)
        let oldest = ImageRequest(format: .png, width: 1, height: 300, fit: .contain)
        #expect(store.cached(resolution, as: oldest) == nil)
        #expect((try? load(store, resolution, oldest).get()) != nil && store.transcodes == 901)
    }

    @Test("past transformConcurrency running and transformQueue waiting, a transform is refused as busy; the theme's content still loads")
    func busy() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let resolution = try resolvedImage(fixtures)
        let transforms = WorkerPool(threads: 1, queueLimit: 1)
        let gate = DispatchSemaphore(value: 0), running = DispatchSemaphore(value: 0)
        transforms.submit {
            running.signal()
            gate.wait()
        }
        running.wait()
        #expect(transforms.submit {}, "one transform may wait")
        let store = ContentStore(blobs: try BlobStore(directory: fixtures.path("blobs")), configuration: .init(
            derived: DerivedImages(blobs: try BlobStore(directory: fixtures.path("derived")), budgetBytes: 1 << 20), transforms: transforms))
        let refused = load(store, resolution, ImageRequest(format: .webp, width: 10))
        #expect((refused.failure as? ContentStore.Busy)?.description == "the transform queue is full; try again")
        let original = Mutex<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        store.load(resolution) { result in
            original.withLock { $0 = (try? result.get()) != nil }
            done.signal()
        }
        done.wait()
        #expect(original.withLock { $0 }, "decoders are another pool: the image as stored is served")
        gate.signal()
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
