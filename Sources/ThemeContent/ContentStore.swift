import AssetCatalog
import BinaryReading
import Codecs
import Foundation
import Synchronization
import ThemeIndex
import ThemeVocabulary

/// The bytes behind image and data variants, decoded once and kept within a byte budget.
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

    /// Why a variant has no bytes to serve.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    private struct Cache {
        var entries: [String: Content] = [:]
        var order: [String] = []
        var bytes = 0
    }

    public let catalogs = CatalogCache()
    private let cache = Mutex(Cache())
    public let capacityBytes: Int

    public init(capacityBytes: Int = 256 << 20) {
        self.capacityBytes = capacityBytes
    }

    /// The content of a resolved image or data variant, mirrored when the resolution says so.
    public func content(of resolution: Resolution) throws -> Content {
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
