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

    /// The content of a resolved image or data variant.
    public func content(of resolution: ThemeIndex.Resolution) throws -> Content {
        let key = resolution.variant.etag
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
        if resolution.sourceKind == ThemeFolder.SourceKind.xcassets.rawValue {
            let storage = try ByteStorage(mapping: variant.location)
            let bytes = Array(storage.buffer)
            return Content(bytes: bytes, contentType: ImageFormat.sniff(bytes)?.mimeType ?? "application/octet-stream")
        }
        let catalog = try catalog(at: resolution.sourcePath, etag: variant.etag)
        guard let position = Int(variant.location), let rendition = catalog.rendition(atPosition: position) else {
            throw ThemeError("\(resolution.sourcePath): rendition \(variant.location) is gone")
        }
        switch try catalog.image(for: rendition) {
        case .bitmap(let bitmap):
            return Content(bytes: PNG.encode(bitmap), contentType: ImageFormat.png.mimeType)
        case .data(let bytes, let format):
            return Content(bytes: bytes, contentType: format?.mimeType ?? "application/octet-stream")
        }
    }

    /// The parsed catalog for a source, reopened when its content hash (the ETag prefix) changes.
    private func catalog(at path: String, etag: String) throws -> AssetCatalog {
        let key = "\(path)#\(etag.prefix { $0 != "-" })"
        if let catalog = catalogs.withLock({ $0[key] }) { return catalog }
        let catalog = try AssetCatalog(path: path)
        catalogs.withLock { catalogs in
            catalogs = catalogs.filter { !$0.key.hasPrefix("\(path)#") }
            catalogs[key] = catalog
        }
        return catalog
    }
}
