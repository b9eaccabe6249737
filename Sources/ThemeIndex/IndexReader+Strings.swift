import SQLite
import ThemeBundle

/// Localized strings: the `.strings` tables of a theme's bundles, looked up like loose files.
///
/// A key is searched in the folders of the bundle's search list in the order of lookup-rules.md
/// 3.2 (global, chosen localization, Base, the rest), then in the next bundle, then in the parent
/// theme. Per key rather than per table: a key missing from `fr.lproj` is answered from the
/// development region's table instead of failing.
extension IndexReader {
    /// One resolved string.
    public struct LocalizedString: Sendable {
        public var key: String
        public var value: String
        public var theme: String
        /// The `.lproj` the value came from ("" for the global folder).
        public var locale: String
        /// The bundle's chosen localization for the client.
        public var localization: String?
        public var file: String
        /// Plural forms by category, when the key has them (`.stringsdict`, `.xcstrings`).
        public var forms: [String: String]

        /// The form for `count` in the language the value came from (CLDR categories), else
        /// the value.
        public func value(forCount count: Int) -> String {
            forms[PluralRules.category(of: count, language: locale.isEmpty ? localization ?? "" : locale)] ?? forms["other"] ?? value
        }
    }

    /// The value of `key` in `table` for the client's languages, or nil.
    public func localizedString(_ key: String, table: String, in chain: [ThemeInfo], languages: [String]) throws -> LocalizedString? {
        try localizedStrings(table: table, key: key, in: chain, languages: languages).first
    }

    /// Every key of `table` across the chain, each resolved as `localizedString` would, by key.
    public func localizedTable(_ table: String, in chain: [ThemeInfo], languages: [String]) throws -> [LocalizedString] {
        try localizedStrings(table: table, key: nil, in: chain, languages: languages)
    }

    /// The localization the first bundle of the chain chooses for the client.
    public func chosenLocalization(in chain: [ThemeInfo], languages: [String]) -> String? {
        let plan = LocalizationPlan(chain: chain, languages: languages)
        for theme in chain {
            for source in theme.sources where source.bundle != nil {
                if let chosen = plan.chosen[source.id] { return chosen }
            }
        }
        return nil
    }

    /// The names of the strings tables across a theme chain.
    public func stringTables(in chain: [ThemeInfo]) throws -> [String] {
        var bindings = QueryBindings()
        let themes = bindings.themes(chain, column: "theme_id")
        let sql = "SELECT DISTINCT tbl FROM string WHERE theme_id IN (\(themes.ids)) ORDER BY tbl"
        return try pool.read { try $0.cachedStatement(sql).rows(bindings.values).map { try $0.string("tbl") } }
    }

    private func localizedStrings(table: String, key: String?, in chain: [ThemeInfo], languages: [String]) throws -> [LocalizedString] {
        let plan = LocalizationPlan(chain: chain, languages: languages)
        var bindings = QueryBindings()
        let localized = plan.commonTableExpression { bindings.bind($0) }
        let themes = bindings.themes(chain, column: "s.theme_id")
        let keyFilter = key.map { "AND s.key = \(bindings.bind(.text($0)))" } ?? ""
        let tableName = bindings.bind(.text(table))
        let sql = """
            \(localized)
            SELECT s.* FROM string s INDEXED BY string_by_key
            JOIN req_loc l ON l.source_id = s.source_id AND l.locale = s.locale
            WHERE s.tbl = \(tableName) \(keyFilter) AND s.theme_id IN (\(themes.ids))
            ORDER BY s.key, \(themes.depth), s.source_rank, l.rank
            """
        return try pool.read { database in
            var results: [LocalizedString] = []
            for row in try database.cachedStatement(sql).rows(bindings.values) {
                let record = try StringRecord(row: row)
                let entry = record.entry
                guard results.last?.key != entry.key else { continue }
                results.append(LocalizedString(key: entry.key, value: entry.value, theme: chain.first { $0.id == record.themeID }?.name ?? "",
                                               locale: entry.locale, localization: plan.chosen[record.sourceID], file: entry.file, forms: entry.forms))
            }
            return results
        }
    }
}
