import BinaryReading
import BOM
import Caching
import Codecs
import Synchronization
import ThemeVocabulary

/// A compiled asset catalog (`.car`), read without any Apple API.
///
/// Opening parses the structure (header, key format, facets, appearances, every rendition's
/// header and content kind); pixels are decoded on demand by `image(for:)`. A rendition that cannot
/// be parsed is listed in `renditionErrors` and the others are still available; only a file that
/// is not a catalog at all makes `init` throw.
public final class AssetCatalog: Sendable {
    public let path: String
    public let store: BOMStore
    public let header: CatalogHeader
    public let metadata: ExtendedMetadata?
    public let keyFormat: KeyFormat
    /// Asset names by facet identifier.
    public let facetNames: [Int: String]
    /// Appearance names by id (attribute 7).
    public let appearanceNames: [Int: String]
    /// Localization names by id (attribute 13), from LOCALIZATIONKEYS when present.
    public let localizationNames: [Int: String]
    /// The BITMAPKEYS tree: per facet identifier, the values each key attribute takes.
    public let bitmapKeySummaries: [BitmapKeySummary]
    public var bitmapKeyCount: Int { bitmapKeySummaries.count }
    public let renditions: [Rendition]
    /// Renditions (or optional trees) that could not be read; the rest of the catalog is fine.
    public let renditionErrors: [CatalogError]
    /// Named colours of the legacy COLORS tree (macOS system themes).
    public let legacyColors: [LegacyColor]
    private let renditionIndexByKey: [[UInt16]: Int]

    /// Which atlas of which open catalog a decoded bitmap is.
    public struct AtlasKey: Hashable, Sendable {
        var catalog: Int
        var rendition: Int
    }

    /// Decoded packed atlases of every open catalog, within one byte budget: many links share an
    /// atlas, so it is decoded once while it stays in the cache.
    public static let decodedAtlases = BoundedCache<AtlasKey, Bitmap>(name: "atlases", capacityBytes: 128 << 20) { $0.pixels.count }
    private static let serials = Atomic<Int>(0)
    /// Tells this catalog's atlases from those of another catalog (or another generation of the
    /// same file) in `decodedAtlases`.
    private let serial = AssetCatalog.serials.wrappingAdd(1, ordering: .relaxed).newValue

    /// Opens and parses the catalog at `path` (memory-mapped).
    public convenience init(path: String) throws {
        let storage: ByteStorage
        do { storage = try ByteStorage(mapping: path) } catch { throw CatalogError(file: path, error) }
        try self.init(ByteSpan(storage), path: path)
    }

    /// Parses catalog bytes; `path` names them in errors.
    public init(_ file: ByteSpan, path: String) throws {
        self.path = path
        let store: BOMStore
        do {
            store = try BOMStore(file)
            guard let headerBlock = try store.variable("CARHEADER") else { throw FormatError("BOM vars", at: store.header.varsOffset, "no CARHEADER variable") }
            header = try CatalogHeader(headerBlock)
            metadata = try store.variable("EXTENDED_METADATA").map(ExtendedMetadata.init)
            guard let keyFormatBlock = try store.variable("KEYFORMAT") else { throw FormatError("BOM vars", at: store.header.varsOffset, "no KEYFORMAT variable") }
            keyFormat = try KeyFormat(keyFormatBlock, workaround: try store.variable("KEYFORMATWORKAROUND"))
        } catch {
            throw CatalogError(file: path, error, fileBytes: file.count)
        }
        self.store = store
        let attributeIDs = keyFormat.attributeIDs

        var errors: [CatalogError] = []
        func optionalTree(_ name: String, inlineKeys: Bool = false, _ body: (BOMTree.Item) throws -> Void) {
            do {
                try store.tree(name, inlineKeys: inlineKeys)?.forEach(body)
            } catch {
                errors.append(CatalogError(file: path, rendition: nil, FormatError("\(name) tree", at: 0, "\(error)")))
            }
        }

        var facets: [Int: String] = [:]
        optionalTree("FACETKEYS") { item in
            let name = item.key.utf8String
            let count = Int(try item.value.u16le(4))
            for index in 0..<count where try item.value.u16le(6 + 4 * index) == UInt16(RenditionAttribute.identifier.rawValue) {
                facets[Int(try item.value.u16le(8 + 4 * index))] = name
            }
        }
        facetNames = facets

        var appearances: [Int: String] = [:]
        optionalTree("APPEARANCEKEYS") { item in
            appearances[Int(try item.value.u16le(0))] = item.key.utf8String
        }
        appearanceNames = appearances

        // Never seen in real files; parsed like APPEARANCEKEYS (name -> u16 id), defensively.
        var localizations: [Int: String] = [:]
        optionalTree("LOCALIZATIONKEYS") { item in
            localizations[Int(try item.value.u16le(0))] = item.key.utf8String
        }
        localizationNames = localizations

        var bitmapKeys: [BitmapKeySummary] = []
        optionalTree("BITMAPKEYS", inlineKeys: true) { item in
            bitmapKeys.append(try BitmapKeySummary(identifier: Int(item.inlineKey), value: item.value))
        }
        bitmapKeySummaries = bitmapKeys

        var legacy: [LegacyColor] = []
        optionalTree("COLORS") { item in legacy.append(try LegacyColor(key: item.key, value: item.value)) }
        legacyColors = legacy

        var parsed: [Rendition] = []
        var byKey: [[UInt16]: Int] = [:]
        var position = 0
        optionalTree("RENDITIONS") { item in
            defer { position += 1 }
            let keySpan = item.key.named("rendition key")
            guard keySpan.count == attributeIDs.count * 2 else {
                errors.append(CatalogError(file: path, rendition: "#\(position)",
                                           keySpan.error(at: 0, "key of \(keySpan.count) bytes, KEYFORMAT has \(attributeIDs.count) attributes")))
                return
            }
            var values: [UInt16] = []
            for index in 0..<attributeIDs.count { values.append(try keySpan.u16le(index * 2)) }
            let key = RenditionKey(values: values, attributeIDs: attributeIDs)
            do {
                var rendition = try Rendition(index: position, key: key, value: item.value)
                if let facet = facets[key.identifier], key.identifier != 0 { rendition.name = facet }
                byKey[values] = parsed.count
                parsed.append(rendition)
            } catch {
                errors.append(CatalogError(file: path, rendition: "#\(position)", error))
            }
        }
        renditions = parsed
        renditionIndexByKey = byKey
        renditionErrors = errors
    }

    /// The rendition at a position of the RENDITIONS tree (see `Rendition.index`).
    public func rendition(atPosition position: Int) -> Rendition? {
        var low = 0, high = renditions.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let index = renditions[middle].index
            if index == position { return renditions[middle] }
            if index < position { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// The appearance name of a rendition ("UIAppearanceDark"), or its number when the catalog has
    /// no name for it; nil for appearance 0 without a name ("any").
    public func appearanceName(of rendition: Rendition) -> String? {
        let id = rendition.key.appearance
        return appearanceNames[id] ?? (id == 0 ? nil : String(id))
    }

    /// The localization a rendition is for (a LOCALIZATIONKEYS name, or the id), nil when not localized.
    public func localizationName(of rendition: Rendition) -> String? {
        let id = rendition.key.localization
        return id == 0 ? nil : localizationNames[id] ?? String(id)
    }

    // MARK: - Images

    /// What an image rendition decodes to.
    public enum Image: Sendable {
        case bitmap(Bitmap)
        /// Bytes served as they are (PDF, SVG, JPEG, HEIC, data), with the sniffed format.
        case data([UInt8], ImageFormat?)
    }

    /// Decodes the image or data of `rendition`, following internal links into their atlas.
    public func image(for rendition: Rendition) throws -> Image {
        do {
            switch rendition.content {
            case .bitmap:
                return .bitmap(try bitmap(for: rendition))
            case .link(let link):
                return .bitmap(try crop(link, of: rendition))
            case .rawData(let bytes, let compressed):
                let data = compressed ? try LZFSE.decompress(bytes.buffer) : bytes.bytes
                return .data(data, ImageFormat.sniff(data))
            default:
                throw UnsupportedRendition(reason: "\(rendition.assetType.lowercased()) renditions hold no image")
            }
        } catch let error as UnsupportedRendition {
            throw error
        } catch let error as CatalogError {
            throw error
        } catch {
            throw CatalogError(file: path, rendition: rendition.header.name, error)
        }
    }

    /// About the most memory `image(for:)` needs at once for `rendition`: a bitmap's chunks and
    /// the pixels they are joined into, a link's atlas unless it is decoded already, data as
    /// decompressed. An estimate from headers alone, for budgeting decodes before they start.
    public func decodingCost(of rendition: Rendition) -> Int {
        func pixelBytes(_ width: Int, _ height: Int, _ bytesPerPixel: Int = 4) -> Int {
            guard width > 0, height > 0, width <= maximumDecodedBytes / height / bytesPerPixel else { return 0 }
            return width * height * bytesPerPixel
        }
        switch rendition.content {
        case .bitmap:
            return 2 * pixelBytes(rendition.header.width, rendition.header.height, max(rendition.header.bytesPerPixel ?? 4, 4))
        case .link(let link):
            let crop = pixelBytes(link.width, link.height)
            guard let atlas = try? target(of: link), !Self.decodedAtlases.contains(AtlasKey(catalog: serial, rendition: atlas.index)) else { return crop }
            return crop + 2 * pixelBytes(atlas.header.width, atlas.header.height, max(atlas.header.bytesPerPixel ?? 4, 4))
        case .rawData(let bytes, let compressed):
            return compressed ? ((try? LZFSE.decompressedLength(bytes.buffer)) ?? bytes.count) : 0
        default:
            return 0
        }
    }

    /// Decodes a CELM bitmap, caching atlases since many links share one.
    private func bitmap(for rendition: Rendition) throws -> Bitmap {
        guard rendition.isPackedAtlas else { return try CELM.decode(rendition) }
        let key = AtlasKey(catalog: serial, rendition: rendition.index)
        if let cached = Self.decodedAtlases.value(for: key) { return cached }
        let bitmap = try CELM.decode(rendition)
        Self.decodedAtlases.insert(bitmap, for: key)
        return bitmap
    }

    deinit {
        let serial = self.serial
        Self.decodedAtlases.removeAll { $0.catalog == serial }
    }

    /// Bytes of the file this catalog reads (mapped, so they are in memory once touched).
    public var fileSize: Int { store.file.count }

    /// The rendition an internal link points at.
    public func target(of link: InternalLink) throws -> Rendition {
        var values = [UInt16](repeating: 0, count: keyFormat.attributeIDs.count)
        for (attribute, value) in link.keyAttributes {
            guard let position = keyFormat.attributeIDs.firstIndex(of: attribute) else {
                throw FormatError("internal link", at: 0, "link key names attribute \(attribute), which KEYFORMAT lacks")
            }
            values[position] = value
        }
        guard let index = renditionIndexByKey[values] else {
            throw FormatError("internal link", at: 0, "no rendition has the linked key \(values)")
        }
        return renditions[index]
    }

    /// Cuts a link's rectangle out of its atlas. The rectangle's `y` counts from the bottom.
    private func crop(_ link: InternalLink, of rendition: Rendition) throws -> Bitmap {
        let atlas = try target(of: link)
        guard atlas.isPackedAtlas, case .bitmap = atlas.content else {
            throw FormatError("internal link", at: 0, "link target '\(atlas.header.name)' is not a packed atlas (layout \(atlas.header.layout.rawValue))")
        }
        let pixels = try bitmap(for: atlas)
        let top = pixels.height - link.y - link.height
        guard let cropped = pixels.cropped(x: link.x, y: top, width: link.width, height: link.height) else {
            throw FormatError("internal link", at: 0, "rectangle \(link.x),\(link.y) \(link.width)x\(link.height) leaves the \(pixels.width)x\(pixels.height) atlas")
        }
        return cropped
    }

    // MARK: - Colours

    /// Every named colour rendition with its value.
    public var namedColors: [(rendition: Rendition, color: ColorValue)] {
        renditions.compactMap { rendition in
            if case .color(let value) = rendition.content { (rendition, value) } else { nil }
        }
    }
}

/// A colour of the legacy COLORS tree: a name and 8-bit straight B, G, R, A.
public struct LegacyColor: Sendable, Equatable {
    public var name: String
    public var color: ColorValue

    init(key: ByteSpan, value: ByteSpan) throws {
        name = try key.paddedString(4, length: key.count - 4)
        let blue = try value.u8(8), green = try value.u8(9), red = try value.u8(10), alpha = try value.u8(11)
        color = ColorValue(colorSpace: .sRGB, components: [red, green, blue, alpha].map { Double($0) / 255 })
    }
}
