import BlobStore
import Caching

/// What image transforms make (other sizes, formats, qualities), kept apart from the content
/// themes reference: in a blob store of its own, within a byte budget, the least recently used
/// dropped first. Anything here can be made again; what themes reference is never evicted.
public struct DerivedImages: Sendable {
    public let blobs: BlobStore
    /// The most the kept derived images may take (their bytes; the packs hold a little more
    /// until they are compacted). 0: nothing is kept, each transform is served from memory.
    public let budgetBytes: Int

    public init(blobs: BlobStore, budgetBytes: Int) {
        self.blobs = blobs
        self.budgetBytes = max(0, budgetBytes)
    }

    /// Trimmed to three quarters of the budget when it is passed: the packs are rewritten once
    /// per quarter of the budget written, not at every transform.
    func keep(_ bytes: [UInt8], contentType: String, key: String) throws -> BlobStore.Blob? {
        guard budgetBytes > 0, bytes.count <= budgetBytes / 4 else { return nil }
        let blob = try blobs.put(bytes, contentType: contentType, keys: [key])
        if blobs.statistics.blobBytes > budgetBytes {
            try blobs.trim(toBytes: budgetBytes / 4 * 3)
            // The blob just made may have been the one dropped if it was the only one: ask again.
            return blobs.verifiedBlob(forKey: key)
        }
        return blob
    }
}

/// The derived images' lines in `/metrics`, as a cache with a capacity.
struct DerivedReport: CacheReporting {
    let derived: DerivedImages
    var name: String { "derived-images" }
    var statistics: CacheStatistics {
        let blobs = derived.blobs.statistics
        var statistics = CacheStatistics()
        (statistics.bytes, statistics.entries, statistics.evictions, statistics.capacityBytes) = (blobs.blobBytes, blobs.blobs, blobs.collected, derived.budgetBytes)
        return statistics
    }
}
