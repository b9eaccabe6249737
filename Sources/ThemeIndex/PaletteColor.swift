import JSON
import SQLite
import ThemeVocabulary

/// One colour of a resolved palette, as the palette's answer shows it: the colour and its traits
/// already written as JSON members, and what depends on the request (the fallbacks taken, the
/// theme and source it came from). A palette reads only the columns it shows, and the part a
/// parent gives every brand's palette is kept written (`IndexReader.parentPalettes`).
public struct PaletteColor: Sendable {
    public var name: String
    public var gamut: Gamut
    /// `"colorSpace":...,"traits":{...}` (`ColorJSON`), to be appended to the colour's object.
    public var members: [UInt8]
    public var theme: String
    public var fallbacks: [String]
    public var sourcePath: String
    public var localization: String?

    /// The columns a palette's query selects, beside what its ORDER BY reads: the traits its
    /// provenance is told from, and the colour as it is shown, written when it was indexed.
    static let columns = """
        v.name, v.theme_id, v.source_id, v.idiom, v.scale, v.gamut, v.direction, v.luminosity, v.contrast, v.appearance_name, \
        v.locale, v.shown, s.path AS source_path
        """

    /// A resolution made elsewhere (a design token's colour resolved when asked).
    init(_ resolution: Resolution) {
        self.init(name: resolution.variant.name, gamut: resolution.variant.traits.gamut, members: ColorJSON.shown(resolution.variant),
                  theme: resolution.theme, fallbacks: resolution.fallbacks, sourcePath: resolution.source.path,
                  localization: resolution.localization)
    }

    /// A row of the palette's query (`columns`), the best of its name in its theme.
    init(row: Row, chain: [ThemeInfo], request: TraitRequest, plan: LocalizationPlan) throws {
        typealias Column = VariantRecord.Columns
        let name = try row.string(Column.name)
        let themeID = try row.int64(Column.themeID), sourceID = try row.int64(Column.sourceID)
        var traits = VariantTraits()
        traits.idiom = Idiom(try row.int(Column.idiom))
        traits.scale = try row.int(Column.scale)
        traits.gamut = Gamut(try row.int(Column.gamut))
        traits.direction = LayoutDirection(try row.int(Column.direction))
        traits.appearance = try VariantRecord.appearance(in: row)
        traits.locale = try row.string(Column.locale)
        let found = IndexReader.provenance(of: Variant(kind: .color, name: name, traits: traits), themeID: themeID, sourceID: sourceID,
                                           chain: chain, request: request, plan: plan)
        self.init(name: name, gamut: traits.gamut, members: try row.blob(Column.shown), theme: found.theme, fallbacks: found.fallbacks,
                  sourcePath: try row.string("source_path"), localization: found.localization)
    }

    /// Whether `other` came from the same theme and source by the same fallbacks and
    /// localization: its provenance is written the same.
    public func hasSameProvenance(as other: PaletteColor) -> Bool {
        theme == other.theme && sourcePath == other.sourcePath && fallbacks == other.fallbacks && localization == other.localization
    }

    private init(name: String, gamut: Gamut, members: [UInt8], theme: String, fallbacks: [String], sourcePath: String, localization: String?) {
        (self.name, self.gamut, self.members) = (name, gamut, members)
        (self.theme, self.fallbacks, self.sourcePath, self.localization) = (theme, fallbacks, sourcePath, localization)
    }
}

/// What merging a chain's palettes needs of each of their entries (`IndexReader.merged`).
protocol PaletteEntry {
    var name: String { get }
    var gamut: Gamut { get }
}

extension PaletteColor: PaletteEntry {}

extension Resolution: PaletteEntry {
    var name: String { variant.name }
    var gamut: Gamut { variant.traits.gamut }
}
