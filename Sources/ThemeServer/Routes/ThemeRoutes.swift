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
            .get("/themes", label: "themes") { _ in try themeList() },
            .get("/themes/{theme}", label: "theme") { try themeDetail($0) },
            .get("/themes/{theme}/problems", label: "theme") { try problems($0) },
        ]
    }

    /// A listing names at most this many errors and as many warnings.
    static let problemsShown = 50
    /// A page of `/problems` holds at most this many.
    static let problemsPage = 1_000

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
    private func themeList() throws -> Response {
        var entries = library.themes.filter { !library.isElsewhere($0.name) }.map { theme in
            Entry(EntryCounts(name: theme.name, parent: theme.parent, revision: theme.revision, colors: theme.colorCount,
                              images: theme.imageCount, files: theme.fileCount),
                  ProblemSummary(errors: lines(theme.error), warnings: lines(theme.warning)))
        }
        for listing in otherShards() where library.isElsewhere(listing.name) {
            entries.append(Entry(EntryCounts(name: listing.name, parent: listing.parent, revision: listing.revision, colors: listing.colors,
                                             images: listing.images, files: listing.files),
                                 ProblemSummary(errors: listing.errors, warnings: [])))
        }
        entries.sort { ThemeName.naturalOrder($0.first.name, $1.first.name) }
        return try JSONResponse.make(encoding: List(themes: entries), cacheControl: "no-cache", etagged: true)
    }

    private func themeDetail(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        let sources = theme.sources.map { source in
            Source(SourceFile(path: context.relative(source.path), kind: source.kind.rawValue,
                              identifier: source.bundle.map { Nullable(wrappedValue: $0.identifier) },
                              developmentRegion: source.bundle.map { Nullable(wrappedValue: $0.developmentRegion) },
                              localizations: source.localizations.isEmpty ? nil : source.localizations,
                              kept: source.kept ? true : nil),
                   ProblemSummary(errors: lines(source.error), warnings: lines(source.warning)))
        }
        let reader = library.index.reader
        // A token theme's modifiers and how a request chooses each: by its name, or by the traits
        // theme.json maps its contexts to (then naming it is a 400).
        let modifiers = (reader.tokenOwner(in: chain)?.source.modifiers ?? []).map { modifier in
            Modifier(name: modifier.name, contexts: modifier.contexts, default: modifier.defaultContext,
                     chosenBy: modifier.mapsToTraits ? "traits" : "name")
        }
        let head = DetailHead(name: theme.name, revision: theme.revision, parent: theme.parent, chain: chain.map(\.name),
                              status: theme.servingStatus.rawValue)
        let names = DetailNames(problems: "/themes/\(theme.name)/problems", sources: sources,
                                colors: try reader.names(.color, in: chain), images: try reader.names(.image, in: chain),
                                data: try reader.names(.data, in: chain), files: try reader.names(.file, in: chain),
                                strings: try reader.stringTables(in: chain), modifiers: modifiers, warming: warming(theme.name),
                                releases: hasReleases ? "/themes/\(theme.name)/releases" : nil)
        let detail = Detail(Joined(head, ProblemSummary(errors: lines(theme.error), warnings: lines(theme.warning), always: true)), names)
        return try JSONResponse.make(encoding: detail, cacheControl: "no-cache", etagged: true)
    }

    /// How far encoding the theme's images and data in the background has got since it last
    /// changed; nil when it is not under way.
    private func warming(_ theme: String) -> Warming? {
        guard let (done, total) = library.content.warming(theme) else { return nil }
        return Warming(done: done, total: total, complete: done >= total)
    }

    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    /// `GET /themes/{theme}/problems`: one page of the theme's errors and warnings.
    struct Problems: Encodable {
        struct Problem: Encodable {
            var severity: String
            var message: String
        }

        var theme: String
        var total: Int
        var problems: [Problem]
        /// The next page; null on the last.
        @Nullable var next: String?
    }
}

/// A theme's problems as a listing tells them, among the listing's own members: the first
/// `ThemeRoutes.problemsShown` errors and warnings, and how many there are (`errorCount`,
/// `warningCount`); left out when there are none, but in a theme's detail.
struct ProblemSummary: Encodable {
    var errors: [String]?
    var errorCount: Int?
    var warnings: [String]?
    var warningCount: Int?

    init(errors: [String], warnings: [String], always: Bool = false) {
        if always || !errors.isEmpty { (self.errors, errorCount) = (Array(errors.prefix(ThemeRoutes.problemsShown)), errors.count) }
        if always || !warnings.isEmpty { (self.warnings, warningCount) = (Array(warnings.prefix(ThemeRoutes.problemsShown)), warnings.count) }
    }
}

extension ThemeRoutes {
    /// `GET /themes`.
    struct List: Encodable {
        var themes: [Entry]
    }

    /// A theme in `GET /themes`: its counts, then its problems, as one object.
    typealias Entry = Joined<EntryCounts, ProblemSummary>

    struct EntryCounts: Encodable {
        var name: String
        var parent: String?
        var revision: String
        var colors: Int
        var images: Int
        var files: Int
        var href: String

        init(name: String, parent: String?, revision: String, colors: Int, images: Int, files: Int) {
            (self.name, self.parent, self.revision) = (name, parent, revision)
            (self.colors, self.images, self.files, href) = (colors, images, files, "/themes/\(name)")
        }
    }

    /// `GET /themes/{theme}`: who the theme is, its problems, then its sources and names, as one
    /// object.
    typealias Detail = Joined<Joined<DetailHead, ProblemSummary>, DetailNames>

    struct DetailHead: Encodable {
        var name: String
        var revision: String
        @Nullable var parent: String?
        var chain: [String]
        var status: String
    }

    struct DetailNames: Encodable {
        var problems: String
        var sources: [Source]
        var colors: [String]
        var images: [String]
        var data: [String]
        var files: [String]
        var strings: [String]
        var modifiers: [Modifier]
        @Nullable var warming: Warming?
        /// With a cluster store: the theme's release history.
        var releases: String?
    }

    /// A source file or folder, then its problems, as one object.
    typealias Source = Joined<SourceFile, ProblemSummary>

    struct SourceFile: Encodable {
        var path: String
        var kind: String
        /// A bundle's: each there (null when its Info.plist has none); absent for other sources.
        var identifier: Nullable<String>?
        var developmentRegion: Nullable<String>?
        var localizations: [String]?
        /// Its last good read serves: the edit its error names was refused.
        var kept: Bool?
    }

    /// A token theme's modifier and how a request chooses its context.
    struct Modifier: Encodable {
        var name: String
        var contexts: [String]
        var `default`: String
        /// name or traits.
        var chosenBy: String
    }

    /// `{"done": 12, "total": 40, "complete": false}`.
    struct Warming: Encodable {
        var done: Int
        var total: Int
        var complete: Bool
    }
}
