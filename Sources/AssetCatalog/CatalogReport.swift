import BinaryReading
import Codecs
import Hashing
import JSON
import ThemeVocabulary

/// A listing of a catalog in the shape of Apple's `assetutil --info`: an array whose first
/// element describes the catalog and whose other elements describe one rendition each.
///
/// The fields and their spellings follow car-format.md section 10. Beyond assetutil's keys, each
/// rendition says whether its content `Decoded` and, when not, the `Error`, so that a listing is
/// also a health check of the reader on that file (`Hex`, `Format`, `LinkRectangle` are ours too).
public struct CatalogReport {
    public let catalog: AssetCatalog
    /// Decode every image while listing (slower; needed for `Decoded`).
    public var decodeImages: Bool

    public init(_ catalog: AssetCatalog, decodeImages: Bool = true) {
        self.catalog = catalog
        self.decodeImages = decodeImages
    }

    public var json: JSONValue {
        .array([headerObject] + catalog.renditions.map(renditionObject) + catalog.renditionErrors.map(errorObject))
    }

    var headerObject: JSONValue {
        let header = catalog.header
        var members: [(String, JSONValue)] = [
            ("AssetStorageVersion", .string(header.versionString)),
            ("CoreUIVersion", .int(header.coreUIVersion)),
            ("DumpToolVersion", .string("themed 0.1")),
            ("Key Format", .array(catalog.keyFormat.attributeNames.map(JSONValue.string))),
            ("MainVersion", .string(header.mainVersionString)),
            ("RenditionCount", .int(header.renditionCount)),
            ("BitmapKeyCount", .int(catalog.bitmapKeyCount)),
            ("SchemaVersion", .int(header.schemaVersion)),
            ("StorageVersion", .int(header.storageVersion)),
            ("Timestamp", .int(header.storageTimestamp)),
            ("UUID", .string(header.uuid)),
        ]
        if !catalog.appearanceNames.isEmpty {
            members.append(("Appearances", .object(catalog.appearanceNames.sorted { $0.key < $1.key }.map { ($0.value, JSONValue.int($0.key)) })))
        }
        if let metadata = catalog.metadata {
            members += [
                ("Authoring Tool", .string(metadata.authoringTool)),
                ("Platform", .string(metadata.deploymentPlatform)),
                ("PlatformVersion", .string(metadata.deploymentPlatformVersion)),
                ("ThinningParameters", .string(metadata.thinningArguments)),
            ]
        }
        if !catalog.legacyColors.isEmpty {
            members.append(("LegacyColors", .array(catalog.legacyColors.map { color in
                .object([("Name", .string(color.name)), ("Color components", .array(color.color.components.map(JSONValue.double))),
                         ("Hex", .string(color.color.hex))])
            })))
        }
        return .object(members)
    }

    func renditionObject(_ rendition: Rendition) -> JSONValue {
        let header = rendition.header
        let key = rendition.key
        var members: [(String, JSONValue)] = [
            ("AssetType", .string(rendition.assetType)),
            ("Name", .string(rendition.name)),
            ("RenditionName", .string(header.name)),
            ("Idiom", .string(key.idiom.name)),
            ("Scale", .int(key.scale)),
        ]
        if let appearance = catalog.appearanceName(of: rendition) { members.append(("Appearance", .string(appearance))) }
        members.append(("DisplayGamut", .string(key.displayGamut.assetutilName)))
        if key.identifier != 0 { members.append(("NameIdentifier", .int(key.identifier))) }
        if key.subtype != 0 { members.append(("Subtype", .int(key.subtype))) }
        if key.deploymentTarget != 0 { members.append(("DeploymentTarget", .int(key.deploymentTarget))) }
        members.append(("State", Self.named(key.state, Rendition.stateNames)))
        members.append(("Value", Self.named(key[.value], Rendition.valueNames)))
        if let localization = catalog.localizationName(of: rendition) { members.append(("Localization", .string(localization))) }
        // A JPEG or HEIF (or other embedded image) keeps its size in its own header; the CSI says 0.
        let embedded = Self.embeddedImage(rendition)
        let size = rendition.assetType == "Image" ? rendition.embeddedPixelSize ?? (header.width, header.height) : (header.width, header.height)
        members += [
            ("PixelWidth", .int(size.0)),
            ("PixelHeight", .int(size.1)),
            ("Layout", .int(header.layout.rawValue)),
            ("SizeOnDisk", .int(rendition.sizeOnDisk)),
            ("SHA1Digest", .string(ContentHash.of(rendition.value.buffer).hex.uppercased())),
        ]
        if !header.pixelFormat.isEmpty { members.append(("Encoding", .string(header.pixelFormat.trimmingCharacters(in: " ")))) }
        if rendition.assetType == "Image" {
            let monochrome = header.pixelFormat.hasPrefix("GA")
            members += [
                ("BitsPerComponent", .int(header.pixelFormat == "RGBW" || header.pixelFormat == "GA16" ? 16 : 8)),
                ("ColorModel", .string(monochrome ? "Monochrome" : "RGB")),
                ("Template Mode", .string(header.isTemplate ? "template" : header.flags & (1 << 4) != 0 ? "automatic" : "original")),
            ]
            if let embedded { members.append(("Opaque", .bool(ImageFormat.sniff(embedded.buffer) == .jpeg))) }
        } else if header.isTemplate {
            members.append(("Template Mode", .string("template")))
        }
        var decoded = true
        var error: String?
        switch rendition.content {
        case .bitmap(let compression):
            members.append(("Compression", .string(Compression.name(compression))))
            members.append(("Colorspace", .string(header.colorSpace.name)))
        case .color(let color):
            members.append(("Colorspace", .string(color.colorSpace.name)))
            members.append(("Color components", .array(color.components.map(JSONValue.double))))
            members.append(("Hex", .string(color.hex)))
        case .link(let link):
            members.append(("LinkRectangle", .array([.int(link.x), .int(link.y), .int(link.width), .int(link.height)])))
            if let atlas = try? catalog.target(of: link) { members.append(("LinkTarget", .string(atlas.header.name))) }
        case .rawData(_, let compressed):
            members.append(("Compression", .string(compressed ? "lzfse" : "uncompressed")))
        case .multisize(let sizes):
            // A catalog keeps one set per idiom (AppIcon for phone, for pad, ...): the set's own
            // idiom is each size's.
            members.append(("Sizes", .array(sizes.map { .string("\($0.width)x\($0.height) index:\($0.index) idiom:\(key.idiom.name)") })))
        case .unknown(let tag):
            decoded = false
            error = "unknown payload tag '\(tag)'"
        case .effect, .gradient, .namedGradient, .empty:
            break
        }
        if rendition.assetType == "Data", case .rawData = rendition.content {
            let uti = rendition.tlvs.first { $0.type == .uti }.flatMap { try? Self.utiString($0.value) }
            members.append(("UTI", .string(uti ?? "UTI-Unknown")))
        }
        if decodeImages && isImage(rendition) {
            do {
                switch try catalog.image(for: rendition) {
                case .data(let bytes, let format):
                    if rendition.assetType == "Data" {
                        members.append(("Data Length", .int(bytes.count)))
                    } else {
                        members.append(("Format", .string(format?.rawValue ?? "data")))
                    }
                case .bitmap(let bitmap):
                    if rendition.assetType == "Image" { members.append(("Opaque", .bool(bitmap.isOpaque))) }
                }
            } catch {
                decoded = false
                members.append(("Error", .string("\(error)")))
            }
        }
        if let error { members.append(("Error", .string(error))) }
        members.append(("Decoded", .bool(decoded)))
        return .object(members)
    }

    static func named(_ value: Int, _ names: [Int: String]) -> JSONValue {
        names[value].map(JSONValue.string) ?? .int(value)
    }

    /// The bytes of an image stored whole in the rendition (JPEG, HEIF, PDF, ...), when they
    /// are not compressed.
    static func embeddedImage(_ rendition: Rendition) -> ByteSpan? {
        guard rendition.assetType == "Image", case .rawData(let bytes, false) = rendition.content, ImageFormat.sniff(bytes.buffer) != nil else { return nil }
        return bytes
    }

    /// TLV 1005: `u32 byteCount` (with its NUL), `u32 0`, the UTF-8 name.
    static func utiString(_ value: ByteSpan) throws -> String {
        let count = try value.int32le(0)
        return try value.cString(8, length: min(count, value.count - 8))
    }

    func isImage(_ rendition: Rendition) -> Bool {
        switch rendition.content {
        case .bitmap, .link, .rawData: true
        default: false
        }
    }

    func errorObject(_ error: CatalogError) -> JSONValue {
        .object([("AssetType", "Unreadable"), ("Name", .string(error.rendition ?? "")), ("Error", .string(error.underlying)), ("Decoded", false)])
    }
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.last == set { text = text.dropLast() }
        while text.first == set { text = text.dropFirst() }
        return String(text)
    }
}
