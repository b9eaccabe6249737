import AssetCatalog
import BinaryReading
import BlobStore
import Caching
import Codecs
import Foundation
import Hashing
import ImageCoders
import Synchronization
import ThemeIndex
import ThemeVocabulary

/// The bytes behind image and data variants, encoded once and kept in the blob store under their
/// hash, where a restart finds them again.
///
/// A variant's content key (its file's hash, or its catalog's hash and rendition position) is an
/// alias in the blob store for the encoded bytes. A lookup whose blob is stored and checked is
/// answered on the caller's thread; anything else is done on the worker pool (never on an event
/// loop): the blob checked against its hash on first use, or the rendition decoded and
/// PNG-encoded and the result stored. Concurrent misses for the same content share one load
/// (single flight).
public final class ContentStore: Sendable {
    public typealias Completion = @Sendable (Result<Content, any Error>) -> Void

    public let blobs: BlobStore
    public let catalogs: CatalogCache
    let workers: WorkerPool
    /// Loads under way, with whoever waits for them.
    private let flights = Mutex<[String: [Completion]]>([:])
    let counters = Mutex(Counters())

    struct Counters {
        var decodes = 0
        var encodings = 0
        var storeFailures = 0
        var transcodes = 0
        var hits = 0
        var misses = 0
    }

    let warmer: Warmer
    /// When the blobs nothing references are dropped (`collect(keeping:)`).
    let collections: CollectionPacing

    /// Whether reloads warm changed content in the background (tests of cold loads turn it off).
    let warmsAfterReload: Bool

    /// Working memory for decoding and encoding: loads wait while those under way would pass it.
    public let decoding: MemoryBudget

    /// What makes other formats and sizes of an image (`format=`, `w=`, `h=`, vectors as bitmaps).
    public let coders: ImageCoderRegistry
    /// Where what the coders make is kept, within its budget; nil: with the content, unbounded
    /// (tools and tests).
    let derived: DerivedImages?
    /// Where transforms run: `transformConcurrency` at once, a bounded queue, then `Busy`, so that
    /// a flood of transforms neither starves the decoders nor holds up cached answers.
    let transforms: WorkerPool?

    /// How a content store works: its budgets, the pools and coders it uses, and whether it warms.
    public struct Configuration: Sendable {
        /// Mapped catalogs kept open (`CatalogCache`).
        public var catalogBytes: Int
        /// Working memory of the decodes and encodes under way (`decoding`).
        public var decodeBytes: Int
        /// Where loads run; nil: a pool of the store's own.
        public var workers: WorkerPool?
        /// nil: the registry's coders (libvips).
        public var coders: ImageCoderRegistry?
        /// How long a blob nothing references is kept (a client may still hold its URL).
        public var collectionGrace: Duration
        public var warmsAfterReload: Bool
        public var derived: DerivedImages?
        public var transforms: WorkerPool?
        public var warmingPace: WarmingPace

        public init(catalogBytes: Int = 1 << 30, decodeBytes: Int = 64 << 20, workers: WorkerPool? = nil, coders: ImageCoderRegistry? = nil,
                    collectionGrace: Duration = .seconds(600), warmsAfterReload: Bool = true, derived: DerivedImages? = nil,
                    transforms: WorkerPool? = nil, warmingPace: WarmingPace = WarmingPace()) {
            (self.catalogBytes, self.decodeBytes, self.workers, self.coders) = (catalogBytes, decodeBytes, workers, coders)
            (self.collectionGrace, self.warmsAfterReload, self.derived, self.transforms) = (collectionGrace, warmsAfterReload, derived, transforms)
            self.warmingPace = warmingPace
        }
    }

    public init(blobs: BlobStore, configuration: Configuration = Configuration()) {
        self.blobs = blobs
        warmer = Warmer(pace: configuration.warmingPace)
        coders = configuration.coders ?? ImageCoderRegistry()
        (derived, transforms) = (configuration.derived, configuration.transforms)
        decoding = MemoryBudget(capacityBytes: configuration.decodeBytes)
        collections = CollectionPacing(grace: configuration.collectionGrace)
        warmsAfterReload = configuration.warmsAfterReload
        catalogs = CatalogCache(capacityBytes: configuration.catalogBytes)
        workers = configuration.workers ?? WorkerPool()
    }

    /// The content of a resolved variant if its blob is stored and checked: the cheap path, fine
    /// on an event loop.
    public func cached(_ resolution: Resolution) -> Content? {
        let found = blobs.verifiedBlob(forKey: Self.key(resolution)).map { Content($0, isMirrored: resolution.isMirrored) }
        counters.withLock { found == nil ? ($0.misses += 1) : ($0.hits += 1) }
        return found
    }

    /// The caches behind content, for `/metrics`: stored blobs, mapped catalogs, decoded atlases.
    public var caches: [any CacheReporting] {
        [BlobReport(store: self), catalogs.cache, AssetCatalog.decodedAtlases] + (derived.map { [DerivedReport(derived: $0)] } ?? [])
    }

    /// How many contents were decoded or read from a theme file because no blob had them.
    public var decodes: Int { counters.withLock { $0.decodes } }
    /// How many compressed encodings were made (each once per content).
    public var encodings: Int { counters.withLock { $0.encodings } }
    /// Contents the blob store could not keep (served from memory instead).
    public var storeFailures: Int { counters.withLock { $0.storeFailures } }

    /// Loads the content of a resolved image or data variant on the worker pool (mirrored when
    /// the resolution says so) and calls `completion` there. A load already under way for the
    /// same content is joined, not repeated.
    public func load(_ resolution: Resolution, completion: @escaping Completion) {
        load(resolution, onThisThread: false, completion: completion)
    }

    /// The content of a resolved image made into what `request` asks, if it is stored and checked.
    public func cached(_ resolution: Resolution, as request: ImageRequest) -> Content? {
        if request.isIdentity { return cached(resolution) }
        return (derived?.blobs ?? blobs).verifiedBlob(forKey: Self.key(resolution, request)).map { Content($0, isMirrored: resolution.isMirrored) }
    }

    /// Loads a resolved image made into another format or size (`ImageCoderRegistry`): the
    /// stored content first (on the worker pool), then one transcode per content and request on
    /// the transforms' pool, kept with the derived images (`DerivedImages`). Concurrent misses
    /// share it; its working memory waits in `decoding` like a decode's.
    public func load(_ resolution: Resolution, as request: ImageRequest, completion: @escaping Completion) {
        if request.isIdentity { return load(resolution, completion: completion) }
        let key = Self.key(resolution, request)
        load(resolution) { [self] original in
            switch original {
            case .failure(let error):
                completion(.failure(error))
            case .success(let content):
                flight(key, on: transforms, completion: completion) { [self] in
                    let kept = derived?.blobs ?? blobs
                    if let blob = kept.blob(forKey: key) { return Content(blob, isMirrored: content.isMirrored) }
                    let input = try bytes(of: content)
                    let cost = Self.transcodeCost(resolution.variant, request, limit: coders.limits.maxPixels)
                    let coded = try decoding.withReservation(of: cost) { try coders.transcode(input, request) }
                    counters.withLock { $0.transcodes += 1 }
                    guard let derived else { return store(coded.bytes, contentType: coded.format.mimeType, keys: [key], isMirrored: content.isMirrored) }
                    let blob = try? derived.keep(coded.bytes, contentType: coded.format.mimeType, key: key)
                    return blob.map { Content($0, isMirrored: content.isMirrored) }
                        ?? Content(bytes: coded.bytes, contentType: coded.format.mimeType, isMirrored: content.isMirrored)
                }
            }
        }
    }

    /// `load(_:as:)` waited for on the calling thread: for tools that run outside the event loops
    /// (`themed export`), never for a request.
    public func loadWaiting(_ resolution: Resolution, as request: ImageRequest) throws -> Content {
        try waiting { load(resolution, as: request, completion: $0) }
    }

    /// `load(_:)`, waited for (off the event loops: a command, a review).
    public func loadWaiting(_ resolution: Resolution) throws -> Content {
        try waiting { load(resolution, completion: $0) }
    }

    private func waiting(_ start: (@escaping Completion) -> Void) throws -> Content {
        let result = Mutex<Result<Content, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        start { answer in
            result.withLock { $0 = answer }
            done.signal()
        }
        done.wait()
        guard let answer = result.withLock({ $0 }) else { throw Unavailable(description: "no answer") }
        return try answer.get()
    }

    /// How many images were made into another format or size.
    public var transcodes: Int { counters.withLock { $0.transcodes } }

    static func key(_ resolution: Resolution, _ request: ImageRequest) -> String { key(resolution) + "|" + request.key }

    /// Working memory of a transcode: the decoded source and the result, 4 bytes a pixel, with
    /// room for one intermediate. A source of unknown size (a vector) counts as drawn at its
    /// requested scale, at most the pixel limit.
    static func transcodeCost(_ variant: Variant, _ request: ImageRequest, limit: Int) -> Int {
        let source = variant.pixelWidth > 0 && variant.pixelHeight > 0 ? variant.pixelWidth * variant.pixelHeight : Int(Double(min(limit, 1 << 20)) * request.scale * request.scale)
        let result = (request.width ?? 0) * (request.height ?? request.width ?? 0)
        return 4 * (2 * min(source, limit) + min(result, limit))
    }

    /// Runs other work that must not hold up an event loop (an export reads every colour of a
    /// theme) on the same bounded worker pool; `Busy` when its queue is full.
    public func perform<T: Sendable>(_ work: @escaping @Sendable () throws -> T,
                                     completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        let accepted = workers.submit { completion(Result { try work() }) }
        if !accepted { completion(.failure(Busy())) }
    }

    /// `load`, run on the calling thread when no load of the content is under way (the warmer's).
    func load(_ resolution: Resolution, onThisThread: Bool, completion: @escaping Completion) {
        let key = Self.key(resolution)
        flight(key, onThisThread: onThisThread, completion: completion) { [self] in
            if let blob = blobs.blob(forKey: key) { return Content(blob, isMirrored: resolution.isMirrored) }
            let (bytes, contentType) = try decode(resolution)
            counters.withLock { $0.decodes += 1 }
            return store(bytes, contentType: contentType, keys: [key], isMirrored: resolution.isMirrored)
        }
    }

    /// The contents of several resolutions if every one is stored and checked (no I/O).
    public func readyContents(_ resolutions: [Resolution]) -> [Content]? {
        var contents: [Content] = []
        for resolution in resolutions {
            guard let blob = blobs.verifiedBlob(forKey: Self.key(resolution)) else { return nil }
            contents.append(Content(blob, isMirrored: resolution.isMirrored))
        }
        return contents
    }

    /// The contents of several resolutions, in order, once all are loaded on the worker pool
    /// (nil for those that failed).
    public func loadAll(_ resolutions: [Resolution], completion: @escaping @Sendable ([Content?]) -> Void) {
        let ready = resolutions.map { resolution in
            blobs.verifiedBlob(forKey: Self.key(resolution)).map { Content($0, isMirrored: resolution.isMirrored) }
        }
        let missing = ready.indices.filter { ready[$0] == nil }
        guard !missing.isEmpty else { return completion(ready) }
        let gathered = Mutex((contents: ready, waiting: missing.count))
        for index in missing {
            load(resolutions[index]) { result in
                let finished = gathered.withLock { state -> [Content?]? in
                    state.contents[index] = try? result.get()
                    state.waiting -= 1
                    return state.waiting == 0 ? state.contents : nil
                }
                if let finished { completion(finished) }
            }
        }
    }

    /// The stored blob named `digest`, checked on the worker pool if this is its first use.
    public func loadBlob(_ digest: Digest, completion: @escaping Completion) {
        flight("blob:\(digest)", completion: completion) { [self] in
            guard let blob = blobs.blob(digest) ?? derived?.blobs.blob(digest) else { throw Unavailable(description: "no blob \(digest)") }
            return Content(blob)
        }
    }

    /// The blob named `digest`, of the content or of the derived images (a transform's
    /// `Content-Location` names the latter), when it is in memory and checked: no I/O.
    public func verifiedBlob(_ digest: Digest) -> BlobStore.Blob? {
        blobs.verifiedBlob(digest) ?? derived?.blobs.verifiedBlob(digest)
    }

    /// Whether a resolution's blob is stored (not necessarily checked yet): no I/O.
    func isStored(_ resolution: Resolution) -> Bool {
        blobs.target(ofKey: Self.key(resolution)).map(blobs.contains) ?? false
    }

    // MARK: Warming

    /// Encodes the stored content of `theme` in the background (see `Warmer`).
    public func warm(_ theme: String, _ resolutions: [Resolution]) {
        guard warmsAfterReload else { return }
        warmer.warm(theme, resolutions, with: self)
    }

    /// Contents queued for warming and not yet done: 0 once everything is warm.
    public var warmingPending: Int { warmer.pending }

    /// How far warming `theme` has got, if it was warmed since the start.
    public func warming(_ theme: String) -> (done: Int, total: Int)? {
        warmer.progress(of: theme).map { ($0.done, $0.total) }
    }

    /// Four bytes per pixel, or nothing for a size no decoder accepts.
    static func pixelBytes(_ width: Int, _ height: Int) -> Int {
        guard width > 0, height > 0, width <= maximumDecodedBytes / height / 4 else { return 0 }
        return width * height * 4
    }

    /// The key under which a resolution's encoded bytes are stored.
    static func key(_ resolution: Resolution) -> String {
        resolution.variant.contentKey + (resolution.isMirrored ? "#mirrored" : "")
    }

    /// Stores `bytes` as a blob named by their hash; if the store cannot keep them, they are
    /// served from memory this time (and counted, for `/metrics`).
    /// `digest`: the bytes' SHA-256 when the caller made it from them already (`BlobStore.put(_:digest:)`).
    func store(_ bytes: [UInt8], contentType: String, keys: [String], isMirrored: Bool = false, digest: Digest? = nil) -> Content {
        do {
            let blob = try blobs.put(bytes, digest: digest ?? ContentHash.of(bytes), contentType: contentType, keys: keys)
            return Content(blob, isMirrored: isMirrored)
        } catch {
            counters.withLock { $0.storeFailures += 1 }
            return Content(bytes: bytes, contentType: contentType, digest: digest, isMirrored: isMirrored)
        }
    }

    /// The bytes of a content, wherever they are kept.
    public func bytes(of content: Content) throws -> [UInt8] {
        switch content.body {
        case .blob(let blob): try blobs.read(blob)
        case .bytes(let bytes): bytes
        }
    }

    /// Runs `work` on the worker pool unless a run for `key` is under way, whose result is then
    /// shared; calls every waiter's completion there.
    func flight(_ key: String, onThisThread: Bool = false, on pool: WorkerPool? = nil, completion: @escaping Completion,
                work: @escaping @Sendable () throws -> Content) {
        let isFirst = flights.withLock { flights -> Bool in
            if flights[key] != nil {
                flights[key]?.append(completion)
                return false
            }
            flights[key] = [completion]
            return true
        }
        guard isFirst else { return }
        if onThisThread { return finish(key, Result { try work() }) }
        let accepted = (pool ?? workers).submit { [self] in finish(key, Result { try work() }) }
        if !accepted { finish(key, .failure(Busy(queue: pool == nil ? "decoder" : "transform"))) }
    }

    private func finish(_ key: String, _ result: Result<Content, any Error>) {
        let waiting = flights.withLock { $0.removeValue(forKey: key) ?? [] }
        for completion in waiting { completion(result) }
    }

    /// The bytes a variant serves: a file as stored, a catalog rendition decoded (a bitmap
    /// PNG-encoded, data as stored), mirrored when asked. Decoding and encoding wait for their
    /// working memory in `decoding`.
    private func decode(_ resolution: Resolution) throws -> ([UInt8], String) {
        switch resolution.variant.location {
        case .file(let path):
            let file = try ByteSpan(ByteStorage(mapping: path))
            let contentType = ImageFormat.sniff(file.buffer)?.mimeType ?? "application/octet-stream"
            guard resolution.isMirrored, ImageFormat.sniff(file.buffer) == .png, let size = PNG.size(of: file) else {
                return (file.bytes, contentType)
            }
            // The decoded pixels, their mirror image and the encoded rows.
            let cost = 3 * Self.pixelBytes(size.width, size.height)
            let mirrored = try? decoding.withReservation(of: cost) { PNG.encode(try PNG.decode(file).mirroredHorizontally()) }
            return (mirrored ?? file.bytes, contentType)
        case .rendition(let position):
            let catalog = try catalogs.catalog(for: resolution.source)
            guard let rendition = catalog.rendition(atPosition: position) else {
                throw Unavailable(description: "\(resolution.source.path): rendition \(position) is gone")
            }
            // Decoding, then the mirror image and the PNG encoder's filtered rows.
            let cost = catalog.decodingCost(of: rendition) + 2 * Self.pixelBytes(rendition.header.width, rendition.header.height)
            return try decoding.withReservation(of: cost) {
                switch try catalog.image(for: rendition) {
                case .bitmap(let bitmap):
                    // Mirrored before encoding: a catalog bitmap is never decoded from PNG again.
                    return (PNG.encode(resolution.isMirrored ? bitmap.mirroredHorizontally() : bitmap), ImageFormat.png.mimeType)
                case .data(let bytes, let format):
                    return (bytes, format?.mimeType ?? "application/octet-stream")
                }
            }
        case .legacyColor, .inline:
            throw Unavailable(description: "\(resolution.variant.name) is a colour: its value is in the index, it has no bytes")
        }
    }
}
