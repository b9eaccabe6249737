import HTTPServer
import JSON
import ThemeContent
import ThemeIndex

/// `GET /themes` and `GET /themes/{theme}`: what is loaded, and one theme's sources, names and
/// problems.
struct ThemeRoutes: RouteCollection {
    let library: ThemeLibrary
    /// A cluster store keeps release histories: the detail links to the theme's.
    let hasReleases: Bool

    var routes: [Route] {
        [
            .get("/themes", label: "themes") { _ in themeList() },
            .get("/themes/{theme}", label: "theme") { try themeDetail($0) },
        ]
    }

    /// The themes this replica serves: with a shard, its own (the ancestors it holds for them
    /// are served by their shards).
    private func themeList() -> Response {
        let served = library.themes.filter { !library.isElsewhere($0.name) }
        let list = served.map { theme -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("name", .string(theme.name)),
                ("revision", .string(theme.revision)),
                ("colors", .int(theme.colorCount)),
                ("images", .int(theme.imageCount)),
                ("files", .int(theme.fileCount)),
                ("href", .string("/themes/\(theme.name)")),
            ]
            if let parent = theme.parent { members.insert(("parent", .string(parent)), at: 1) }
            if !theme.error.isEmpty { members.append(("errors", .array(lines(theme.error)))) }
            return .object(members)
        }
        return JSONResponse.make(["themes": .array(list)], cacheControl: "no-cache", etagged: true)
    }

    private func themeDetail(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        let sources = theme.sources.map { source -> JSONValue in
            var members: [(String, JSONValue)] = [("path", .string(context.relative(source.path))), ("kind", .string(source.kind.rawValue))]
            if let bundle = source.bundle {
                members.append(("identifier", bundle.identifier.map(JSONValue.string) ?? .null))
                members.append(("developmentRegion", bundle.developmentRegion.map(JSONValue.string) ?? .null))
            }
            if !source.localizations.isEmpty { members.append(("localizations", .array(source.localizations.map(JSONValue.string)))) }
            if !source.error.isEmpty { members.append(("errors", .array(lines(source.error)))) }
            return .object(members)
        }
        let reader = library.index.reader
        var body: JSONValue = .object([
            ("name", .string(theme.name)),
            ("revision", .string(theme.revision)),
            ("parent", theme.parent.map(JSONValue.string) ?? .null),
            ("chain", .array(chain.map { .string($0.name) })),
            ("status", .string(theme.error.isEmpty ? "ok" : "degraded")),
            ("errors", .array(lines(theme.error))),
            ("sources", .array(sources)),
            ("colors", .array(try reader.names(.color, in: chain).map(JSONValue.string))),
            ("images", .array(try reader.names(.image, in: chain).map(JSONValue.string))),
            ("data", .array(try reader.names(.data, in: chain).map(JSONValue.string))),
            ("files", .array(try reader.names(.file, in: chain).map(JSONValue.string))),
            ("strings", .array(try reader.stringTables(in: chain).map(JSONValue.string))),
            ("warming", warming(theme.name)),
        ])
        if hasReleases, case .object(var members) = body {
            members.append(("releases", .string("/themes/\(theme.name)/releases")))
            body = .object(members)
        }
        return JSONResponse.make(body, cacheControl: "no-cache", etagged: true)
    }

    /// How far encoding the theme's images and data in the background has got since it last
    /// changed: `{"done": 12, "total": 40, "complete": false}`.
    private func warming(_ theme: String) -> JSONValue {
        guard let (done, total) = library.content.warming(theme) else { return .null }
        return .object([("done", .int(done)), ("total", .int(total)), ("complete", .bool(done >= total))])
    }

    private func lines(_ text: String) -> [JSONValue] {
        text.split(separator: "\n").map { .string(String($0)) }
    }
}
