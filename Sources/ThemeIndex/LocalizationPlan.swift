import SQLite
import ThemeBundle

/// The localization of every source of a theme chain for one client's languages, as the rows
/// of `req_loc` (lookup-rules.md 6): which `locale` values a source may answer with, and how good
/// each is.
///
/// A bundle ranks the global folder, its chosen localization, `Base`, then the rest of its search
/// list (3.2). A catalog ranks its target localization (the best of its own for the client, else
/// the localization its bundle chose if the catalog has it, 4.5), then unlocalized variants.
struct LocalizationPlan {
    struct Row {
        var sourceID: Int64
        var locale: String
        var rank: Int
    }

    private(set) var rows: [Row] = []
    /// The chosen localization of each source that has one, reported in responses.
    private(set) var chosen: [Int64: String] = [:]

    init(chain: [ThemeInfo], languages: [String]) {
        for theme in chain {
            let main = theme.mainBundle
            // Bundles first: catalogs fall back to the choice of the bundle they are in.
            var searchLists: [Int64: [String]] = [:]
            var chosenByBundle: [String: String] = [:]
            for source in theme.sources {
                guard let bundle = source.bundle else { continue }
                let list = Localization.searchList(for: bundle, preferences: languages, main: main)
                searchLists[source.id] = list
                chosenByBundle[bundle.path] = list.first
            }
            for source in theme.sources {
                if let list = searchLists[source.id] {
                    chosen[source.id] = list.first
                    var seen = Set<String>()
                    let ordered = ([""] + list.prefix(1) + ["Base"] + list.dropFirst()).filter { seen.insert($0).inserted }
                    rows += ordered.enumerated().map { Row(sourceID: source.id, locale: $0.element, rank: $0.offset) }
                } else if let target = Localization.localizationsToUse(languages, source.localizations).first
                            ?? source.owner.flatMap({ chosenByBundle[$0] }).flatMap({ source.localizations.contains($0) ? $0 : nil }) {
                    chosen[source.id] = target
                    rows += [Row(sourceID: source.id, locale: target, rank: 0), Row(sourceID: source.id, locale: "", rank: 1)]
                } else {
                    rows.append(Row(sourceID: source.id, locale: "", rank: 0))
                }
            }
        }
    }

    /// `WITH req_loc(source_id, locale, rank) AS (VALUES ...)`, binding through `bind`.
    func commonTableExpression(_ bind: (SQLiteValue) -> String) -> String {
        let values = rows.isEmpty ? ["(-1, '', 0)"] : rows.map { "(\(bind(.integer($0.sourceID))), \(bind(.text($0.locale))), \($0.rank))" }
        return "WITH req_loc(source_id, locale, rank) AS (VALUES \(values.joined(separator: ", ")))"
    }
}
