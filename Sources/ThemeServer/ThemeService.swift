import AssetCatalog
import Foundation
import HTTPServer
import HTTPTypes
import JSON
import Logging
import Synchronization
import ThemeIndex

/// The theme API: turns HTTP requests into index lookups and JSON or image responses.
///
/// Resolved responses are cached per request shape and dropped whenever the index changes, so a
/// hot lookup costs a dictionary probe; the index (SQLite) is consulted once per new shape.
public final class ThemeService: Sendable {
    public let index: ThemeIndex
    public let themesDirectory: String
    let content: ContentStore
    let logger: Logger
    public let metrics: ServiceMetrics
    private let snapshot: Mutex<Snapshot>
    private let cache = Mutex<[String: Response]>([:])

    struct Snapshot {
        var epoch = 0
        var themes: [ThemeIndex.ThemeInfo] = []
    }

    public init(index: ThemeIndex, themesDirectory: String, logger: Logger = Logger(label: "themed"), metrics: ServiceMetrics = ServiceMetrics()) throws {
        self.index = index
        self.themesDirectory = themesDirectory
        self.content = ContentStore()
        self.logger = logger
        self.metrics = metrics
        snapshot = Mutex(Snapshot(epoch: 0, themes: try index.themes()))
    }

    /// Re-reads the themes folder into the index (only changed sources are parsed) and makes the
    /// result visible to requests at once.
    @discardableResult
    public func reload(only theme: String? = nil) throws -> ThemeIndex.SyncReport {
        let report = try index.sync(themesDirectory: themesDirectory, only: theme)
        for error in report.errors { logger.error("theme source failed", metadata: ["error": "\(error)"]) }
        let themes = try index.themes()
        snapshot.withLock { $0 = Snapshot(epoch: $0.epoch + 1, themes: themes) }
        cache.withLock { $0.removeAll() }
        return report
    }

    var themes: [ThemeIndex.ThemeInfo] { snapshot.withLock { $0.themes } }

    // MARK: - Routing

    public func handle(_ request: Request) -> Response {
        let start = ContinuousClock.now
        let (route, response) = route(request)
        metrics.record(route: route, status: response.status.code, duration: ContinuousClock.now - start)
        return response
    }

    private func route(_ request: Request) -> (String, Response) {
        guard request.method == .get || request.method == .head else {
            return ("other", APIError(status: .methodNotAllowed, code: "method_not_allowed", message: "\(request.method) is not supported here").response)
        }
        let segments = request.pathSegments.map(String.init)
        if segments.contains(where: { $0 == ".." || $0 == "." }) {
            return ("other", APIError.badRequest("path segments '.' and '..' are not allowed").response)
        }
        switch segments.first {
        case "healthz":
            return ("healthz", json(["status": "ok", "themes": .int(themes.count)], cacheControl: "no-store"))
        case "metrics":
            return ("metrics", Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: "no-store"], body: metrics.exposition()))
        case "themes":
            return routeThemes(Array(segments.dropFirst()), request)
        default:
            return ("other", APIError.notFound("no route for \(request.path)").response)
        }
    }

    private func routeThemes(_ segments: [String], _ request: Request) -> (String, Response) {
        guard let themeName = segments.first else { return ("themes", themeList()) }
        let route = segments.count == 1 ? "theme" : segments[1] == "colors" ? (segments.count == 2 ? "colors" : "color") : segments[1] == "images" ? "image" : "other"
        do {
            let chain = try chain(themeName)
            guard segments.count > 1 else { return (route, try themeDetail(chain)) }
            let rest = segments.dropFirst(2).joined(separator: "/")
            switch (segments[1], rest.isEmpty) {
            case ("colors", true):
                return (route, try cached(request, chain: chain) { try colorList(chain, request) })
            case ("colors", false):
                return (route, try cached(request, chain: chain) { try color(rest, chain, request) })
            case ("images", false):
                if rest.hasSuffix(".json") {
                    return ("image-json", try cached(request, chain: chain) { try imageMetadata(String(rest.dropLast(5)), chain, request) })
                }
                return (route, try cached(request, chain: chain) { try image(rest, chain, request) })
            default:
                throw APIError.notFound("no route for \(request.path)")
            }
        } catch let error as APIError {
            return (route, error.response)
        } catch let error as TraitParser.BadParameter {
            return (route, APIError(status: .badRequest, code: "bad_parameter",
                                    message: "parameter \(error.name)=\(error.value) is invalid; expected \(error.expected)").response)
        } catch {
            logger.error("request failed", metadata: ["path": "\(request.path)", "error": "\(error)"])
            return (route, APIError(status: .internalServerError, code: "internal", message: "\(error)").response)
        }
    }

    /// The theme and its ancestors; an unknown theme is 404, a broken chain 503 (the theme exists
    /// but cannot be served until its settings are fixed).
    private func chain(_ name: String) throws -> [ThemeIndex.ThemeInfo] {
        let themes = self.themes
        guard themes.contains(where: { $0.name == name }) else { throw APIError.notFound("no theme named \(name)") }
        do {
            return try index.chain(of: name, in: themes)
        } catch {
            throw APIError(status: .serviceUnavailable, code: "theme_error", message: "\(error)")
        }
    }

    /// Serves from the response cache, or computes and caches. Conditional requests are answered
    /// from the cached ETag.
    private func cached(_ request: Request, chain: [ThemeIndex.ThemeInfo], _ compute: () throws -> Response) throws -> Response {
        let traits = try TraitParser.traits(of: request)
        let epoch = snapshot.withLock { $0.epoch }
        let key = Self.cacheKey(epoch: epoch, path: request.path, query: request.query, traits: traits)
        var response: Response
        if let hit = cache.withLock({ $0[key] }) {
            response = hit
        } else {
            response = try compute().prepared()
            let cacheable = response.status == .ok
            if cacheable { cache.withLock { cache in
                if cache.count > 50_000 { cache.removeAll() }
                cache[key] = response
            } }
        }
        if let etag = response.headers[.eTag], let match = request.headers[.ifNoneMatch],
           match.split(separator: ",").contains(where: { $0.trimmingCharacters() == etag || $0.trimmingCharacters() == "*" }) {
            var headers = response.headers
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return response
    }

    /// A key that identifies a response: the index epoch, the path, the query and the traits the
    /// headers contributed. Written out field by field (no reflection: this runs per request).
    static func cacheKey(epoch: Int, path: String, query: [String: String], traits: TraitRequest) -> String {
        var key = String(epoch)
        key += "|"
        key += path
        for name in query.keys.sorted() {
            key += "|"
            key += name
            key += "="
            key += query[name] ?? ""
        }
        key += "|\(traits.idiom),\(traits.scale),\(traits.appearance.luminosity.rawValue),\(traits.appearance.highContrast),"
        key += traits.appearance.name
        key += ",\(traits.gamut),\(traits.direction),\(traits.subtype),"
        key += traits.languages.joined(separator: ";")
        return key
    }

    // MARK: - Themes

    private func themeList() -> Response {
        let list = themes.map { theme -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("name", .string(theme.name)),
                ("generation", .int(theme.generation)),
                ("colors", .int(theme.colorCount)),
                ("images", .int(theme.imageCount)),
                ("href", .string("/themes/\(theme.name)")),
            ]
            if let parent = theme.parent { members.insert(("parent", .string(parent)), at: 1) }
            if !theme.error.isEmpty { members.append(("errors", .array(theme.error.split(separator: "\n").map { .string(String($0)) }))) }
            return .object(members)
        }
        return json(["themes": .array(list)], cacheControl: "no-cache")
    }

    private func themeDetail(_ chain: [ThemeIndex.ThemeInfo]) throws -> Response {
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        let sources = theme.sources.map { source -> JSONValue in
            var members: [(String, JSONValue)] = [("path", .string(relative(source.path))), ("kind", .string(source.kind))]
            if !source.error.isEmpty { members.append(("error", .string(source.error))) }
            return .object(members)
        }
        let body: JSONValue = .object([
            ("name", .string(theme.name)),
            ("generation", .int(theme.generation)),
            ("parent", theme.parent.map(JSONValue.string) ?? .null),
            ("chain", .array(chain.map { .string($0.name) })),
            ("status", .string(theme.error.isEmpty ? "ok" : "degraded")),
            ("errors", .array(theme.error.split(separator: "\n").map { .string(String($0)) })),
            ("sources", .array(sources)),
            ("colors", .array(try index.names(.color, in: chain).map(JSONValue.string))),
            ("images", .array(try index.names(.image, in: chain).map(JSONValue.string))),
            ("data", .array(try index.names(.data, in: chain).map(JSONValue.string))),
        ])
        return json(body, cacheControl: "no-cache")
    }

    // MARK: - Colours

    private func colorList(_ chain: [ThemeIndex.ThemeInfo], _ request: Request) throws -> Response {
        let names = try index.names(.color, in: chain)
        let resolve = !Set(request.query.keys).isDisjoint(with: TraitParser.parameterNames) || request.query["resolve"] != nil
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        if resolve {
            let traits = try TraitParser.traits(of: request)
            var colors: [(String, JSONValue)] = []
            for name in names {
                guard let resolution = try index.resolve(.color, named: name, in: chain, for: traits) else { continue }
                colors.append((name, .object(colorMembers(resolution))))
            }
            return json(.object([("theme", .string(theme.name)), ("traits", requestTraits(traits)), ("colors", .object(colors))]), etagged: true)
        }
        var colors: [JSONValue] = []
        for name in names {
            var variants: [JSONValue] = []
            for member in chain {
                let found = try index.variants(.color, in: member, named: name)
                guard !found.isEmpty else { continue }
                variants = found.map { variant in
                    .object([("traits", ColorRendering.traits(variant.traits))] + ColorRendering.json(variant) + [("theme", .string(member.name))])
                }
                break
            }
            colors.append(.object([("name", .string(name)), ("variants", .array(variants))]))
        }
        return json(.object([("theme", .string(theme.name)), ("colors", .array(colors))]), etagged: true)
    }

    private func color(_ name: String, _ chain: [ThemeIndex.ThemeInfo], _ request: Request) throws -> Response {
        let traits = try TraitParser.traits(of: request)
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        guard let resolution = try index.resolve(.color, named: name, in: chain, for: traits) else {
            throw APIError.notFound("theme \(theme.name) has no color named \(name) for these traits (searched \(chain.map(\.name).joined(separator: ", ")))")
        }
        let body: JSONValue = .object([("theme", .string(theme.name)), ("name", .string(name))] + colorMembers(resolution))
        var response = json(body, etagged: true)
        response.headers[HTTPField.Name("Vary")!] = "Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast"
        return response
    }

    private func colorMembers(_ resolution: ThemeIndex.Resolution) -> [(String, JSONValue)] {
        ColorRendering.json(resolution.variant) + [
            ("traits", ColorRendering.traits(resolution.variant.traits)),
            ("fallbacks", .array(resolution.fallbacks.map(JSONValue.string))),
            ("source", .object([("theme", .string(resolution.theme)), ("path", .string(relative(resolution.sourcePath)))])),
        ]
    }

    // MARK: - Images

    private func image(_ name: String, _ chain: [ThemeIndex.ThemeInfo], _ request: Request) throws -> Response {
        let resolution = try resolveImage(name, chain, request)
        let content = try self.content.content(of: resolution)
        let variant = resolution.variant
        let description = "theme=\(resolution.theme); scale=\(variant.traits.scale); idiom=\(Idiom.name(variant.traits.idiom)); appearance=\(variant.traits.appearance.label); gamut=\(variant.traits.gamut == 1 ? "p3" : "srgb"); source=\(relative(resolution.sourcePath))"
        return Response(status: .ok, headers: [
            .contentType: content.contentType,
            .eTag: "\"\(variant.etag)\"",
            .cacheControl: "public, max-age=60",
            HTTPField.Name("Vary")!: "Accept-Language, Sec-CH-DPR, Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast",
            HTTPField.Name("Accept-CH")!: "Sec-CH-DPR, Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast",
            HTTPField.Name("X-Themed-Variant")!: description,
        ], body: content.bytes)
    }

    private func resolveImage(_ name: String, _ chain: [ThemeIndex.ThemeInfo], _ request: Request) throws -> ThemeIndex.Resolution {
        let traits = try TraitParser.traits(of: request)
        for kind in [AssetKind.image, .data] {
            if let resolution = try index.resolve(kind, named: name, in: chain, for: traits) { return resolution }
        }
        throw APIError.notFound("theme \(chain.first?.name ?? "") has no image named \(name) for these traits (searched \(chain.map(\.name).joined(separator: ", ")))")
    }

    private func imageMetadata(_ name: String, _ chain: [ThemeIndex.ThemeInfo], _ request: Request) throws -> Response {
        let resolution = try resolveImage(name, chain, request)
        guard let owner = chain.first(where: { $0.name == resolution.theme }) else { throw APIError.notFound("no theme") }
        let all = try index.variants(resolution.variant.kind, in: owner, named: name)
        func describe(_ variant: Variant) -> JSONValue {
            .object([
                ("scale", .int(variant.traits.scale)),
                ("idiom", .string(Idiom.name(variant.traits.idiom))),
                ("appearance", .string(variant.traits.appearance.label)),
                ("gamut", .string(variant.traits.gamut == 1 ? "p3" : "srgb")),
                ("pixelWidth", .int(variant.pixelWidth)),
                ("pixelHeight", .int(variant.pixelHeight)),
                ("format", .string(variant.format)),
                ("etag", .string(variant.etag)),
            ])
        }
        let body: JSONValue = .object([
            ("theme", .string(chain.first?.name ?? "")),
            ("name", .string(name)),
            ("chosen", describe(resolution.variant)),
            ("fallbacks", .array(resolution.fallbacks.map(JSONValue.string))),
            ("source", .object([("theme", .string(resolution.theme)), ("path", .string(relative(resolution.sourcePath)))])),
            ("href", .string("/themes/\(chain.first?.name ?? "")/images/\(name)")),
            ("variants", .array(all.map(describe))),
        ])
        return json(body, etagged: true)
    }

    // MARK: - Helpers

    private func requestTraits(_ traits: TraitRequest) -> JSONValue {
        .object([
            ("appearance", .string(traits.appearance.label)),
            ("idiom", .string(Idiom.name(traits.idiom))),
            ("scale", .int(traits.scale)),
            ("gamut", .string(traits.gamut == 1 ? "p3" : "srgb")),
        ])
    }

    private func relative(_ path: String) -> String {
        path.hasPrefix(themesDirectory + "/") ? String(path.dropFirst(themesDirectory.count + 1)) : path
    }

    private func json(_ value: JSONValue, cacheControl: String = "public, max-age=10", etagged: Bool = false) -> Response {
        let body = Array((value.serialized() + "\n").utf8)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: cacheControl]
        if etagged {
            var hash = ContentHash()
            body.withUnsafeBytes { hash.add($0) }
            headers[.eTag] = "\"\(hash.hex)\""
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}
