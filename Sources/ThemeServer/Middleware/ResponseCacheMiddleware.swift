import Caching
import HTTPServer
import HTTPTypes
import Synchronization
import ThemeContent

/// Keeps the answers of cacheable routes, so a repeated lookup is a dictionary probe: no routing,
/// trait parsing or SQL. `PreparedResponder` answers from it before any middleware runs; on a miss this
/// middleware routes the request and keeps the answer.
///
/// One cache, keyed one way: the raw request target and the headers that carry traits, for the
/// library's current epoch. The epoch moves with every reload and active-theme change, which
/// empties the cache. An answer is kept as it goes out to every request that asks for it: its
/// 200 and 304 heads serialised once, with the CORS headers every origin gets and the route's
/// metrics settled when it is stored. The cache holds at most its byte budget.
///
/// Each event loop sends its own copies of the answers it sends (`PerLoop`), made from the cache
/// at the loop's first hit of each: a hit then takes no shared lock and counts references only on
/// the loop's own storage, instead of passing the cache's lock and the answer's reference counts
/// between the cores at every request. A loop's copies take at most `copyShare` of the budget
/// (they are dropped together when they would take more) and go with the epoch they belong to.
/// `/metrics` reports the cache and the copies as one: hits of either, the bytes of both.
final class ResponseCacheMiddleware: Middleware, CacheReporting {
    /// What a lookup's answer depends on: its target and the fields that carry traits, as bytes:
    /// the target, then each such field in the order sent, as a NUL, its name's number and its
    /// value (neither a target nor a value holds a NUL). Two requests with the same key get the
    /// same answer; the same fields sent in another order make another key, kept apart.
    struct Key: Hashable, Sendable {
        private(set) var bytes: [UInt8]
        private let targetCount: Int

        /// The fields that carry traits, numbered by their place here.
        static let traitFields = [TraitParser.colorScheme, TraitParser.contrast, TraitParser.devicePixelRatio, TraitParser.legacyDevicePixelRatio,
                                  .acceptLanguage, .acceptEncoding, .accept].map(CaselessToken.init)

        init(target: Span<UInt8>) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(target.count + 16)
            target.withUnsafeBufferPointer { bytes += $0 }
            (self.bytes, targetCount) = (bytes, bytes.count)
        }

        init(_ request: Request) {
            self = KeyedRequest(request).key
        }

        /// Adds the field when it carries traits; returns whether it does.
        mutating func add(name: Span<UInt8>, value: Span<UInt8>) -> Bool {
            guard let number = Self.traitFields.firstIndex(where: { $0.matches(name) }) else { return false }
            bytes += [0, UInt8(number)]
            value.withUnsafeBufferPointer { bytes += $0 }
            return true
        }

        /// The target as a String: made on each call (for the access log and tests).
        var target: String { String(decoding: bytes[..<targetCount], as: UTF8.self) }

        /// Whether the target begins with `prefix`, read in its bytes: every kept request asks
        /// (`PreparedResponder`), and a String of a target past 15 bytes is an allocation each time.
        func targetBegins(with prefix: String) -> Bool {
            prefix.utf8.count <= targetCount && bytes.starts(with: prefix.utf8)
        }

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }

        static func == (left: Key, right: Key) -> Bool { left.targetCount == right.targetCount && left.bytes == right.bytes }
    }

    /// What the cache keeps for a key: the answer that goes out for a request that asks for it
    /// again, but for that request's own fields (its id; the CORS lines for a listed Origin), as a
    /// 200 and a 304, prepared. A class: a hit takes one reference.
    final class Entry: Sendable {
        let route: String
        let etag: String
        let crossOrigin: Bool
        /// The 200, prepared; and the 304 for a request whose If-None-Match names `etag`.
        let ok: PreparedResponse
        let notModified: PreparedResponse
        /// The metrics series of the 200 and of the 304.
        let okSeries: RequestTallies.Series
        let notModifiedSeries: RequestTallies.Series

        init(route: String, etag: String, crossOrigin: Bool, ok: PreparedResponse, notModified: PreparedResponse,
             okSeries: RequestTallies.Series, notModifiedSeries: RequestTallies.Series) {
            (self.route, self.etag, self.crossOrigin) = (route, etag, crossOrigin)
            (self.ok, self.notModified, self.okSeries, self.notModifiedSeries) = (ok, notModified, okSeries, notModifiedSeries)
        }

        /// The same answer in storage of its own, for one event loop to send.
        func ownCopy() -> Entry {
            Entry(route: route, etag: String(decoding: Array(etag.utf8), as: UTF8.self), crossOrigin: crossOrigin,
                       ok: ok.ownCopy(), notModified: notModified.ownCopy(),
                       okSeries: okSeries, notModifiedSeries: notModifiedSeries)
        }

        /// The bytes it holds: the body (a file body is a reference to a blob), the two heads
        /// and, roughly, the key.
        var cost: Int {
            let body = if case .bytes(let body) = ok.response.body { body.count } else { 0 }
            return body + 2 * (ok.response.preparedHeadCount ?? 512) + 256
        }
    }

    /// One event loop's copies of the answers it sent in `epoch`.
    struct LoopCopies: Sendable {
        var epoch = -1
        var answers: [Key: Entry] = [:]
        var bytes = 0
        var hits = 0
    }

    /// The part of the budget each loop's copies may take.
    static let copyShare = 1.0 / 8

    /// Kept answers with bodies up to this size hold the bytes (read from the blob once), larger
    /// ones a reference to the blob, sent with `sendfile`.
    static let inlineFileBytes = 32 << 10

    let library: ThemeLibrary
    let cors: CORSMiddleware
    let metrics: ServiceMetrics
    let cache: BoundedCache<Key, Entry>
    private let copies = PerLoop { _ in LoopCopies() }
    private let copyBudget: Int
    /// The epoch the kept answers belong to (set only while holding `storing`).
    private let keptEpoch = Atomic(-1)
    private let storing = Mutex(())

    init(library: ThemeLibrary, cors: CORSMiddleware, metrics: ServiceMetrics, capacityBytes: Int) {
        (self.library, self.cors, self.metrics) = (library, cors, metrics)
        cache = BoundedCache(name: "responses", capacityBytes: capacityBytes) { $0.cost }
        copyBudget = Int(Double(capacityBytes) * Self.copyShare)
    }

    /// The kept answer to `request`, if it is a read whose answer was kept in the current epoch:
    /// the copy of the loop that read it, made now if it has none. Answers of an earlier epoch are
    /// not looked at (nor counted as hits); the next answer kept clears them.
    func hit(_ request: borrowing KeyedRequest) -> Entry? {
        guard request.method == .get || request.method == .head else { return nil }
        let epoch = library.epoch
        // The key alone goes into the closure: capturing the request would copy all its fields.
        let key = request.key
        return copies.withState(forLoop: request.loop) { _, copies in
            if copies.epoch != epoch { copies = LoopCopies(epoch: epoch) }
            if let copy = copies.answers[key] {
                copies.hits += 1
                return copy
            }
            guard keptEpoch.load(ordering: .acquiring) == epoch, let kept = cache.value(for: key) else { return nil }
            // An answer larger than a loop's share goes out from the cache's own storage.
            guard kept.cost <= copyBudget else { return kept }
            let copy = kept.ownCopy()
            if copies.bytes + copy.cost > copyBudget { (copies.answers, copies.bytes) = ([:], 0) }
            copies.answers[key] = copy
            copies.bytes += copy.cost
            return copy
        }
    }

    var name: String { cache.name }

    /// The cache's statistics with its copies': their hits and their bytes (and budgets) added.
    var statistics: CacheStatistics {
        var statistics = cache.statistics
        copies.forEach { copies in
            statistics.hits += copies.hits
            statistics.bytes += copies.bytes
            statistics.capacityBytes += copyBudget
        }
        return statistics
    }

    func respond(to request: Request, next: (Request) -> RoutedResponse) -> RoutedResponse {
        guard request.method == .get || request.method == .head else { return next(request) }
        let current = library.epoch
        let key = Key(request)
        var routed = next(request)
        guard routed.cacheable else { return routed }
        let (route, crossOrigin) = (routed.route, routed.crossOrigin)
        routed.response = routed.response.map { [self] response in
            guard response.status == .ok, let etag = response.headers[.eTag] else { return response }
            var settled = response.inliningFile(upTo: Self.inlineFileBytes)
            if crossOrigin { cors.settle(&settled) }
            guard let ok = PreparedResponse(settled), let notModified = PreparedResponse(ConditionalRequestMiddleware.notModified(settled)) else {
                return settled // a body whose length is not known before it is sent is not kept
            }
            let kept = Entry(route: route, etag: etag, crossOrigin: crossOrigin, ok: ok, notModified: notModified,
                                  okSeries: metrics.series(route: route, status: 200),
                                  notModifiedSeries: metrics.series(route: route, status: 304))
            storing.withLock { _ in
                let stored = keptEpoch.load(ordering: .acquiring)
                guard current >= stored else { return } // computed before a reload: never stored over newer answers
                if current > stored {
                    cache.removeAll { _ in true }
                    keptEpoch.store(current, ordering: .releasing)
                }
                cache.insert(kept, for: key)
            }
            return kept.ok.response
        }
        return routed
    }
}
