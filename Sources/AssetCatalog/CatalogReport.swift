import Codecs
import JSON

/// A listing of a catalog in the shape of Apple's `assetutil --info`: an array whose first
/// element describes the catalog and whose other elements describe one rendition each.
///
/// Beyond assetutil's keys, each rendition says whether its content `Decoded` and, when not, the
/// `Error`, so that a listing is also a health check of the reader on that file.
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
        if key.state != 0 { members.append(("State", .int(key.state))) }
        if let localization = catalog.localizationName(of: rendition) { members.append(("Localization", .string(localization))) }
        members += [
            ("PixelWidth", .int(header.width)),
            ("PixelHeight", .int(header.height)),
            ("Layout", .int(header.layout.rawValue)),
            ("SizeOnDisk", .int(rendition.sizeOnDisk)),
        ]
        if !header.pixelFormat.isEmpty { members.append(("Encoding", .string(header.pixelFormat.trimmingCharacters(in: " ")))) }
        if header.isTemplate { members.append(("Template Mode", .string("template"))) }
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
            if compressed { members.append(("Compression", .string("lzfse"))) }
        case .multisize(let sizes):
            members.append(("Sizes", .array(sizes.map { .string("\($0.width)x\($0.height) index:\($0.index)") })))
        case .unknown(let tag):
            decoded = false
            error = "unknown payload tag '\(tag)'"
        case .effect, .gradient, .namedGradient, .empty:
            break
        }
        if decodeImages && isImage(rendition) {
            do {
                if case .data(let bytes, let format) = try catalog.image(for: rendition) {
                    members.append(("UTI", .string(format?.rawValue ?? "data")))
                    members.append(("DataLength", .int(bytes.count)))
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
