import HTTPServer
import JSON
import ThemeContent
import ThemeIndex

/// `GET /themes/{theme}/strings`, `.../strings/{table}` and `.../strings/{table}/{key}`: the
/// strings tables of a theme's bundles, localized for the client's languages (`?count=` picks a
/// plural form).
struct StringRoutes: RouteCollection {
    let library: ThemeLibrary

    var routes: [Route] {
        [
            .get("/themes/{theme}/strings", label: "strings", cacheable: true) { try stringTables($0) },
            .get("/themes/{theme}/strings/{table}", label: "strings", cacheable: true) { try stringTable($0) },
            .get("/themes/{theme}/strings/{table}/{key...}", label: "string", cacheable: true) { try string($0) },
        ]
    }

    private func stringTables(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        let traits = try context.traits(in: chain)
        let reader = library.index.reader
        let localization = reader.chosenLocalization(in: chain, languages: traits.languages)
        let tables = Tables(theme: chain.first?.name ?? "", localization: localization, tables: try reader.stringTables(in: chain))
        return JSONResponse.localized(try JSONResponse.make(encoding: tables, etagged: true), localization)
    }

    private func stringTable(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        let count = try Self.pluralCount(context.request)
        let traits = try context.traits(in: chain)
        let table = context.parameter("table")
        let entries = try library.index.reader.localizedTable(table, in: chain, languages: traits.languages)
        guard !entries.isEmpty else {
            throw APIError.notFound("theme \(chain.first?.name ?? "") has no strings table named \(table) (searched \(chain.map(\.name).joined(separator: ", ")))")
        }
        let localization = entries.first?.localization
        let strings = OrderedMembers(entries.map { (name: $0.key, value: count.map($0.value(forCount:)) ?? $0.value) })
        let body = Table(theme: chain.first?.name ?? "", table: table, localization: localization, strings: strings)
        return JSONResponse.localized(try JSONResponse.make(encoding: body, etagged: true), localization)
    }

    private func string(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        let count = try Self.pluralCount(context.request)
        let traits = try context.traits(in: chain)
        let (table, key) = (context.parameter("table"), context.parameter("key"))
        guard let entry = try library.index.reader.localizedString(key, table: table, in: chain, languages: traits.languages) else {
            throw APIError.notFound("theme \(chain.first?.name ?? "") has no string \(key) in table \(table) (searched \(chain.map(\.name).joined(separator: ", ")))")
        }
        var fallbacks: [String] = []
        if entry.theme != chain.first?.name { fallbacks.append("theme:\(entry.theme)") }
        if entry.locale != entry.localization { fallbacks.append("localization:\(entry.locale.isEmpty ? "global" : entry.locale)") }
        let body = OneString(theme: chain.first?.name ?? "", table: table, key: key, value: count.map(entry.value(forCount:)) ?? entry.value,
                             localization: entry.localization, fallbacks: fallbacks,
                             source: SourceBody(theme: entry.theme, path: context.relative(entry.file)),
                             forms: entry.forms.isEmpty ? nil : OrderedMembers(entry.forms.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }))
        return JSONResponse.localized(try JSONResponse.make(encoding: body, etagged: true), entry.localization)
    }

    /// `?count=N`: the number a plural string is for.
    static func pluralCount(_ request: Request) throws -> Int? {
        guard let value = request.query["count"] else { return nil }
        guard let count = Int(value), (0...Int(Int32.max)).contains(count) else {
            throw TraitParser.BadParameter(name: "count", value: value, expected: "a whole number from 0")
        }
        return count
    }

    /// `GET /themes/{theme}/strings`: the tables, and the localization the languages asked chose.
    struct Tables: Encodable {
        var theme: String
        @Nullable var localization: String?
        var tables: [String]
    }

    /// `GET /themes/{theme}/strings/{table}`: every key's value in the chosen localization.
    struct Table: Encodable {
        var theme: String
        var table: String
        @Nullable var localization: String?
        var strings: OrderedMembers<String>
    }

    /// `GET /themes/{theme}/strings/{table}/{key}`: one value, where it came from and the fallbacks taken.
    struct OneString: Encodable {
        var theme: String
        var table: String
        var key: String
        var value: String
        @Nullable var localization: String?
        var fallbacks: [String]
        var source: SourceBody
        /// The plural forms, when the string has them.
        var forms: OrderedMembers<String>?
    }
}
