import SQLite
import ThemeVocabulary

/// A row of `variant`: one variant with every trait a column, so that a lookup is one query over
/// `variant_by_name` (lookup-rules.md 6).
struct VariantRecord: TableRecord {
    static let tableName = "variant"
    static let insertion = Insertion<Self>()

    enum Columns: String, ColumnDefinition {
        case id, themeID = "theme_id", sourceID = "source_id", sourceRank = "source_rank", kind, name
        case idiom, scale, subtype, sizeHorizontal = "size_h", sizeVertical = "size_v", memoryGB = "memory_gb", graphics
        case gamut, direction, deploymentTarget = "dt", luminosity, contrast, appearanceName = "appearance_name"
        case locale, fileExtension = "ext", platform, pointSize = "point_size"
        case colorSpace = "color_space", components, systemColor = "system_color"
        case pixelWidth = "pixel_width", pixelHeight = "pixel_height", format
        case locationKind = "location_kind", location, contentKey = "content_key", flippable, sortKey = "sort_key"
        case aliasOf = "alias_of", tokenColor = "token_color", contexts
        /// A colour and its traits as a resolved palette shows them (`ColorJSON.shown`); empty for
        /// other kinds.
        case shown

        var definition: String {
            switch self {
            case .id: "INTEGER PRIMARY KEY"
            case .themeID: "INTEGER NOT NULL REFERENCES theme(id) ON DELETE CASCADE"
            case .sourceID: "INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE"
            case .sourceRank: "INTEGER NOT NULL"
            case .kind, .name, .locationKind, .location, .contentKey, .sortKey: "TEXT NOT NULL"
            case .aliasOf, .tokenColor, .contexts: "TEXT NOT NULL DEFAULT ''"
            case .idiom, .scale, .subtype, .sizeHorizontal, .sizeVertical, .memoryGB, .graphics, .gamut, .direction, .deploymentTarget,
                 .luminosity, .contrast, .pixelWidth, .pixelHeight, .flippable, .pointSize:
                "INTEGER NOT NULL DEFAULT 0"
            case .appearanceName, .locale, .fileExtension, .platform, .colorSpace, .components, .systemColor, .format:
                "TEXT NOT NULL DEFAULT ''"
            case .shown: "BLOB NOT NULL DEFAULT x''"
            }
        }
    }

    var themeID: Int64
    var sourceID: Int64
    var sourceRank: Int
    var variant: Variant

    init(themeID: Int64, sourceID: Int64, sourceRank: Int, variant: Variant) {
        (self.themeID, self.sourceID, self.sourceRank, self.variant) = (themeID, sourceID, sourceRank, variant)
    }

    /// Reads the columns in the table's order, the order a row lists them in (see `Row`).
    init(row: Row) throws {
        let id = try row.int64(Columns.id)
        themeID = try row.int64(Columns.themeID)
        sourceID = try row.int64(Columns.sourceID)
        sourceRank = try row.int(Columns.sourceRank)
        let kindName = try row.string(Columns.kind)
        guard let kind = AssetKind(rawValue: kindName) else { throw RecordError(Self.tableName, "unknown kind \(kindName)") }
        let name = try row.string(Columns.name)
        var traits = VariantTraits()
        traits.idiom = Idiom(try row.int(Columns.idiom))
        traits.scale = try row.int(Columns.scale)
        traits.subtype = try row.int(Columns.subtype)
        traits.sizeClassHorizontal = SizeClass(try row.int(Columns.sizeHorizontal))
        traits.sizeClassVertical = SizeClass(try row.int(Columns.sizeVertical))
        traits.memoryGB = try row.int(Columns.memoryGB)
        traits.graphics = try row.int(Columns.graphics)
        traits.gamut = Gamut(try row.int(Columns.gamut))
        traits.direction = LayoutDirection(try row.int(Columns.direction))
        traits.deploymentTarget = try row.int(Columns.deploymentTarget)
        traits.appearance = try Self.appearance(in: row)
        traits.locale = try row.string(Columns.locale)
        traits.fileExtension = try row.string(Columns.fileExtension)
        traits.platform = try row.string(Columns.platform)
        traits.pointSize = try row.int(Columns.pointSize)
        variant = Variant(kind: kind, name: name, traits: traits)
        variant.id = id
        if kind == .color { try Self.readColor(of: &variant, from: row) }
        variant.pixelWidth = try row.int(Columns.pixelWidth)
        variant.pixelHeight = try row.int(Columns.pixelHeight)
        variant.format = try row.string(Columns.format)
        variant.location = try Self.location(kind: try row.string(Columns.locationKind), value: try row.string(Columns.location))
        variant.contentKey = try row.string(Columns.contentKey)
        variant.isFlippable = try row.bool(Columns.flippable)
        variant.sortKey = try row.string(Columns.sortKey)
        variant.aliasOf = try row.string(Columns.aliasOf)
        variant.tokenColor = try row.string(Columns.tokenColor)
        variant.contexts = try row.string(Columns.contexts)
    }

    /// The appearance of a row's three columns (of a whole row, or of a palette's).
    static func appearance(in row: Row) throws -> Appearance {
        Appearance(Luminosity(rawValue: try row.int(Columns.luminosity)) ?? .other,
                   highContrast: try row.bool(Columns.contrast), name: try row.string(Columns.appearanceName))
    }

    /// A colour variant's value, or the system colour it names, from its row.
    static func readColor(of variant: inout Variant, from row: Row) throws {
        let spaceName = try row.string(Columns.colorSpace)
        guard let space = ColorSpace(storedName: spaceName) else { throw RecordError(Self.tableName, "unknown colour space \(spaceName)") }
        variant.color = ColorValue(colorSpace: space, components: Self.numbers(try row.string(Columns.components)))
        let systemColor = try row.string(Columns.systemColor)
        variant.systemColor = systemColor.isEmpty ? nil : systemColor
    }

    func value(of column: Columns) -> SQLiteValue {
        let traits = variant.traits
        switch column {
        case .id: return .integer(variant.id)
        case .themeID: return .integer(themeID)
        case .sourceID: return .integer(sourceID)
        case .sourceRank: return .int(sourceRank)
        case .kind: return .text(variant.kind.rawValue)
        case .name: return .text(variant.name)
        case .idiom: return .int(traits.idiom.rawValue)
        case .scale: return .int(traits.scale)
        case .subtype: return .int(traits.subtype)
        case .sizeHorizontal: return .int(traits.sizeClassHorizontal.rawValue)
        case .sizeVertical: return .int(traits.sizeClassVertical.rawValue)
        case .memoryGB: return .int(traits.memoryGB)
        case .graphics: return .int(traits.graphics)
        case .gamut: return .int(traits.gamut.rawValue)
        case .direction: return .int(traits.direction.rawValue)
        case .deploymentTarget: return .int(traits.deploymentTarget)
        case .luminosity: return .int(traits.appearance.luminosity.rawValue)
        case .contrast: return .bool(traits.appearance.highContrast)
        case .appearanceName: return .text(traits.appearance.name)
        case .locale: return .text(traits.locale)
        case .fileExtension: return .text(traits.fileExtension)
        case .platform: return .text(traits.platform)
        case .pointSize: return .int(traits.pointSize)
        case .colorSpace: return .text(variant.color?.colorSpace.name ?? "")
        case .components: return .text(variant.color?.components.map { "\($0)" }.joined(separator: ",") ?? "")
        case .systemColor: return .text(variant.systemColor ?? "")
        case .pixelWidth: return .int(variant.pixelWidth)
        case .pixelHeight: return .int(variant.pixelHeight)
        case .format: return .text(variant.format)
        case .locationKind, .location:
            let (kind, value) = Self.stored(variant.location)
            return .text(column == .locationKind ? kind : value)
        case .contentKey: return .text(variant.contentKey)
        case .flippable: return .bool(variant.isFlippable)
        case .sortKey: return .text(variant.sortKey)
        case .aliasOf: return .text(variant.aliasOf)
        case .tokenColor: return .text(variant.tokenColor)
        case .contexts: return .text(variant.contexts)
        case .shown: return .blob(variant.kind == .color ? ColorJSON.shown(variant) : [])
        }
    }

    /// The numbers of a comma-separated list, split by bytes: splitting by Character walks
    /// grapheme clusters, and an export or a listing reads thousands of these a request.
    static func numbers(_ list: String) -> [Double] {
        let bytes = list.utf8
        var numbers: [Double] = []
        numbers.reserveCapacity(4)
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.endIndex
            if let number = Double(Substring(bytes[start..<end])) { numbers.append(number) }
            start = end < bytes.endIndex ? bytes.index(after: end) : end
        }
        return numbers
    }

    /// A content location as its two columns.
    static func stored(_ location: ContentLocation) -> (kind: String, value: String) {
        switch location {
        case .rendition(let index): ("rendition", String(index))
        case .legacyColor(let index): ("legacy-color", String(index))
        case .file(let path): ("file", path)
        case .inline: ("inline", "")
        }
    }

    static func location(kind: String, value: String) throws -> ContentLocation {
        switch (kind, Int(value)) {
        case ("rendition", let index?): return .rendition(index)
        case ("legacy-color", let index?): return .legacyColor(index)
        case ("file", _): return .file(value)
        case ("inline", _): return .inline
        default: throw RecordError(Self.tableName, "unknown content location \(kind) \(value)")
        }
    }
}
