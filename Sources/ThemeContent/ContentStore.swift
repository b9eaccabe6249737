import AssetCatalog
import BinaryReading
import Caching
import Codecs
import Foundation
import Synchronization
import ThemeIndex
import ThemeVocabulary

/// The bytes behind image and data variants, decoded once and kept within a byte budget.
///
/// Catalog renditions are decoded and PNG-encoded on first use, on the worker pool (never on an
/// event loop); later requests get the cached bytes. Concurrent misses for the same content share
/// one decode (single flight). The cache key is the variant's ETag, which changes exactly when the
/// content does, so a reload never serves stale bytes and unchanged variants stay cached across
/// reloads.
public final class ContentStore: Sendable {
    public struct Content: Sendable {
        public var bytes: [UInt8]
        public var contentType: String
        /// The bitmap was mirrored for the opposite direction (vectors and other formats are
        /// served as stored).
        public var isMirrored = false
    }

    /// Why a variant has no bytes to serve.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// The worker pool's queue is full: the load was not started.
    public struct Busy: Error, CustomStringConvertible {
        public var description: String { "the decoder queue is full; try again" }
    }

    public typealias Completion = @Sendable (Result<Content, any Error>) -> Void

    public let catalogs: CatalogCache
    /// Encoded bytes by ETag, within the content budget.
    public let cache: BoundedCache<String, Content>
    private let workers: WorkerPool
    /// Loads under way, with whoever waits for them.
    private let flights = Mutex<[String: [Completion]]>([:])
    private let loadCount = Mutex(0)

    public init(capacityBytes: Int = 128 << 20, catalogBytes: Int = 1 << 30, workers: WorkerPool = WorkerPool()) {
        cache = BoundedCache(name: "content", capacityBytes: capacityBytes) { $0.bytes.count }
        catalogs = CatalogCache(capacityBytes: catalogBytes)
        self.workers = workers
    }

    /// The content of a resolved variant if it is cached: the cheap path, fine on an event loop.
    public func cached(_ resolution: Resolution) -> Content? {
        cache.value(for: Self.key(resolution))
    }

    /// The caches behind content, for `/metrics`: encoded bytes, mapped catalogs, decoded atlases.
    public var caches: [any CacheReporting] { [cache, catalogs.cache, AssetCatalog.decodedAtlases] }

    /// How many contents were loaded (decoded or read from a file) because no cache had them.
    public var loads: Int { loadCount.withLock { $0 } }

    /// Loads the content of a resolved image or data variant on the worker pool (mirrored when
    /// the resolution says so) and calls `completion` there. A load already under way for the
    /// same content is joined, not repeated. Callers ask `cached` first (which counts the miss);
    /// here the cache is looked at only under the lock, for a load that finished since.
    public func load(_ resolution: Resolution, completion: @escaping Completion) {
        let key = Self.key(resolution)
        enum Next { case done(Content), joined, start }
        let next = flights.withLock { flights -> Next in
            if cache.contains(key), let content = cache.value(for: key) { return .done(content) }
            if flights[key] != nil {
                flights[key]?.append(completion)
                return .joined
            }
            flights[key] = [completion]
            return .start
        }
        switch next {
        case .done(let content): completion(.success(content))
        case .joined: break
        case .start:
            let accepted = workers.submit { [self] in
                let result = Result { try load(resolution) }
                finish(key, result)
            }
            if !accepted { finish(key, .failure(Busy())) }
        }
    }


    static func key(_ resolution: Resolution) -> String {
        resolution.variant.etag + (resolution.isMirrored ? "-mirrored" : "")
    }

    private func finish(_ key: String, _ result: Result<Content, any Error>) {
        let waiting = flights.withLock { flights in
            if case .success(let content) = result { store(content, as: key) }
            return flights.removeValue(forKey: key) ?? []
        }
        for completion in waiting { completion(result) }
    }

    private func store(_ content: Content, as key: String) {
        loadCount.withLock { $0 += 1 }
        cache.insert(content, for: key)
    }

    private func load(_ resolution: Resolution) throws -> Content {
        switch resolution.variant.location {
        case .file(let path):
            let bytes = try ByteStorage(mapping: path).bytes
            let content = Content(bytes: bytes, contentType: ImageFormat.sniff(bytes)?.mimeType ?? "application/octet-stream")
            return resolution.isMirrored ? Self.mirrored(content) : content
        case .rendition(let position):
            let catalog = try catalogs.catalog(for: resolution.source)
            guard let rendition = catalog.rendition(atPosition: position) else {
                throw Unavailable(description: "\(resolution.source.path): rendition \(position) is gone")
            }
            switch try catalog.image(for: rendition) {
            case .bitmap(let bitmap):
                // Mirrored before encoding: a catalog bitmap is never decoded from PNG again.
                return Content(bytes: PNG.encode(resolution.isMirrored ? bitmap.mirroredHorizontally() : bitmap),
                               contentType: ImageFormat.png.mimeType, isMirrored: resolution.isMirrored)
            case .data(let bytes, let format):
                return Content(bytes: bytes, contentType: format?.mimeType ?? "application/octet-stream")
            }
        case .legacyColor, .inline:
            throw Unavailable(description: "\(resolution.variant.name) is a colour: its value is in the index, it has no bytes")
        }
    }

    /// A PNG file mirrored left to right; other formats unchanged.
    static func mirrored(_ content: Content) -> Content {
        guard ImageFormat.sniff(content.bytes) == .png, let bitmap = try? PNG.decode(ByteSpan(copying: content.bytes)) else { return content }
        return Content(bytes: PNG.encode(bitmap.mirroredHorizontally()), contentType: content.contentType, isMirrored: true)
    }
}
