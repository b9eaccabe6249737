import AssetCatalog
import BinaryReading
import Codecs
import Foundation
import Synchronization

/// The bytes behind image and data variants, decoded once and kept.
///
/// Catalog renditions are decoded and PNG-encoded on first use; later requests get the cached
/// bytes. The cache key is the variant's ETag, which changes exactly when the content does, so a
/// reload never serves stale bytes and unchanged variants stay cached across reloads.
public final class ContentStore: Sendable {
    public struct Content: Sendable {
        public var bytes: [UInt8]
        public var contentType: String
        /// The bitmap was mirrored for the opposite direction (vectors and other formats are
        /// served as stored).
        public var isMirrored = false
    }

    private struct Cache {
        var entries: [String: Content] = [:]
        var order: [String] = []
        var bytes = 0
    }

    private let catalogs = Mutex<[String: AssetCatalog]>([:])
    private let cache = Mutex(Cache())
    public let capacityBytes: Int

    public init(capacityBytes: Int = 256 << 20) {
        self.capacityBytes = capacityBytes
    }

    /// The content of a resolved image or data variant, mirrored when the resolution says so.
    public func content(of resolution: ThemeIndex.Resolution) throws -> Content {
        let key = resolution.variant.etag + (resolution.isMirrored ? "-mirrored" : "")
        if let cached = cache.withLock({ $0.entries[key] }) { return cached }
        let content = try load(resolution)
        cache.withLock { cache in
            guard content.bytes.count <= capacityBytes / 4, cache.entries[key] == nil else { return }
            cache.entries[key] = content
            cache.order.append(key)
            cache.bytes += content.bytes.count
            while cache.bytes > capacityBytes, !cache.order.isEmpty {
                let evicted = cache.order.removeFirst()
                cache.bytes -= cache.entries.removeValue(forKey: evicted)?.bytes.count ?? 0
            }
        }
        return content
    }

    private func load(_ resolution: ThemeIndex.Resolution) throws -> Content {
        let variant = resolution.variant
        if resolution.sourceKind != ThemeFolder.SourceKind.car.rawValue { // a file of an .xcassets folder or a bundle
            let bytes = try ByteStorage(mapping: variant.location).bytes
            let content = Content(bytes: bytes, contentType: ImageFormat.sniff(bytes)?.mimeType ?? "application/octet-stream")
            return resolution.isMirrored ? Self.mirrored(content) : content
        }
        let catalog = try catalog(at: resolution.sourcePath, etag: variant.etag)
        guard let position = Int(variant.location), let rendition = catalog.rendition(atPosition: position) else {
            throw ThemeError("\(resolution.sourcePath): rendition \(variant.location) is gone")
        }
        switch try catalog.image(for: rendition) {
        case .bitmap(let bitmap):
            // Mirrored before encoding: a catalog bitmap is never decoded from PNG again.
            return Content(bytes: PNG.encode(resolution.isMirrored ? bitmap.mirroredHorizontally() : bitmap),
                           contentType: ImageFormat.png.mimeType, isMirrored: resolution.isMirrored)
        case .data(let bytes, let format):
            return Content(bytes: bytes, contentType: format?.mimeType ?? "application/octet-stream")
        }
    }

    /// A PNG file mirrored left to right; other formats unchanged.
    static func mirrored(_ content: Content) -> Content {
        guard ImageFormat.sniff(content.bytes) == .png, let bitmap = try? PNG.decode(ByteSpan(copying: content.bytes)) else { return content }
        return Content(bytes: PNG.encode(bitmap.mirroredHorizontally()), contentType: content.contentType, isMirrored: true)
    }

    /// Keeps a catalog that a sync has just parsed, for serving the generation built from it.
    public func register(_ catalog: AssetCatalog, contentHash: String) {
        keep(catalog, as: "\(catalog.path)#\(contentHash.prefix(12))")
    }

    /// Stores `catalog` under `key` (path#hash), dropping older generations of the same path.
    private func keep(_ catalog: AssetCatalog, as key: String) {
        let path = catalog.path
        catalogs.withLock { catalogs in
            catalogs = catalogs.filter { !$0.key.hasPrefix("\(path)#") }
            catalogs[key] = catalog
        }
    }

    /// Opens the catalog an index generation was built from, while the file still holds it.
    ///
    /// Called after every sync: the mapping keeps the indexed bytes alive even when a new file is
    /// renamed over the path, so requests answered from the old generation until the new one is
    /// indexed still decode the bytes that generation describes.
    public func retainCatalog(at path: String, contentHash: String) {
        let key = "\(path)#\(contentHash.prefix(12))"
        guard catalogs.withLock({ $0[key] }) == nil, let storage = try? ByteStorage(mapping: path) else { return }
        var hash = ContentHash()
        storage.withUnsafeBytes { hash.add($0) }
        guard hash.hex == contentHash, let catalog = try? AssetCatalog(ByteSpan(storage), path: path) else { return }
        keep(catalog, as: key)
    }

    /// The parsed catalog for a source, by its content hash (the ETag prefix).
    private func catalog(at path: String, etag: String) throws -> AssetCatalog {
        let key = "\(path)#\(etag.prefix { $0 != "-" })"
        if let catalog = catalogs.withLock({ $0[key] }) { return catalog }
        let catalog = try AssetCatalog(path: path)
        keep(catalog, as: key)
        return catalog
    }
}
