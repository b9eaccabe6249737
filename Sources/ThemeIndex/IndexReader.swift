import Caching
import Foundation
import SQLite
import ThemeBundle
import ThemeVocabulary

/// Lookups by trait (lookup-rules.md 4 and 6) and listings, each on a read connection of its own
/// from the pool, so concurrent requests never queue on one lock.
public final class IndexReader: Sendable {
    let pool: DatabasePool
    /// The palettes of themes that are others' parents, by query and generation: a platform's
    /// base is the parent of every brand, and its part of each brand's palette is the same.
    public let parentPalettes = BoundedCache<ParentPalette, [PaletteColor]>(name: "palettes", capacityBytes: 16 << 20) { palette in
        palette.reduce(0) { $0 + $1.members.count + 256 }
    }
    /// The resolutions of design tokens made when asked (a resolver past what a sync stores).
    public let tokenResolutions = TokenResolutions()

    public struct ParentPalette: Hashable, Sendable {
        var sql: String
        var parameters: [SQLiteValue]
        var generation: Generation
        var depth: Int
    }

    init(pool: DatabasePool) {
        self.pool = pool
    }

    // MARK: - Themes

    /// Every theme, with the counts of the names it answers (its own and its ancestors', as its
    /// detail lists them) as the sync that changed it stored them.
    public func themes() throws -> [ThemeInfo] {
        try pool.read { database in try database.readTransaction {
            let records = try database.prepare("SELECT * FROM theme ORDER BY name").rows().map(ThemeRecord.init(row:))
            // Every source in one statement: one a theme cost a platform of 10,000 a statement each.
            let sources = Dictionary(grouping: try database.prepare("SELECT * FROM source ORDER BY theme_id, rank").rows().map(SourceRecord.init(row:)),
                                     by: \.themeID)
            return records.map { theme in ThemeInfo(theme, sources: sources[theme.id] ?? []) }
        } }
    }

    /// The themes named that the index holds, by name: what a sync of one theme may have changed
    /// (`SyncReport.touchedThemes`), read without the platform's thousands of others.
    public func themes(named names: Set<String>) throws -> [ThemeInfo] {
        try pool.read { database in try database.readTransaction {
            let theme = try database.cachedStatement("SELECT * FROM theme WHERE name = ?1")
            let sources = try database.cachedStatement("SELECT * FROM source WHERE theme_id = ?1 ORDER BY rank")
            return try names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { name in
                guard let record = try theme.rows([.text(name)]).first.map(ThemeRecord.init(row:)) else { return nil }
                return ThemeInfo(record, sources: try sources.rows([.integer(record.id)]).map(SourceRecord.init(row:)))
            }
        } }
    }

    /// A persisted setting (the active theme).
    public func setting(_ key: String) throws -> String? {
        try pool.read { try $0.prepare("SELECT value FROM meta WHERE key = ?1").rows([.text(key)]).first?.string("value") }
    }

    /// Every setting whose key starts with `prefix`, by key, the prefix dropped.
    public func settings(withPrefix prefix: String) throws -> [(key: String, value: String)] {
        try pool.read { database in
            try database.prepare("SELECT key, value FROM meta WHERE substr(key, 1, ?2) = ?1 ORDER BY key").rows([.text(prefix), .integer(Int64(prefix.utf8.count))])
                .map { row in (String(try row.string("key").dropFirst(prefix.count)), try row.string("value")) }
        }
    }

    // MARK: - Lookups

    /// The best catalog variant of `name` for `request` (lookup-rules.md 4.4 and 6), searching
    /// the theme chain nearest first. One indexed query.
    public func resolve(_ kind: AssetKind, named name: String, in chain: [ThemeInfo], for request: TraitRequest) throws -> Resolution? {
        if kind == .color, let resolved = try resolvedOnDemand(in: chain, for: request) {
            var defaults = request
            defaults.contexts = ""
            let indexed = try resolve(kind, named: name, in: chain, for: defaults, plan: LocalizationPlan(chain: chain, languages: request.languages))
            return resolved.preferred(resolved.best(named: name, for: request), over: indexed, for: request)
        }
        return try resolve(kind, named: name, in: chain, for: request, plan: LocalizationPlan(chain: chain, languages: request.languages))
    }

    private func resolve(_ kind: AssetKind, named name: String, in chain: [ThemeInfo], for request: TraitRequest, plan: LocalizationPlan) throws -> Resolution? {
        try resolve(LookupQuery(kind: kind, name: name, chain: chain, request: request, localization: plan), chain: chain,
                    request: request, plan: plan)
    }

    /// An image by name, where a catalog's image (or data) and a bundle's loose file compete:
    /// inside one theme the catalog answers first (lookup-rules.md 5, T5); a loose file answers
    /// when no catalog variant is acceptable (T6), when it comes from a nearer theme, or when the
    /// catalog's answer is only the sRGB-to-P3 last resort (6, "Combining").
    public func resolveImage(named name: String, in chain: [ThemeInfo], for request: TraitRequest) throws -> Resolution? {
        let plan = LocalizationPlan(chain: chain, languages: request.languages)
        let catalog = try resolve(.image, named: name, in: chain, for: request, plan: plan) ?? resolve(.data, named: name, in: chain, for: request, plan: plan)
        let file = try resolveFile(named: name, in: chain, for: request, plan: plan)
        guard let catalog, let file else { return catalog ?? file }
        let lastResort = catalog.variant.kind != .data && Self.missesGamut(catalog, request)
        return file.depth < catalog.depth || lastResort ? file : catalog
    }

    /// The best loose file of the bundles for `name` (lookup-rules.md 3.3): `icon` or
    /// `Posters/poster`, or with an image extension (`photo.jpg`) to ask for that format only.
    public func resolveFile(named name: String, in chain: [ThemeInfo], for request: TraitRequest) throws -> Resolution? {
        try resolveFile(named: name, in: chain, for: request, plan: LocalizationPlan(chain: chain, languages: request.languages))
    }

    private func resolveFile(named name: String, in chain: [ThemeInfo], for request: TraitRequest, plan: LocalizationPlan) throws -> Resolution? {
        let name = name.precomposedStringWithCanonicalMapping
        var base = name, fileExtension = ""
        if let dot = name.lastIndex(of: "."), ResourceFileName.imageExtensions.contains(name[name.index(after: dot)...].lowercased()) {
            base = String(name[..<dot])
            fileExtension = name[name.index(after: dot)...].lowercased()
        }
        let query = LookupQuery(fileNamed: base, fileExtension: fileExtension, chain: chain, request: request, localization: plan)
        return try resolve(query, chain: chain, request: request, plan: plan)
    }

    /// The lookup's first ordering term: a variant for neither the requested gamut nor sRGB (which
    /// every gamut takes, as the last resort).
    static func missesGamut(_ resolution: Resolution, _ request: TraitRequest) -> Bool {
        missesGamut(resolution.variant.traits.gamut, request)
    }

    static func missesGamut(_ gamut: Gamut, _ request: TraitRequest) -> Bool {
        gamut != request.gamut && gamut != .sRGB
    }

    private func resolve(_ query: LookupQuery, chain: [ThemeInfo], request: TraitRequest, plan: LocalizationPlan) throws -> Resolution? {
        try pool.read { database in
            guard let row = try database.cachedStatement(query.sql).rows(query.parameters).first else { return nil }
            return try Self.resolution(row, chain: chain, request: request, plan: plan)
        }
    }

    /// A lookup's row as the resolution that answers: the variant, the theme of the chain it came
    /// from, where it differs from the request, and its source.
    static func resolution(_ row: Row, chain: [ThemeInfo], request: TraitRequest, plan: LocalizationPlan) throws -> Resolution {
        let record = try VariantRecord(row: row)
        let found = provenance(of: record.variant, themeID: record.themeID, sourceID: record.sourceID, chain: chain, request: request, plan: plan)
        guard let sourceKind = SourceKind(rawValue: try row.string("source_kind")) else { throw ThemeError("unknown source kind") }
        let source = SourceReference(path: try row.string("source_path"), kind: sourceKind, contentHash: try row.string("source_hash"))
        return Resolution(variant: record.variant, theme: found.theme, depth: found.depth, source: source, localization: found.localization,
                          fallbacks: found.fallbacks, requestedDirection: request.direction)
    }

    /// Where a variant a query chose came from in the chain, and where it differs from the request.
    static func provenance(of variant: Variant, themeID: Int64, sourceID: Int64, chain: [ThemeInfo], request: TraitRequest, plan: LocalizationPlan)
        -> (depth: Int, theme: String, fallbacks: [String], localization: String?) {
        let depth = chain.firstIndex { $0.id == themeID } ?? 0
        let theme = chain.indices.contains(depth) ? chain[depth].name : ""
        var fallbacks = fallbacks(variant, request: request, kind: variant.kind, depth: depth, theme: theme)
        let localization = plan.chosen[sourceID]
        if !variant.traits.locale.isEmpty, variant.traits.locale != localization { fallbacks.append("localization:\(variant.traits.locale)") }
        return (depth, theme, fallbacks, localization)
    }

    static func fallbacks(_ variant: Variant, request: TraitRequest, kind: AssetKind, depth: Int, theme: String) -> [String] {
        var fallbacks: [String] = []
        let traits = variant.traits
        if depth > 0 { fallbacks.append("theme:\(theme)") }
        if kind != .file, traits.appearance != request.appearance { fallbacks.append("appearance:\(traits.appearance.label)") }
        if (kind == .image || kind == .file) && traits.scale != request.scale { fallbacks.append("scale:\(traits.scale)") }
        if traits.idiom != request.idiom { fallbacks.append("idiom:\(traits.idiom)") }
        if traits.direction != .neutral, traits.direction != request.direction { fallbacks.append("direction:\(traits.direction)") }
        if kind != .file, traits.gamut != request.gamut { fallbacks.append("gamut:\(traits.gamut)") }
        return fallbacks
    }

    /// A name of `kinds` that differs from `name` only in case, for a 404's hint (lookup-rules.md
    /// 3.4: names are case-sensitive, so `Icon.png` is not found for `icon`).
    public func nameDifferingInCase(from name: String, kinds: [AssetKind], in chain: [ThemeInfo]) throws -> String? {
        var bindings = QueryBindings()
        let nameValue = bindings.bind(.text(name.precomposedStringWithCanonicalMapping))
        let kindList = kinds.map { bindings.bind(.text($0.rawValue)) }.joined(separator: ", ")
        let themes = bindings.themes(chain, column: "theme_id")
        let sql = """
            SELECT name FROM variant WHERE name = \(nameValue) COLLATE NOCASE AND name <> \(nameValue) AND kind IN (\(kindList))
              AND theme_id IN (\(themes.ids)) ORDER BY name LIMIT 1
            """
        return try pool.read { try $0.prepare(sql).rows(bindings.values).first?.string("name") }
    }

    /// Rows the reader's queries stepped through in full table scans so far: a request whose
    /// queries add to it costs more as the index grows.
    public var fullScanSteps: Int { pool.fullScanSteps }

    /// EXPLAIN QUERY PLAN of `sql`, on a reader connection.
    public func queryPlan(_ sql: String, _ values: [SQLiteValue] = []) throws -> [String] {
        try pool.read { try $0.queryPlan(sql, values) }
    }

    // MARK: - Listings

    /// Every variant of a kind in one theme (not its parents), by name.
    public func variants(_ kind: AssetKind, in theme: ThemeInfo, named name: String? = nil) throws -> [Variant] {
        var sql = "SELECT * FROM variant WHERE theme_id = ?1 AND kind = ?2"
        var parameters: [SQLiteValue] = [.integer(theme.id), .text(kind.rawValue)]
        if let name {
            sql += " AND name = ?3"
            parameters.append(.text(name))
        }
        return try pool.read { database in
            try database.cachedStatement(sql + " ORDER BY name, source_rank, sort_key").rows(parameters).map { try VariantRecord(row: $0).variant }
        }
    }

    /// Every variant of one theme (not its parents) that has bytes to serve (images, data, loose
    /// files), each as the resolution that serves it as stored: what the content store warms and
    /// what blob collection keeps.
    public func storedContent(of theme: ThemeInfo, kind: AssetKind? = nil, named name: String? = nil) throws -> [Resolution] {
        try pool.read { try Self.storedContent(of: theme, kind: kind, named: name, in: $0) }
    }

    /// The same of every theme in `themes`, in one read: a reload asks it of each theme a
    /// platform has (a read each took and left SQLite's locks 10,000 times).
    public func storedContent(of themes: [ThemeInfo]) throws -> [[Resolution]] {
        try pool.read { database in try database.readTransaction { try themes.map { try Self.storedContent(of: $0, kind: nil, named: nil, in: database) } } }
    }

    private static func storedContent(of theme: ThemeInfo, kind: AssetKind?, named name: String?, in database: Database) throws -> [Resolution] {
        let sources = Dictionary(theme.sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var sql = "SELECT * FROM variant WHERE theme_id = ?1 AND kind IN ('image', 'data', 'file')"
        var parameters: [SQLiteValue] = [.integer(theme.id)]
        if let kind, let name {
            sql += " AND kind = ?2 AND name = ?3"
            parameters += [.text(kind.rawValue), .text(name)]
        }
        let records = try database.cachedStatement(sql + " ORDER BY name, source_rank, sort_key").rows(parameters).map { try VariantRecord(row: $0) }
        return records.compactMap { record -> Resolution? in
            guard let source = sources[record.sourceID] else { return nil }
            switch record.variant.location {
            case .rendition, .file: break
            case .legacyColor, .inline: return nil
            }
            return Resolution(variant: record.variant, theme: theme.name, depth: 0,
                              source: SourceReference(path: source.path, kind: source.kind, contentHash: source.contentHash),
                              localization: nil, fallbacks: [], requestedDirection: record.variant.traits.direction)
        }
    }

    /// The distinct names of a kind across a theme chain.
    public func names(_ kind: AssetKind, in chain: [ThemeInfo]) throws -> [String] {
        var bindings = QueryBindings()
        let kindValue = bindings.bind(.text(kind.rawValue))
        let themes = bindings.themes(chain, column: "theme_id")
        let sql = "SELECT DISTINCT name FROM variant WHERE kind = \(kindValue) AND theme_id IN (\(themes.ids)) ORDER BY name"
        return try pool.read { try $0.cachedStatement(sql).rows(bindings.values).map { try $0.string("name") } }
    }
}

/// The traits a name's variants exist for across a theme chain: what a 404 names when the name
/// exists but not for the traits asked (an iOS app icon asked without an idiom).
public struct AvailableTraits: Sendable, Equatable {
    public var idioms: [Idiom] = []
    public var scales: [Int] = []
    public var appearances: [String] = []
    public var gamuts: [Gamut] = []
    /// Multisize members' sizes in points.
    public var sizes: [Int] = []
    public var subtypes: [Int] = []
    /// Localizations (`.lproj` or catalog locales), when any variant has one.
    public var languages: [String] = []
    /// The trait combinations variants exist for, first seen first: each trait's values on
    /// their own would promise a phone at 2x of 90 pt where only a pad has that size.
    public var combinations: [Combination] = []

    /// One variant's traits as a request asks for them; a size, subtype or language only where
    /// the variant has one.
    public struct Combination: Sendable, Hashable {
        public var idiom: Idiom
        public var scale: Int
        public var size: Int
        public var subtype: Int
        public var appearance: String
        public var language: String
    }

    /// At most this many combinations are named: an app icon has about 30.
    public static let combinationLimit = 50

    public var isEmpty: Bool { idioms.isEmpty }

    init(_ variants: [Variant]) {
        func distinct<T: Hashable>(_ values: [T]) -> [T] {
            var seen = Set<T>()
            return values.filter { seen.insert($0).inserted }
        }
        let traits = variants.map(\.traits)
        idioms = distinct(traits.map(\.idiom)).sorted { $0.rawValue < $1.rawValue }
        scales = distinct(traits.map(\.scale).filter { $0 > 0 }).sorted()
        appearances = distinct(traits.map(\.appearance.label))
        gamuts = distinct(traits.map(\.gamut)).sorted { $0.rawValue < $1.rawValue }
        sizes = distinct(traits.map(\.pointSize).filter { $0 > 0 }).sorted()
        subtypes = distinct(traits.map(\.subtype).filter { $0 != 0 }).sorted()
        languages = distinct(traits.map(\.locale).filter { !$0.isEmpty }).sorted()
        combinations = Array(distinct(traits.map {
            Combination(idiom: $0.idiom, scale: $0.scale, size: $0.pointSize, subtype: $0.subtype, appearance: $0.appearance.label, language: $0.locale)
        }).prefix(Self.combinationLimit))
    }
}

extension IndexReader {
    /// The traits that the variants of `kinds` named `name` exist for, in any theme of the chain.
    public func availableTraits(named name: String, kinds: [AssetKind], in chain: [ThemeInfo]) throws -> AvailableTraits {
        var variants: [Variant] = []
        for theme in chain {
            for kind in kinds { variants += try self.variants(kind, in: theme, named: name) }
        }
        return AvailableTraits(variants)
    }
}
