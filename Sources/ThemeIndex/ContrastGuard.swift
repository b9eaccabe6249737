import SQLite
import ThemeVocabulary

/// theme.json's contrast policy `refuse` at a reload: an edit that takes one of the theme's
/// colour pairs below its minimum in some mode, where it was not below before, is not taken; the
/// theme keeps serving its last good generation and says why (a `theme-error`). Checked inside
/// the sync's transaction, on what the edit would serve, with the lookups the routes use.
enum ContrastGuard {
    /// The pairs below their minimum (or with a colour missing) in each mode, by pair and mode,
    /// as `themed check` words them.
    static func failures(of theme: String, settings: ThemeSettings, in database: Database) throws -> [String: String] {
        guard let chain = try? chain(of: theme, in: database) else { return [:] }
        let ids = chain.map { SQLiteValue.integer($0.id) }
        let names = try database.prepare("SELECT DISTINCT name FROM variant WHERE kind = 'color' AND theme_id IN (\(ids.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))")
            .rows(ids).map { try $0.string("name") }
        var failures: [String: String] = [:]
        for mode in ColorMode.all {
            let plan = LocalizationPlan(chain: chain, languages: [])
            func color(_ name: String) throws -> ColorValue? {
                let query = LookupQuery(kind: .color, name: name, chain: chain, request: mode.traits, localization: plan)
                return try database.prepare(query.sql).rows(query.parameters).first.flatMap { try VariantRecord(row: $0).variant.color }
            }
            for pair in settings.contrastPairs(among: Set(names)) {
                let (foreground, background) = (try color(pair.foreground), try color(pair.background))
                let ratio = foreground.flatMap { foreground in background.map { foreground.contrastRatio(over: $0) } }
                guard ratio.map({ $0 < pair.minimum }) ?? true else { continue }
                let missing = foreground == nil ? pair.foreground : pair.background
                failures["\(pair.foreground)\u{0}\(pair.background)\u{0}\(mode.name)"] = pair.failure(ratio: ratio, missing: missing, in: mode.name)
            }
        }
        return failures
    }

    /// The theme and its ancestors as the writer's connection sees them now (the edit included).
    private static func chain(of name: String, in database: Database) throws -> [ThemeInfo] {
        try ThemeInfo.chain(of: name) { wanted in
            guard let record = try? database.prepare("SELECT * FROM theme WHERE name = ?1").rows([.text(wanted)]).first.map(ThemeRecord.init(row:)),
                  let sources = try? database.prepare("SELECT * FROM source WHERE theme_id = ?1 ORDER BY rank").rows([.integer(record.id)])
                      .map({ try SourceRecord(row: $0).info }) else { return nil }
            return ThemeInfo(id: record.id, name: record.name, path: record.path, parent: record.parent, generation: record.generation,
                             error: record.error, warning: record.warning, sources: sources, colorCount: 0, imageCount: 0, fileCount: 0)
        }
    }
}
