import AssetCatalog
import BinaryReading
import Synchronization
import ThemeIndex

/// The parsed catalogs that index generations were built from, by path and content hash.
///
/// Filled by each sync with the catalogs it parsed (`ThemeLibrary.reload`), so a catalog is not
/// opened twice. A catalog keeps its file mapped: when a new file is renamed over the path, the
/// generation still being served keeps decoding the bytes it describes until the new one is
/// indexed. Only the newest generation of each path is kept.
public final class CatalogCache: Sendable {
    private struct Key: Hashable {
        var path: String
        var contentHash: String
    }

    private let catalogs = Mutex<[Key: AssetCatalog]>([:])

    /// Keeps a catalog a sync has just parsed, dropping older generations of its path.
    func keep(_ catalog: AssetCatalog, contentHash: String) {
        catalogs.withLock { catalogs in
            catalogs = catalogs.filter { $0.key.path != catalog.path }
            catalogs[Key(path: catalog.path, contentHash: contentHash)] = catalog
        }
    }

    /// Opens the catalog an index generation was built from, while the file still holds those
    /// bytes (a sync that found the source unchanged parsed nothing, so at start-up the index's
    /// catalogs are opened here).
    func retain(_ source: SourceInfo) {
        guard catalogs.withLock({ $0[Key(path: source.path, contentHash: source.contentHash)] }) == nil,
              let storage = try? ByteStorage(mapping: source.path) else { return }
        var hash = ContentHash()
        storage.withUnsafeBytes { hash.add($0) }
        guard hash.hex == source.contentHash, let catalog = try? AssetCatalog(ByteSpan(storage), path: source.path) else { return }
        keep(catalog, contentHash: source.contentHash)
    }

    /// The catalog a resolution's rendition position refers to; opened from the file when no
    /// sync kept it (it was replaced since, or could not be read then).
    func catalog(for source: SourceReference) throws -> AssetCatalog {
        if let catalog = catalogs.withLock({ $0[Key(path: source.path, contentHash: source.contentHash)] }) { return catalog }
        let catalog = try AssetCatalog(path: source.path)
        keep(catalog, contentHash: source.contentHash)
        return catalog
    }

    public var count: Int { catalogs.withLock { $0.count } }
}
