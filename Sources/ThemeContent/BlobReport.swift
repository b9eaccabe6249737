import Caching

/// The blob store's lines in `/metrics`, as a cache: stored blobs and their bytes, and how often
/// a lookup found its blob ready.
struct BlobReport: CacheReporting {
    let store: ContentStore
    var name: String { "blobs" }
    var statistics: CacheStatistics {
        let blobs = store.blobs.statistics
        let counters = store.counters.withLock { $0 }
        var statistics = CacheStatistics()
        (statistics.bytes, statistics.entries, statistics.evictions) = (blobs.packBytes, blobs.blobs, blobs.collected)
        (statistics.hits, statistics.misses) = (counters.hits, counters.misses)
        return statistics
    }
}
