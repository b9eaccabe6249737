import Hashing
import AssetCatalog
import BinaryReading
import Caching
import ThemeIndex

/// The parsed catalogs that index generations were built from, by path and content hash, within
/// a budget of the memory each holds: its mapped file and its parsed renditions.
///
/// Filled by each sync with the catalogs it parsed (`ThemeLibrary.reload`), so a catalog is not
/// opened twice. A catalog keeps its file mapped: when a new file is renamed over the path, the
/// generation still being served keeps decoding the bytes it describes until the new one is
/// indexed. Only the newest generation of each path is kept; a catalog evicted by the budget is
/// opened again from its file when it is next needed.
public final class CatalogCache: Sendable {
    public struct Key: Hashable, Sendable {
        var path: String
        var contentHash: String
    }

    public let cache: BoundedCache<Key, AssetCatalog>

    init(capacityBytes: Int) {
        cache = BoundedCache(name: "catalogs", capacityBytes: capacityBytes, cost: Self.cost)
    }

    /// What a kept catalog costs: its file, mapped and read through, and its parsed renditions
    /// (keys, CSI headers, TLVs), about 1 KiB each as measured at 10,000 brand catalogs
    /// (1.43 GB of heap for 8,884 catalogs of about 170 renditions). Counting the file alone let
    /// a platform's small catalogs hold twice the budget in heap.
    static func cost(_ catalog: AssetCatalog) -> Int {
        catalog.fileSize + catalog.renditions.count * parsedBytesPerRendition
    }

    static let parsedBytesPerRendition = 1024

    /// Keeps a catalog a sync has just parsed, dropping older generations of its path.
    func keep(_ catalog: AssetCatalog, contentHash: String) {
        cache.removeAll { $0.path == catalog.path && $0.contentHash != contentHash }
        cache.insert(catalog, for: Key(path: catalog.path, contentHash: contentHash))
    }

    /// Opens the catalog an index generation was built from, while the file still holds those
    /// bytes (a sync that found the source unchanged parsed nothing, so at start-up the index's
    /// catalogs are opened here).
    func retain(_ source: SourceInfo) {
        guard !cache.contains(Key(path: source.path, contentHash: source.contentHash)),
              let storage = try? ByteStorage(mapping: source.path) else { return }
        var hash = ContentHash()
        storage.withUnsafeBytes { hash.add($0) }
        guard hash.hex == source.contentHash, let catalog = try? AssetCatalog(ByteSpan(storage), path: source.path) else { return }
        keep(catalog, contentHash: source.contentHash)
    }

    /// The cache's key for a catalog source; nil for other kinds.
    static func key(of source: SourceReference) -> Key? {
        source.kind == .car ? Key(path: source.path, contentHash: source.contentHash) : nil
    }

    /// The catalog a resolution's rendition position refers to; opened from the file again when
    /// the budget evicted it, if the file still holds the bytes that were indexed.
    func catalog(for source: SourceReference) throws -> AssetCatalog {
        let key = Key(path: source.path, contentHash: source.contentHash)
        if let catalog = cache.value(for: key) { return catalog }
        let storage = try ByteStorage(mapping: source.path)
        var hash = ContentHash()
        storage.withUnsafeBytes { hash.add($0) }
        guard hash.hex == source.contentHash else {
            throw ContentStore.Unavailable(description: "\(source.path) changed since it was indexed; it is being indexed again")
        }
        let catalog = try AssetCatalog(ByteSpan(storage), path: source.path)
        keep(catalog, contentHash: source.contentHash)
        return catalog
    }
}
