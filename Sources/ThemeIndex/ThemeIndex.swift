import AssetCatalog
import BinaryReading
import Foundation
import SQLite
import Synchronization
import ThemeBundle

/// The SQLite index of every theme's variants, and lookups by trait.
///
/// `sync` brings the index up to date with the themes folder, re-parsing only sources whose size,
/// modification time or (for folders) file list changed. A source that fails to parse keeps its
/// previous rows: a broken catalog never replaces a good one. Each change to a theme bumps its
/// generation, which responses use to derive ETags and caches to invalidate themselves.
public final class ThemeIndex: Sendable {
    public let databasePath: String
    private let writer: Mutex<Database>
    let reader: Mutex<Database>

    public init(databasePath: String) throws {
        self.databasePath = databasePath
        let database = try Database(path: databasePath)
        try Schema.create(in: database)
        writer = Mutex(database)
        reader = Mutex(try Database(path: databasePath))
    }

    // MARK: - Syncing with the themes folder

    /// What one sync did, for logs and events.
    public struct SyncReport: Sendable {
        public var reindexedSources: [String] = []
        public var unchangedSources = 0
        public var changedThemes: [String] = []
        public var removedThemes: [String] = []
        public var errors: [String] = []
        /// The same errors with the theme they belong to.
        public var themeErrors: [(theme: String, message: String)] = []
        /// Problems inside sources that were indexed anyway (a malformed Info.plist, .strings or
        /// Contents.json, a link leaving the theme), reported when the source is read.
        public var problems: [(theme: String, message: String)] = []
        /// Themes seen for the first time.
        public var addedThemes: [String] = []
        /// The catalogs parsed by this sync, with their content hashes, for serving their bytes.
        public var parsedCatalogs: [(catalog: AssetCatalog, contentHash: String)] = []
    }

    /// Indexes every theme under `directory`; with `only`, just that theme.
    @discardableResult
    public func sync(themesDirectory directory: String, only: String? = nil) throws -> SyncReport {
        var report = SyncReport()
        let folders = ThemeFolder.discover(in: directory).filter { only == nil || $0.name == only }
        try writer.withLock { database in
            for folder in folders { try sync(folder, in: database, report: &report) }
            let known = Set(folders.map(\.name))
            for row in try database.prepare("SELECT id, name FROM theme").rows() {
                let name = row.string("name") ?? ""
                guard !known.contains(name), only == nil || only == name else { continue }
                try database.prepare("DELETE FROM theme WHERE id = ?1").run([.integer(Int64(row.int("id")))])
                report.removedThemes.append(name)
            }
        }
        return report
    }

    private func sync(_ folder: ThemeFolder, in database: Database, report: inout SyncReport) throws {
        let themeID = try themeRow(for: folder, in: database, report: &report)
        let stored = try database.prepare("SELECT id, path, fingerprint, rank, error FROM source WHERE theme_id = ?1").rows([.integer(themeID)])
        var storedByPath = Dictionary(uniqueKeysWithValues: stored.map { ($0.string("path") ?? "", $0) })
        var changed = false
        var errors: [String] = (folder.error.map { [$0] } ?? []) + folder.warnings
        for (rank, source) in folder.sources.enumerated() {
            let previous = storedByPath.removeValue(forKey: source.path)
            let fingerprint = Self.fingerprint(source)
            if let previous, previous.string("fingerprint") == fingerprint {
                // Unchanged: only its place among the theme's sources may have moved.
                if previous.int("rank") != rank {
                    let id = SQLiteValue.integer(Int64(previous.int("id")))
                    try database.prepare("UPDATE source SET rank = ?1 WHERE id = ?2").run([.integer(Int64(rank)), id])
                    try database.prepare("UPDATE variant SET source_rank = ?1 WHERE source_id = ?2").run([.integer(Int64(rank)), id])
                    try database.prepare("UPDATE string SET source_rank = ?1 WHERE source_id = ?2").run([.integer(Int64(rank)), id])
                }
                report.unchangedSources += 1
                if let error = previous.string("error"), !error.isEmpty { errors.append(error) }
                continue
            }
            do {
                let parsed = try Self.parse(source)
                try database.transaction {
                    var strings = parsed.strings
                    if let previous {
                        let id = SQLiteValue.integer(Int64(previous.int("id")))
                        // A .strings file that no longer parses keeps the entries it had.
                        for file in parsed.unreadableStringFiles {
                            strings += try database.prepare("SELECT tbl, key, locale, value, forms FROM string WHERE source_id = ?1 AND file = ?2")
                                .rows([id, .text(file)]).map { row in
                                    BundleVariants.StringEntry(table: row.string("tbl") ?? "", key: row.string("key") ?? "", value: row.string("value") ?? "",
                                                               locale: row.string("locale") ?? "", file: file,
                                                               forms: BundleVariants.StringEntry.decodeForms(row.string("forms") ?? ""))
                                }
                        }
                        try database.prepare("DELETE FROM source WHERE id = ?1").run([id])
                    }
                    let sourceID = try insertSource(source, parsed, themeID: themeID, rank: rank, fingerprint: fingerprint, in: database)
                    try insert(parsed.variants, themeID: themeID, sourceID: sourceID, rank: rank, in: database)
                    try insert(strings, themeID: themeID, sourceID: sourceID, rank: rank, in: database)
                }
                errors += parsed.problems
                report.problems += parsed.problems.map { (folder.name, $0) }
                report.reindexedSources.append(source.path)
                if let catalog = parsed.catalog { report.parsedCatalogs.append((catalog, parsed.contentHash)) }
                changed = true
            } catch {
                // Keep what was indexed before: the theme goes on serving its last good content.
                let message = "\(error)"
                errors.append(message)
                report.errors.append(message)
                report.themeErrors.append((folder.name, message))
                if let previous {
                    try database.prepare("UPDATE source SET error = ?1 WHERE id = ?2").run([.text(message), .integer(Int64(previous.int("id")))])
                }
            }
        }
        for (_, removed) in storedByPath {
            try database.prepare("DELETE FROM source WHERE id = ?1").run([.integer(Int64(removed.int("id")))])
            changed = true
        }
        if changed { report.problems += folder.warnings.map { (folder.name, $0) } }
        let parentChanged = try database.prepare("SELECT parent FROM theme WHERE id = ?1").rows([.integer(themeID)]).first?.string("parent") != folder.parent
        if changed || parentChanged { report.changedThemes.append(folder.name) }
        try database.prepare("""
            UPDATE theme SET path = ?1, parent = ?2, error = ?3, updated_at = ?4,
                   generation = generation + ?5 WHERE id = ?6
            """).run([.text(folder.path), folder.parent.map { .text($0) } ?? .null, .text(errors.joined(separator: "\n")),
                      .real(Date().timeIntervalSince1970), .integer(changed || parentChanged ? 1 : 0), .integer(themeID)])
    }

    private func themeRow(for folder: ThemeFolder, in database: Database, report: inout SyncReport) throws -> Int64 {
        if let row = try database.prepare("SELECT id FROM theme WHERE name = ?1").rows([.text(folder.name)]).first {
            return Int64(row.int("id"))
        }
        report.addedThemes.append(folder.name)
        try database.prepare("INSERT INTO theme (name, path, parent, generation) VALUES (?1, ?2, ?3, 1)")
            .run([.text(folder.name), .text(folder.path), folder.parent.map { .text($0) } ?? .null])
        return database.lastInsertedRowID
    }

    /// Size and modification time of a file; for folders, of every file inside; for bundles, of
    /// Info.plist, the `.lproj` folders and every resource the bundle read.
    static func fingerprint(_ source: ThemeFolder.Source) -> String {
        var hash = ContentHash()
        let paths: [String]
        switch source.kind {
        case .car: paths = [source.path]
        case .xcassets:
            let enumerator = FileManager.default.enumerator(atPath: source.path)
            paths = [source.path] + ((enumerator?.allObjects as? [String]) ?? []).sorted().map { "\(source.path)/\($0)" }
        case .bundle:
            paths = [source.path] + (source.bundle?.watchedPaths ?? [])
        }
        for path in paths {
            let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            hash.add("\(path)\0\(size)\0\(modified)\n")
        }
        return hash.hex
    }

    struct ParsedSource {
        var variants: [Variant]
        var contentHash: String
        var problems: [String]
        var catalog: AssetCatalog?
        var strings: [BundleVariants.StringEntry] = []
        /// `.strings` files that could not be read this time; their previous entries are kept.
        var unreadableStringFiles: [String] = []
        /// Bundles: what their localization choice needs.
        var bundle: BundleInfo?

        /// What the source row's `localizations` column holds: a catalog's distinct
        /// localizations; a bundle's `CFBundleLocalizations` (its `.lproj` folders have a column
        /// of their own, and `source(from:)` puts the two together again).
        var localizations: [String] {
            if let bundle { return bundle.declaredLocalizations }
            var seen = Set<String>()
            return variants.map(\.traits.locale).filter { !$0.isEmpty && seen.insert($0).inserted }.sorted()
        }
    }

    static func parse(_ source: ThemeFolder.Source) throws -> ParsedSource {
        switch source.kind {
        case .car:
            let storage = try ByteStorage(mapping: source.path)
            var hash = ContentHash()
            storage.withUnsafeBytes { hash.add($0) }
            let catalog = try AssetCatalog(ByteSpan(storage), path: source.path)
            let problems = catalog.renditionErrors.map(\.description)
            return ParsedSource(variants: CatalogVariants.variants(of: catalog, sourceKey: source.path, contentHash: hash.hex),
                                contentHash: hash.hex, problems: problems, catalog: catalog)
        case .xcassets:
            let folder = XCAssets(path: source.path)
            var hash = ContentHash()
            let variants = FolderVariants.variants(of: folder, sourceKey: source.path)
            for variant in variants { hash.add(variant.etag) }
            return ParsedSource(variants: variants, contentHash: hash.hex, problems: folder.problems)
        case .bundle:
            guard let bundle = source.bundle else { throw ThemeError("\(source.path): bundle was not read") }
            var problems = bundle.problems
            var unreadable: [String] = []
            let variants = BundleVariants.variants(of: bundle)
            let strings = BundleVariants.strings(of: bundle, problems: &problems, unreadable: &unreadable)
            var hash = ContentHash()
            for variant in variants { hash.add(variant.etag) }
            for entry in strings { hash.add("\(entry.table)\u{0}\(entry.locale)\u{0}\(entry.key)\u{0}\(entry.value)") }
            return ParsedSource(variants: variants, contentHash: hash.hex, problems: problems, strings: strings,
                                unreadableStringFiles: unreadable, bundle: bundle.info)
        }
    }

    private func insertSource(_ source: ThemeFolder.Source, _ parsed: ParsedSource, themeID: Int64, rank: Int, fingerprint: String,
                              in database: Database) throws -> Int64 {
        let attributes = (try? FileManager.default.attributesOfItem(atPath: source.path)) ?? [:]
        let bundle = parsed.bundle
        try database.prepare("""
            INSERT INTO source (theme_id, path, kind, rank, size, mtime, fingerprint, content_hash, generation, error,
              localizations, localization_folders, development_region, identifier, allow_mixed, owner)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, (SELECT generation FROM theme WHERE id = ?1), ?9, ?10, ?11, ?12, ?13, ?14, ?15)
            """).run([.integer(themeID), .text(source.path), .text(source.kind.rawValue), .integer(Int64(rank)),
                      .integer((attributes[.size] as? NSNumber)?.int64Value ?? 0),
                      .real((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0),
                      .text(fingerprint), .text(parsed.contentHash), .text(parsed.problems.joined(separator: "\n")),
                      .text(parsed.localizations.joined(separator: "\n")),
                      .text((bundle?.localizationFolders ?? []).joined(separator: "\n")),
                      bundle?.developmentRegion.map { .text($0) } ?? .null, bundle?.identifier.map { .text($0) } ?? .null,
                      .integer(bundle?.allowsMixedLocalizations == true ? 1 : 0), source.owner.map { .text($0) } ?? .null])
        return database.lastInsertedRowID
    }

    private func insert(_ strings: [BundleVariants.StringEntry], themeID: Int64, sourceID: Int64, rank: Int, in database: Database) throws {
        guard !strings.isEmpty else { return }
        let statement = try database.prepare("""
            INSERT INTO string (theme_id, source_id, source_rank, tbl, key, locale, value, file, forms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            """)
        for entry in strings {
            try statement.run([.integer(themeID), .integer(sourceID), .integer(Int64(rank)), .text(entry.table), .text(entry.key),
                               .text(entry.locale), .text(entry.value), .text(entry.file), .text(entry.encodedForms)])
        }
    }

    private func insert(_ variants: [Variant], themeID: Int64, sourceID: Int64, rank: Int, in database: Database) throws {
        let statement = try database.prepare("""
            INSERT INTO variant (theme_id, source_id, source_rank, kind, name, idiom, scale, subtype, size_h, size_v,
              memory_gb, graphics, gamut, direction, dt, luminosity, contrast, appearance_name, locale, color_space,
              components, pixel_width, pixel_height, format, location, etag, sort_key, ext, platform, flippable)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)
            """)
        for variant in variants {
            let t = variant.traits
            try statement.run([
                .integer(themeID), .integer(sourceID), .integer(Int64(rank)), .text(variant.kind.rawValue), .text(variant.name),
                .integer(Int64(t.idiom)), .integer(Int64(t.scale)), .integer(Int64(t.subtype)),
                .integer(Int64(t.sizeClassHorizontal)), .integer(Int64(t.sizeClassVertical)),
                .integer(Int64(t.memoryGB)), .integer(Int64(t.graphics)), .integer(Int64(t.gamut)),
                .integer(Int64(t.direction)), .integer(Int64(t.deploymentTarget)),
                .integer(Int64(t.appearance.luminosity.rawValue)), .integer(t.appearance.highContrast ? 1 : 0),
                .text(t.appearance.name), .text(t.locale), .text(variant.colorSpace),
                .text(variant.components.map { "\($0)" }.joined(separator: ",")),
                .integer(Int64(variant.pixelWidth)), .integer(Int64(variant.pixelHeight)), .text(variant.format),
                .text(variant.location), .text(variant.etag), .text(variant.sortKey), .text(t.fileExtension), .text(t.platform),
                .integer(variant.isFlippable ? 1 : 0),
            ])
        }
    }

    // MARK: - Themes

    /// A theme as the index knows it.
    public struct ThemeInfo: Sendable {
        public var id: Int64
        public var name: String
        public var path: String
        public var parent: String?
        public var generation: Int
        public var error: String
        public var sources: [SourceInfo]
        public var colorCount: Int
        public var imageCount: Int
        /// Loose files of its bundles, by name.
        public var fileCount: Int

        /// The theme folder read as a bundle, when it has localizations of its own: the bundle
        /// that plays the main bundle for those nested in it (lookup-rules.md 2.5).
        public var mainBundle: BundleInfo? {
            sources.first { $0.bundle?.path == path }?.bundle.flatMap { $0.hasLocalizations ? $0 : nil }
        }
    }

    /// One source of a theme as the index knows it.
    public struct SourceInfo: Sendable {
        public var id: Int64
        public var path: String
        /// `car`, `xcassets` or `bundle`.
        public var kind: String
        public var error: String
        public var contentHash: String
        /// Catalogs: their distinct localizations.
        public var localizations: [String]
        /// Bundles: Info.plist and `.lproj` folders, for choosing a localization.
        public var bundle: BundleInfo?
        /// Catalogs: the path of the bundle they were found in.
        public var owner: String?
    }

    public func themes() throws -> [ThemeInfo] {
        try reader.withLock { database in
            try database.prepare("SELECT * FROM theme ORDER BY name").rows().map { row in
                let id = Int64(row.int("id"))
                let sources = try database.prepare("SELECT * FROM source WHERE theme_id = ?1 ORDER BY rank").rows([.integer(id)]).map(Self.source)
                let counts = try database.prepare("SELECT kind, COUNT(DISTINCT name) AS n FROM variant WHERE theme_id = ?1 GROUP BY kind").rows([.integer(id)])
                func count(_ kind: AssetKind) -> Int { counts.first { $0.string("kind") == kind.rawValue }?.int("n") ?? 0 }
                return ThemeInfo(id: id, name: row.string("name") ?? "", path: row.string("path") ?? "", parent: row.string("parent"),
                                 generation: row.int("generation"), error: row.string("error") ?? "",
                                 sources: sources,
                                 colorCount: count(.color), imageCount: count(.image), fileCount: count(.file))
            }
        }
    }

    static func source(from row: Row) -> SourceInfo {
        func lines(_ column: String) -> [String] { (row.string(column) ?? "").split(separator: "\n").map(String.init) }
        let kind = row.string("kind") ?? ""
        var source = SourceInfo(id: Int64(row.int("id")), path: row.string("path") ?? "", kind: kind, error: row.string("error") ?? "",
                                contentHash: row.string("content_hash") ?? "", localizations: lines("localizations"), owner: row.string("owner"))
        if kind == ThemeFolder.SourceKind.bundle.rawValue {
            var bundle = BundleInfo(path: source.path, developmentRegion: row.string("development_region"), localizationFolders: lines("localization_folders"))
            bundle.declaredLocalizations = source.localizations
            bundle.identifier = row.string("identifier")
            bundle.allowsMixedLocalizations = row.int("allow_mixed") == 1
            source.bundle = bundle
            source.localizations = bundle.availableLocalizations
        }
        return source
    }

    /// The theme and its ancestors, nearest first. A cycle or a missing parent is an error for
    /// this theme only.
    public func chain(of name: String, in themes: [ThemeInfo]) throws -> [ThemeInfo] {
        var chain: [ThemeInfo] = []
        var next: String? = name
        while let current = next {
            guard let theme = themes.first(where: { $0.name == current }) else {
                throw ThemeError(chain.isEmpty ? "no theme named \(current)" : "\(chain.last?.name ?? name): parent theme \(current) does not exist")
            }
            guard !chain.contains(where: { $0.name == current }) else {
                throw ThemeError("theme \(name): parent chain loops at \(current)")
            }
            guard chain.count < 8 else { throw ThemeError("theme \(name): parent chain is deeper than 8") }
            chain.append(theme)
            next = theme.parent
        }
        return chain
    }

    // MARK: - Lookups

    /// The chosen variant and how it was reached.
    public struct Resolution: Sendable {
        public var variant: Variant
        public var theme: String
        /// 0 for the requested theme, 1 for its parent, ...
        public var depth: Int
        public var sourcePath: String
        public var sourceKind: String
        /// The localization the answering source chose for the client (a bundle's first search
        /// list entry, a catalog's target), if it has any.
        public var localization: String?
        /// Traits where the answer differs from the request, e.g. "appearance:any", "scale:1".
        public var fallbacks: [String]
        /// A flippable variant of the opposite direction answers: it is drawn mirrored
        /// (lookup-rules.md 4.3, example C29).
        public var isMirrored: Bool {
            variant.isFlippable && variant.traits.direction != 0 && variant.traits.direction != requestedDirection
        }
        var requestedDirection: Int
    }

    /// The best catalog variant of `name` for `request` (lookup-rules.md 4.4 and 6), searching
    /// the theme chain nearest first. One indexed query.
    public func resolve(_ kind: AssetKind, named name: String, in chain: [ThemeInfo], for request: TraitRequest) throws -> Resolution? {
        try resolve(kind, named: name, in: chain, for: request, plan: LocalizationPlan(chain: chain, languages: request.languages))
    }

    private func resolve(_ kind: AssetKind, named name: String, in chain: [ThemeInfo], for request: TraitRequest, plan: LocalizationPlan) throws -> Resolution? {
        try resolve(LookupQuery(kind: kind, name: name, chain: chain, request: request, localization: plan), kind: kind, chain: chain,
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
        let lastResort = catalog.variant.kind != .data && catalog.variant.traits.gamut != request.gamut && catalog.variant.traits.gamut != 0
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
        return try resolve(query, kind: .file, chain: chain, request: request, plan: plan)
    }

    private func resolve(_ query: LookupQuery, kind: AssetKind, chain: [ThemeInfo], request: TraitRequest, plan: LocalizationPlan) throws -> Resolution? {
        try reader.withLock { database in
            guard let row = try database.cachedStatement(query.sql).rows(query.parameters).first else { return nil }
            let variant = Self.variant(from: row)
            let depth = chain.firstIndex { $0.id == Int64(row.int("theme_id")) } ?? 0
            let theme = chain.indices.contains(depth) ? chain[depth].name : ""
            var fallbacks = Self.fallbacks(variant, request: request, kind: kind, depth: depth, theme: theme)
            let localization = plan.chosen[Int64(row.int("source_id"))]
            if !variant.traits.locale.isEmpty, variant.traits.locale != localization { fallbacks.append("localization:\(variant.traits.locale)") }
            return Resolution(variant: variant, theme: theme, depth: depth, sourcePath: row.string("source_path") ?? "",
                              sourceKind: row.string("source_kind") ?? "", localization: localization, fallbacks: fallbacks,
                              requestedDirection: request.direction)
        }
    }

    /// A name of `kinds` that differs from `name` only in case, for a 404's hint (lookup-rules.md
    /// 3.4: names are case-sensitive, so `Icon.png` is not found for `icon`).
    public func nameDifferingInCase(from name: String, kinds: [AssetKind], in chain: [ThemeInfo]) throws -> String? {
        try reader.withLock { database in
            let ids = chain.map { String($0.id) }.joined(separator: ",")
            let kindList = kinds.map { "'\($0.rawValue)'" }.joined(separator: ",")
            return try database.prepare("""
                SELECT name FROM variant WHERE name = ?1 COLLATE NOCASE AND name <> ?1 AND kind IN (\(kindList)) AND theme_id IN (\(ids))
                ORDER BY name LIMIT 1
                """).rows([.text(name.precomposedStringWithCanonicalMapping)]).first?.string("name")
        }
    }

    /// Every variant of a kind in one theme (not its parents), by name.
    public func variants(_ kind: AssetKind, in theme: ThemeInfo, named name: String? = nil) throws -> [Variant] {
        try reader.withLock { database in
            var sql = "SELECT * FROM variant WHERE theme_id = ?1 AND kind = ?2"
            var parameters: [SQLiteValue] = [.integer(theme.id), .text(kind.rawValue)]
            if let name {
                sql += " AND name = ?3"
                parameters.append(.text(name))
            }
            return try database.prepare(sql + " ORDER BY name, source_rank, sort_key").rows(parameters).map(Self.variant)
        }
    }

    /// The distinct names of a kind across a theme chain.
    public func names(_ kind: AssetKind, in chain: [ThemeInfo]) throws -> [String] {
        try reader.withLock { database in
            let ids = chain.map { String($0.id) }.joined(separator: ",")
            return try database.prepare("SELECT DISTINCT name FROM variant WHERE kind = ?1 AND theme_id IN (\(ids)) ORDER BY name")
                .rows([.text(kind.rawValue)]).compactMap { $0.string("name") }
        }
    }

    static func variant(from row: Row) -> Variant {
        var traits = VariantTraits()
        traits.idiom = row.int("idiom")
        traits.scale = row.int("scale")
        traits.subtype = row.int("subtype")
        traits.sizeClassHorizontal = row.int("size_h")
        traits.sizeClassVertical = row.int("size_v")
        traits.memoryGB = row.int("memory_gb")
        traits.graphics = row.int("graphics")
        traits.gamut = row.int("gamut")
        traits.direction = row.int("direction")
        traits.deploymentTarget = row.int("dt")
        traits.appearance = Appearance(Appearance.Luminosity(rawValue: row.int("luminosity")) ?? .other,
                                       highContrast: row.int("contrast") == 1, name: row.string("appearance_name") ?? "")
        traits.locale = row.string("locale") ?? ""
        traits.fileExtension = row.string("ext") ?? ""
        traits.platform = row.string("platform") ?? ""
        var variant = Variant(kind: AssetKind(rawValue: row.string("kind") ?? "") ?? .image, name: row.string("name") ?? "", traits: traits)
        variant.id = Int64(row.int("id"))
        variant.colorSpace = row.string("color_space") ?? ""
        variant.components = (row.string("components") ?? "").split(separator: ",").compactMap { Double($0) }
        variant.pixelWidth = row.int("pixel_width")
        variant.pixelHeight = row.int("pixel_height")
        variant.format = row.string("format") ?? ""
        variant.location = row.string("location") ?? ""
        variant.etag = row.string("etag") ?? ""
        variant.sortKey = row.string("sort_key") ?? ""
        variant.isFlippable = row.int("flippable") == 1
        return variant
    }

    static func fallbacks(_ variant: Variant, request: TraitRequest, kind: AssetKind, depth: Int, theme: String) -> [String] {
        var fallbacks: [String] = []
        let traits = variant.traits
        if depth > 0 { fallbacks.append("theme:\(theme)") }
        if kind != .file, traits.appearance != request.appearance { fallbacks.append("appearance:\(traits.appearance.label)") }
        if (kind == .image || kind == .file) && traits.scale != request.scale { fallbacks.append("scale:\(traits.scale)") }
        if traits.idiom != request.idiom { fallbacks.append("idiom:\(Idiom.name(traits.idiom))") }
        if traits.direction != 0, traits.direction != request.direction { fallbacks.append("direction:\(traits.direction == 5 ? "rtl" : "ltr")") }
        if kind != .file, traits.gamut != request.gamut { fallbacks.append("gamut:\(traits.gamut == 1 ? "p3" : "srgb")") }
        return fallbacks
    }

    // MARK: - Settings

    /// A persisted setting (the active theme survives restarts here).
    public func setting(_ key: String) throws -> String? {
        try reader.withLock { try $0.prepare("SELECT value FROM meta WHERE key = ?1").rows([.text(key)]).first?.string("value") }
    }

    public func setSetting(_ key: String, to value: String) throws {
        try writer.withLock { try $0.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)").run([.text(key), .text(value)]) }
    }
}
