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
        return JSONResponse.localized(JSONResponse.make(.object([
            ("theme", .string(chain.first?.name ?? "")),
            ("localization", localization.map(JSONValue.string) ?? .null),
            ("tables", .array(try reader.stringTables(in: chain).map(JSONValue.string))),
        ]), etagged: true), localization)
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
        return JSONResponse.localized(JSONResponse.make(.object([
            ("theme", .string(chain.first?.name ?? "")),
            ("table", .string(table)),
            ("localization", localization.map(JSONValue.string) ?? .null),
            ("strings", .object(entries.map { ($0.key, .string(count.map($0.value(forCount:)) ?? $0.value)) })),
        ]), etagged: true), localization)
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
        var members: [(String, JSONValue)] = [
            ("theme", .string(chain.first?.name ?? "")),
            ("table", .string(table)),
            ("key", .string(key)),
            ("value", .string(count.map(entry.value(forCount:)) ?? entry.value)),
            ("localization", entry.localization.map(JSONValue.string) ?? .null),
            ("fallbacks", .array(fallbacks.map(JSONValue.string))),
            ("source", .object([("theme", .string(entry.theme)), ("path", .string(context.relative(entry.file)))])),
        ]
        if !entry.forms.isEmpty {
            members.append(("forms", .object(entry.forms.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        return JSONResponse.localized(JSONResponse.make(.object(members), etagged: true), entry.localization)
    }

    /// `?count=N`: the number a plural string is for.
    static func pluralCount(_ request: Request) throws -> Int? {
        guard let value = request.query["count"] else { return nil }
        guard let count = Int(value), (0...Int(Int32.max)).contains(count) else {
            throw TraitParser.BadParameter(name: "count", value: value, expected: "a whole number from 0")
        }
        return count
    }
}
