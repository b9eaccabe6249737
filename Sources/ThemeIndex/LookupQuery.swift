import SQLite
import ThemeBundle
import ThemeVocabulary

/// The one query that picks a variant (lookup-rules.md 6): a catalog variant by its traits,
/// or a loose file of a bundle by its name, suffixes and folder.
///
/// Every ORDER BY term is a position in one trait's fallback chain, and the terms follow the
/// priority of lookup-rules.md 4.4 (appearance, localization, memory, subtype, graphics, scale,
/// deployment target, direction, gamut, idiom, size classes), so the first row is the key that
/// CoreUI's nested search would reach first. Theme depth and source rank come before the traits:
/// the nearest theme with any acceptable variant wins.
struct LookupQuery {
    let sql: String
    let parameters: [SQLiteValue]

    /// Every column of the variant and what a `Resolution` keeps of its source.
    static let resolutionColumns = "v.*, s.path AS source_path, s.kind AS source_kind, s.content_hash AS source_hash"

    /// The rows the queries rank: variants with their source, joined to the request's
    /// localization ranks. `INDEXED BY` keeps SQLite on the index the query means (by name for a
    /// lookup, by theme for a palette): with the `req_loc` join it would otherwise walk every
    /// variant of each source. `columns`: what the rows hold (a resolution's, by default).
    static func candidates(indexedBy index: String, columns: String = resolutionColumns) -> String {
        """
        SELECT \(columns)
        FROM variant v INDEXED BY \(index) JOIN source s ON s.id = v.source_id
        JOIN req_loc l ON l.source_id = v.source_id AND l.locale = v.locale
        """
    }

    /// The best variant of `name` for `request`; with no name, every candidate of every name of
    /// `kind` in the chain, ordered by name and then by the same ORDER BY: a name's first row is
    /// its best (a resolved palette in one query). `columns`: what the rows hold.
    /// `ownAtContextsIn`: only the names with variants of their own at the request's contexts in
    /// a theme of that chain (the whole chain: a parent's own variant must not hide the child's default).
    init(kind: AssetKind, name: String?, chain: [ThemeInfo], request: TraitRequest, localization: LocalizationPlan,
         columns: String = resolutionColumns, ownAtContextsIn ownChain: [ThemeInfo]? = nil) {
        var bindings = QueryBindings()
        func bind(_ value: SQLiteValue) -> String { bindings.bind(value) }
        func bind(_ value: Int) -> String { bindings.bind(value) }

        let themes = bindings.themes(chain, column: "v.theme_id")
        let appearances = request.appearanceChain.map { appearance in
            "(v.luminosity = \(bind(appearance.luminosity.rawValue)) AND v.contrast = \(bind(appearance.highContrast ? 1 : 0)) AND v.appearance_name = \(bind(.text(appearance.name))))"
        }
        let appearanceRank = appearances.enumerated().map { "WHEN \($0.element) THEN \($0.offset)" }.joined(separator: " ")
        let localized = localization.commonTableExpression(bind)
        let gamut = bind(request.gamut.rawValue), idiom = bind(request.idiom.rawValue), subtype = bind(request.subtype)
        let horizontal = bind(request.sizeClassHorizontal.rawValue), vertical = bind(request.sizeClassVertical.rawValue)
        let direction = bind(request.direction.rawValue), opposite = bind(request.direction.opposite.rawValue)
        let memory = bind(request.memoryGB), graphics = bind(request.graphics), deployment = bind(request.deploymentTarget)
        let scale = bind(request.scale)
        let pointSize = request.pointSize.map { "AND v.point_size = \(bind($0))" } ?? ""
        let named = name.map { "v.name = \(bind(.text($0))) AND " } ?? ""
        // A token theme's contexts chosen by name (`?brand=portal`): its variants for them, else
        // the defaults' (everything else has only those). Without any, the defaults' alone: a
        // literal, so that the lookups of every other request pay no more than that.
        let contextsFilter = request.contexts.isEmpty ? "v.contexts = ''" : "v.contexts IN (\(bind(.text(request.contexts))), '')"
        let contextsOrder = request.contexts.isEmpty ? "" : "v.contexts = '',\n  "
        let ownNames = ownChain.map { own in """

              AND v.name IN (SELECT w.name FROM variant w INDEXED BY variant_by_theme
                             WHERE w.theme_id IN (\(own.map { bind(.integer($0.id)) }.joined(separator: ", "))) AND w.kind = \(bind(.text(kind.rawValue)))
                               AND w.contexts = \(bind(.text(request.contexts))))
            """ } ?? ""
        // A request without a subtype also takes a variant whose subtype is the only one its
        // name has at its size (an AppIcon's 90 pt member made only for subtype 1792): CoreUI
        // drops a requested attribute the asset's renditions never differ in (lookup-rules.md
        // 4.3), and a subtype is a device-class hint, not a different asset. Ranked after the
        // requested subtype and 0, like every fallback.
        let loneSubtype = request.subtype != 0 ? "" : """
             OR NOT EXISTS (SELECT 1 FROM variant w INDEXED BY variant_by_name
                            WHERE w.name = v.name AND w.kind = v.kind AND w.theme_id = v.theme_id AND w.source_id = v.source_id
                              AND w.point_size = v.point_size AND w.subtype NOT IN (0, v.subtype))
            """

        let filters = """
        \(named)v.kind = \(bind(.text(kind.rawValue)))
          AND v.theme_id IN (\(themes.ids))
          AND \(contextsFilter)
          AND (\(appearances.joined(separator: " OR ")))
          AND v.gamut IN (\(gamut), 0, 1)
          AND v.idiom IN (\(idiom), 0) AND (v.subtype IN (\(subtype), 0)\(loneSubtype))
          AND v.size_h IN (\(horizontal), 0) AND v.size_v IN (\(vertical), 0)
          AND v.direction IN (\(direction), \(opposite), 0) AND v.dt <= \(deployment)
          AND (v.memory_gb = 0 OR v.memory_gb <= \(memory)) AND (v.graphics = 0 OR v.graphics <= \(graphics))
          \(pointSize)\(ownNames)
        """
        let order = """
        v.gamut NOT IN (\(gamut), 0),
          \(themes.depth), v.source_rank,
          \(contextsOrder)CASE \(appearanceRank) END,
          l.rank,
          v.memory_gb = 0, \(memory) - v.memory_gb,
          v.subtype <> \(subtype), v.subtype <> 0,
          v.graphics = 0, \(graphics) - v.graphics,
          CASE WHEN v.kind <> 'image' OR v.scale = \(scale) THEN 0
               WHEN v.scale BETWEEN 1 AND \(scale) - 1 THEN \(scale) - v.scale
               WHEN v.scale > \(scale) THEN v.scale - 1 ELSE 1000 END,
          \(deployment) - v.dt,
          CASE v.direction WHEN \(direction) THEN 0 WHEN \(opposite) THEN 1 ELSE 2 END,
          v.gamut <> \(gamut),
          v.idiom <> \(idiom),
          CASE WHEN v.size_h = \(horizontal) AND v.size_v = \(vertical) THEN 0 WHEN v.size_h = \(horizontal) THEN 1
               WHEN v.size_v = \(vertical) THEN 2 ELSE 3 END,
          v.point_size DESC,
          v.sort_key
        """
        if name != nil {
            sql = """
            \(localized)
            \(Self.candidates(indexedBy: "variant_by_name", columns: columns))
            WHERE \(filters)
            ORDER BY \(order)
            LIMIT 1
            """
        } else {
            // Every candidate, by name and then by the same preference: the first row of each
            // name is its answer (`Statement.firstRows`). A window function ranking each name's
            // rows took twice as long (a second sort, and the ranking kept for every row).
            sql = """
            \(localized)
            \(Self.candidates(indexedBy: "variant_by_theme", columns: columns))
            WHERE \(filters)
            ORDER BY v.name, \(order)
            """
        }
        parameters = bindings.values
    }

    /// The loose-file query (lookup-rules.md 3.3 and 6): scale outranks folder, folder outranks
    /// the device and platform suffixes, which outrank the extension. `name` is the base name;
    /// `fileExtension` is "" when the request names none.
    init(fileNamed name: String, fileExtension: String, chain: [ThemeInfo], request: TraitRequest, localization: LocalizationPlan) {
        var bindings = QueryBindings()
        func bind(_ value: SQLiteValue) -> String { bindings.bind(value) }
        let localized = localization.commonTableExpression(bind)
        let themes = bindings.themes(chain, column: "v.theme_id")
        let idiom = bind(.integer(Int64(request.idiom.rawValue))), scale = bind(.integer(Int64(request.scale)))
        let platform = bind(.text(request.idiom.platformSuffix))
        let ext = bind(.text(fileExtension))
        let extensionOrder = ThemeBundle.ResourceFileName.imageExtensions.enumerated().map { "WHEN '\($0.element)' THEN \($0.offset + 1)" }.joined(separator: " ")

        sql = """
        \(localized)
        \(Self.candidates(indexedBy: "variant_by_name"))
        WHERE v.name = \(bind(.text(name))) AND v.kind = 'file'
          AND v.theme_id IN (\(themes.ids))
          AND v.idiom IN (\(idiom), 0) AND v.platform IN (\(platform), '')
          AND (v.ext = \(ext) OR \(ext) = '')
        ORDER BY \(themes.depth), v.source_rank,
          CASE WHEN v.scale = \(scale) THEN 0 WHEN v.scale < \(scale) THEN \(scale) - v.scale ELSE v.scale - 1 END,
          l.rank,
          (v.idiom = 0) * 2 + (v.platform = ''),
          CASE v.ext WHEN \(ext) THEN 0 \(extensionOrder) ELSE 100 END,
          v.sort_key
        LIMIT 1
        """
        parameters = bindings.values
    }
}
