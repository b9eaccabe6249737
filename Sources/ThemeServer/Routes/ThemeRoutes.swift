import HTTPServer
import JSON
import ThemeContent
import ThemeIndex
import ThemeVocabulary

/// `GET /themes` and `GET /themes/{theme}`: what is loaded, and one theme's sources, names and
/// problems; `GET /themes/{theme}/problems`: all of its problems, page by page. The listings stay
/// small whatever a theme's problems: their counts and the first `problemsShown` of each.
struct ThemeRoutes: RouteCollection {
    let library: ThemeLibrary
    /// A cluster store keeps release histories: the detail links to the theme's.
    let hasReleases: Bool
    /// With a shard: the other shards' themes as their owners list them (from the cluster store).
    let otherShards: @Sendable () -> [ThemeListing]

    var routes: [Route] {
        [
            .get("/themes", label: "themes") { _ in themeList() },
            .get("/themes/{theme}", label: "theme") { try themeDetail($0) },
            .get("/themes/{theme}/problems", label: "theme") { try problems($0) },
        ]
    }

    /// A listing names at most this many errors and as many warnings.
    static let problemsShown = 50
    /// A page of `/problems` holds at most this many.
    static let problemsPage = 1_000

    /// The members that tell a theme's problems in a listing: the first `problemsShown` errors and
    /// warnings, and how many there are (`errorCount`, `warningCount`) when there are any.
    static func problemMembers(errors: [JSONValue], warnings: [JSONValue], always: Bool = false) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = []
        if always || !errors.isEmpty { members += [("errors", .array(Array(errors.prefix(problemsShown)))), ("errorCount", .int(errors.count))] }
        if always || !warnings.isEmpty { members += [("warnings", .array(Array(warnings.prefix(problemsShown)))), ("warningCount", .int(warnings.count))] }
        return members
    }

    /// `?severity=error|warning` (both without), `limit` (100; up to `problemsPage`) and `offset`.
    private func problems(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        let query = context.request.query
        func number(_ name: String, _ range: ClosedRange<Int>, default value: Int) throws -> Int {
            guard let text = query[name] else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw TraitParser.BadParameter(name: name, value: text, expected: "\(range.lowerBound)...\(range.upperBound)")
            }
            return number
        }
        let (limit, offset) = (try number("limit", 1...Self.problemsPage, default: 100), try number("offset", 0...Int(Int32.max), default: 0))
        let severity = query["severity"]
        if let severity, severity != "error", severity != "warning" {
            throw TraitParser.BadParameter(name: "severity", value: severity, expected: "error or warning")
        }
        let all = (severity != "warning" ? lines(theme.error).map { ("error", $0) } : [])
            + (severity != "error" ? lines(theme.warning).map { ("warning", $0) } : [])
        let page = all.dropFirst(offset).prefix(limit).map { Problems.Problem(severity: $0.0, message: $0.1) }
        let filter = severity.map { "&severity=\($0)" } ?? ""
        let next = offset + limit < all.count ? "/themes/\(theme.name)/problems?limit=\(limit)&offset=\(offset + limit)\(filter)" : nil
        return try JSONResponse.make(encoding: Problems(theme: theme.name, total: all.count, problems: Array(page), next: next),
                                     cacheControl: "no-cache", etagged: true)
    }

    /// Every theme: this replica's own and, with a shard, the other shards' as their owners list
    /// them, so that the front door's list is whole whichever group answers; sorted as people
    /// read names (brand-4 before brand-11).
    private func themeList() -> Response {
        var entries: [(name: String, entry: JSONValue)] = library.themes.filter { !library.isElsewhere($0.name) }.map { theme in
            (theme.name, Self.entry(name: theme.name, revision: theme.revision, parent: theme.parent, colors: theme.colorCount,
                                    images: theme.imageCount, files: theme.fileCount, errors: lines(theme.error), warnings: lines(theme.warning)))
        }
        for listing in otherShards() where library.isElsewhere(listing.name) {
            entries.append((listing.name, Self.entry(name: listing.name, revision: listing.revision, parent: listing.parent, colors: listing.colors,
                                                     images: listing.images, files: listing.files, errors: listing.errors.map(JSONValue.string))))
        }
        entries.sort { ThemeName.naturalOrder($0.name, $1.name) }
        return JSONResponse.make(["themes": .array(entries.map(\.entry))], cacheControl: "no-cache", etagged: true)
    }

    static func entry(name: String, revision: String, parent: String?, colors: Int, images: Int, files: Int, errors: [JSONValue],
                      warnings: [JSONValue] = []) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("name", .string(name)),
            ("revision", .string(revision)),
            ("colors", .int(colors)),
            ("images", .int(images)),
            ("files", .int(files)),
            ("href", .string("/themes/\(name)")),
        ]
        if let parent { members.insert(("parent", .string(parent)), at: 1) }
        members += problemMembers(errors: errors, warnings: warnings)
        return .object(members)
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
            // Its last good read serves: the edit its error names was refused.
            if source.kept { members.append(("kept", .bool(true))) }
            members += Self.problemMembers(errors: lines(source.error), warnings: lines(source.warning))
            return .object(members)
        }
        let reader = library.index.reader
        var body: JSONValue = .object([
            ("name", .string(theme.name)),
            ("revision", .string(theme.revision)),
            ("parent", theme.parent.map(JSONValue.string) ?? .null),
            ("chain", .array(chain.map { .string($0.name) })),
            ("status", .string(theme.servingStatus.rawValue)),
        ] + Self.problemMembers(errors: lines(theme.error), warnings: lines(theme.warning), always: true) + [
            ("problems", .string("/themes/\(theme.name)/problems")),
            ("sources", .array(sources)),
            ("colors", .array(try reader.names(.color, in: chain).map(JSONValue.string))),
            ("images", .array(try reader.names(.image, in: chain).map(JSONValue.string))),
            ("data", .array(try reader.names(.data, in: chain).map(JSONValue.string))),
            ("files", .array(try reader.names(.file, in: chain).map(JSONValue.string))),
            ("strings", .array(try reader.stringTables(in: chain).map(JSONValue.string))),
            // A token theme's modifiers and how a request chooses each: by its name, or by the
            // traits theme.json maps its contexts to (then naming it is a 400).
            ("modifiers", .array((reader.tokenOwner(in: chain)?.source.modifiers ?? []).map { modifier in
                .object([("name", .string(modifier.name)), ("contexts", .array(modifier.contexts.map(JSONValue.string))),
                         ("default", .string(modifier.defaultContext)), ("chosenBy", .string(modifier.mapsToTraits ? "traits" : "name"))])
            })),
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

    /// `GET /themes/{theme}/problems`: one page of the theme's errors and warnings.
    struct Problems: Encodable {
        struct Problem: Encodable {
            var severity: String
            var message: JSONValue
        }

        var theme: String
        var total: Int
        var problems: [Problem]
        /// The next page; null on the last.
        @Nullable var next: String?
    }
}
