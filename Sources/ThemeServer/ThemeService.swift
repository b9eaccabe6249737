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
    public let events = EventHub()
    /// When set, `PUT /active` needs `Authorization: Bearer <token>`; when nil, only clients on
    /// the loopback interface may change the active theme.
    public let activeToken: String?
    private let snapshot: Mutex<Snapshot>
    /// Serialises reloads (watcher, SIGHUP, tests) so that their events come out in order.
    private let reloading = Mutex(())
    private let cache = Mutex<[String: Response]>([:])
    /// Resolved responses by the request's raw target and trait headers: a repeated request skips
    /// routing, trait parsing and key building. Emptied with `cache`.
    private let rawCache = Mutex<[String: (route: String, response: Response)]>([:])

    struct Snapshot {
        var epoch = 0
        var themes: [ThemeIndex.ThemeInfo] = []
        var active: String?
    }

    public init(index: ThemeIndex, themesDirectory: String, activeToken: String? = nil, logger: Logger = Logger(label: "themed"),
                metrics: ServiceMetrics = ServiceMetrics()) throws {
        self.index = index
        self.themesDirectory = themesDirectory
        self.activeToken = activeToken
        self.content = ContentStore()
        self.logger = logger
        self.metrics = metrics
        snapshot = Mutex(Snapshot(epoch: 0, themes: try index.themes(), active: try index.setting("active")))
    }

    /// Re-reads the themes folder into the index (only changed sources are parsed; with `only`,
    /// one theme) and swaps the result in for requests at once: a request sees the old generation
    /// or the new one. Publishes theme-added/-reloaded/-removed/-error events.
    @discardableResult
    public func reload(only theme: String? = nil) throws -> ThemeIndex.SyncReport {
        try reloading.withLock { _ in
            let report = try index.sync(themesDirectory: themesDirectory, only: theme)
            let themes = try index.themes()
            for (catalog, hash) in report.parsedCatalogs { content.register(catalog, contentHash: hash) }
            for info in themes {
                for source in info.sources where source.kind == "car" { content.retainCatalog(at: source.path, contentHash: source.contentHash) }
            }
            snapshot.withLock { $0 = Snapshot(epoch: $0.epoch + 1, themes: themes, active: $0.active) }
            cache.withLock { $0.removeAll() }
            rawCache.withLock { $0.removeAll() }
            publishEvents(report, themes: themes)
            return report
        }
    }

    private func publishEvents(_ report: ThemeIndex.SyncReport, themes: [ThemeIndex.ThemeInfo]) {
        func payload(_ name: String, extra: [(String, JSONValue)] = []) -> JSONValue {
            let generation = themes.first { $0.name == name }?.generation ?? 0
            return .object([("theme", .string(name)), ("generation", .int(generation)), ("etag", .string(Self.themeETag(name, generation)))] + extra)
        }
        for name in report.changedThemes {
            events.publish(report.addedThemes.contains(name) ? "theme-added" : "theme-reloaded", payload(name))
            logger.info("theme loaded", metadata: ["theme": "\(name)"])
        }
        for name in report.removedThemes {
            events.publish("theme-removed", .object([("theme", .string(name)), ("generation", .int(0)), ("etag", .string(""))]))
        }
        for (name, message) in report.problems {
            logger.warning("theme source problem", metadata: ["theme": "\(name)", "problem": "\(message)"])
        }
        for (name, message) in report.themeErrors {
            logger.error("theme source rejected", metadata: ["theme": "\(name)", "error": "\(message)"])
            events.publish("theme-error", payload(name, extra: [("error", .string(message)), ("time", .string(Self.timestamp()))]))
        }
    }

    static func themeETag(_ name: String, _ generation: Int) -> String {
        var hash = ContentHash()
        hash.add("\(name)\u{0}\(generation)")
        return hash.hex
    }

    static func timestamp() -> String {
        ISO8601DateFormatter().string(from: Date())
    }

    var themes: [ThemeIndex.ThemeInfo] { snapshot.withLock { $0.themes } }

    /// The theme `current` stands for: the one set with `PUT /active`, else `light` if present,
    /// else the first theme.
    public var activeTheme: String? {
        snapshot.withLock { snapshot in
            if let active = snapshot.active, snapshot.themes.contains(where: { $0.name == active }) { return active }
            return snapshot.themes.first { $0.name == "light" }?.name ?? snapshot.themes.first?.name
        }
    }

    // MARK: - Routing

    public func handle(_ request: Request) -> Response {
        let start = ContinuousClock.now
        let (route, response) = fastRoute(request)
        metrics.record(route: route, status: response.status.code, duration: ContinuousClock.now - start)
        return response
    }

    /// Answers a lookup seen before (same target, same trait headers, same epoch) from `rawCache`;
    /// otherwise routes it and remembers cacheable answers.
    private func fastRoute(_ request: Request) -> (String, Response) {
        guard request.method == .get || request.method == .head, request.path.hasPrefix("/themes/") else { return route(request) }
        let headers = request.headers
        var key = String(snapshot.withLock { $0.epoch })
        key += request.target
        for name in [TraitParser.colorScheme, TraitParser.contrast, TraitParser.devicePixelRatio, TraitParser.legacyDevicePixelRatio, .acceptLanguage] {
            key += "\u{0}"
            key += headers[name] ?? ""
        }
        if let hit = rawCache.withLock({ $0[key] }) {
            return (hit.route, Self.conditional(hit.response, request))
        }
        let (route, response) = self.route(request)
        if response.status == .ok, response.headers[.eTag] != nil, ["color", "colors", "image", "image-json", "string", "strings"].contains(route) {
            let stored = response.prepared()
            rawCache.withLock { cache in
                if cache.count > 50_000 { cache.removeAll() }
                cache[key] = (route, stored)
            }
        }
        return (route, response)
    }

    /// `304 Not Modified` when the request's If-None-Match names the response's ETag.
    static func conditional(_ response: Response, _ request: Request) -> Response {
        guard let etag = response.headers[.eTag], let match = request.headers[.ifNoneMatch],
              match.split(separator: ",").contains(where: { $0.trimmingCharacters() == etag || $0.trimmingCharacters() == "*" }) else {
            return response
        }
        var headers = response.headers
        headers[.contentType] = nil
        return Response(status: .notModified, headers: headers)
    }

    private func route(_ request: Request) -> (String, Response) {
        let segments = request.pathSegments
        if segments == ["active"] {
            switch request.method {
            case .get, .head: return ("active", json(["theme": activeTheme.map(JSONValue.string) ?? .null], cacheControl: "no-store"))
            case .put: return ("active", setActive(request))
            default: break
            }
        }
        guard request.method == .get || request.method == .head else {
            return ("other", APIError(status: .methodNotAllowed, code: "method_not_allowed", message: "\(request.method) is not supported here").response)
        }
        if segments.contains(where: { $0 == ".." || $0 == "." || $0.contains("\\") || $0.contains("\u{0}") }) {
            return ("other", APIError.badRequest("path segments '.' and '..', backslashes and NUL are not allowed").response)
        }
        switch segments.first {
        case "healthz":
            return ("healthz", json(["status": "ok", "themes": .int(themes.count)], cacheControl: "no-store"))
        case "metrics":
            return ("metrics", Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: "no-store"], body: metrics.exposition()))
        case "themes":
            return routeThemes(Array(segments.dropFirst()), request)
        case "events" where segments.count == 1:
            return ("events", eventStream(request))
        default:
            return ("other", APIError.notFound("no route for \(request.path)").response)
        }
    }

    private func routeThemes(_ segments: [String], _ request: Request) -> (String, Response) {
        guard var themeName = segments.first else { return ("themes", themeList()) }
        if themeName == "current" {
            guard let active = activeTheme else { return ("theme", APIError.notFound("no themes are loaded").response) }
            themeName = active
        }
        let route = switch (segments.count, segments.count > 1 ? segments[1] : "") {
        case (1, _): "theme"
        case (2, "colors"): "colors"
        case (_, "colors"): "color"
        case (_, "images"): "image"
        case (2, "strings"), (3, "strings"): "strings"
        case (_, "strings"): "string"
        default: "other"
        }
        do {
            let chain = try chain(themeName)
            guard segments.count > 1 else { return (route, try themeDetail(chain)) }
            let rest = segments.count == 3 ? segments[2] : segments.dropFirst(2).joined(separator: "/")
            switch (segments[1], rest.isEmpty) {
            case ("colors", true):
                return (route, try cached(request, chain: chain) { try colorList(chain, request, $0) })
            case ("colors", false):
                return (route, try cached(request, chain: chain) { try color(rest, chain, $0) })
            case ("images", false):
                if rest.hasSuffix(".json") {
                    return ("image-json", try cached(request, chain: chain) { try imageMetadata(String(rest.dropLast(5)), chain, $0) })
                }
                return (route, try cached(request, chain: chain) { try image(rest, chain, $0) })
            case ("strings", true):
                return (route, try cached(request, chain: chain) { try stringTables(chain, $0) })
            case ("strings", false) where segments.count == 3:
                let count = try Self.pluralCount(request)
                return (route, try cached(request, chain: chain) { try stringTable(segments[2], chain, $0, count: count) })
            case ("strings", false):
                let key = segments.dropFirst(3).joined(separator: "/")
                let count = try Self.pluralCount(request)
                return (route, try cached(request, chain: chain) { try string(key, table: segments[2], chain, $0, count: count) })
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
    private func cached(_ request: Request, chain: [ThemeIndex.ThemeInfo], _ compute: (TraitRequest) throws -> Response) throws -> Response {
        let traits = try TraitParser.traits(of: request)
        let epoch = snapshot.withLock { $0.epoch }
        let key = Self.cacheKey(epoch: epoch, path: request.path, query: request.query, traits: traits)
        var response: Response
        if let hit = cache.withLock({ $0[key] }) {
            response = hit
        } else {
            response = try compute(traits).prepared()
            let cacheable = response.status == .ok
            if cacheable { cache.withLock { cache in
                if cache.count > 50_000 { cache.removeAll() }
                cache[key] = response
            } }
        }
        return Self.conditional(response, request)
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

    // MARK: - Active theme and events

    private func setActive(_ request: Request) -> Response {
        if let token = activeToken {
            guard request.headers[.authorization] == "Bearer \(token)" else {
                return APIError(status: .unauthorized, code: "unauthorized", message: "PUT /active needs Authorization: Bearer <token>").response
            }
        } else if !(request.remoteAddress.hasPrefix("127.") || request.remoteAddress.hasPrefix("[::1]")) {
            return APIError(status: .forbidden, code: "forbidden", message: "without a configured token, only loopback clients may change the active theme").response
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
              let name = object["theme"] as? String else {
            return APIError.badRequest("body must be JSON like {\"theme\":\"dark\"}").response
        }
        guard let theme = themes.first(where: { $0.name == name }) else { return APIError.notFound("no theme named \(name)").response }
        do {
            try index.setSetting("active", to: name)
        } catch {
            return APIError(status: .internalServerError, code: "internal", message: "\(error)").response
        }
        snapshot.withLock { $0 = Snapshot(epoch: $0.epoch + 1, themes: $0.themes, active: name) }
        cache.withLock { $0.removeAll() }
        rawCache.withLock { $0.removeAll() }
        events.publish("active-changed", .object([("theme", .string(name)), ("generation", .int(theme.generation)),
                                                  ("etag", .string(Self.themeETag(name, theme.generation)))]))
        return json(["theme": .string(name)], cacheControl: "no-store")
    }

    private func eventStream(_ request: Request) -> Response {
        let lastID = (request.headers[HTTPField.Name("Last-Event-ID")!] ?? request.query["lastEventId"]).flatMap { Int($0) }
        let events = self.events
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"]) { stream in
            events.subscribe(stream, after: lastID)
        }
    }

    // MARK: - Themes

    private func themeList() -> Response {
        let list = themes.map { theme -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("name", .string(theme.name)),
                ("generation", .int(theme.generation)),
                ("colors", .int(theme.colorCount)),
                ("images", .int(theme.imageCount)),
                ("files", .int(theme.fileCount)),
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
            if let bundle = source.bundle {
                members.append(("identifier", bundle.identifier.map(JSONValue.string) ?? .null))
                members.append(("developmentRegion", bundle.developmentRegion.map(JSONValue.string) ?? .null))
            }
            if !source.localizations.isEmpty { members.append(("localizations", .array(source.localizations.map(JSONValue.string)))) }
            if !source.error.isEmpty { members.append(("errors", .array(source.error.split(separator: "\n").map { .string(String($0)) }))) }
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
            ("files", .array(try index.names(.file, in: chain).map(JSONValue.string))),
            ("strings", .array(try index.stringTables(in: chain).map(JSONValue.string))),
        ])
        return json(body, cacheControl: "no-cache")
    }

    // MARK: - Colours

    private func colorList(_ chain: [ThemeIndex.ThemeInfo], _ request: Request, _ traits: TraitRequest) throws -> Response {
        let names = try index.names(.color, in: chain)
        let resolve = !Set(request.query.keys).isDisjoint(with: TraitParser.parameterNames) || request.query["resolve"] != nil
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        if resolve {
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

    private func color(_ name: String, _ chain: [ThemeIndex.ThemeInfo], _ traits: TraitRequest) throws -> Response {
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
        ] + (resolution.localization.map { [("localization", JSONValue.string($0))] } ?? [])
    }

    // MARK: - Images

    private func image(_ name: String, _ chain: [ThemeIndex.ThemeInfo], _ traits: TraitRequest) throws -> Response {
        let resolution = try resolveImage(name, chain, traits)
        let content = try self.content.content(of: resolution)
        let variant = resolution.variant
        var description = "theme=\(resolution.theme); scale=\(variant.traits.scale); idiom=\(Idiom.name(variant.traits.idiom)); appearance=\(variant.traits.appearance.label); gamut=\(variant.traits.gamut == 1 ? "p3" : "srgb"); source=\(relative(resolution.sourcePath))"
        if variant.kind == .file { description += "; file=\(relative(variant.location))" }
        if let localization = resolution.localization { description += "; localization=\(localization)" }
        if content.isMirrored { description += "; mirrored" }
        var response = Response(status: .ok, headers: [
            .contentType: content.contentType,
            .eTag: "\"\(variant.etag)\(content.isMirrored ? "-mirrored" : "")\"",
            .cacheControl: "public, max-age=60",
            HTTPField.Name("Vary")!: "Accept-Language, Sec-CH-DPR, Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast",
            HTTPField.Name("Accept-CH")!: "Sec-CH-DPR, Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast",
            HTTPField.Name("X-Themed-Variant")!: description,
        ], body: content.bytes)
        if let localization = resolution.localization { response.headers[.contentLanguage] = Self.languageTag(localization) }
        return response
    }

    /// A localization folder name as a BCP 47 tag for Content-Language (`en_GB` -> `en-GB`).
    static func languageTag(_ localization: String) -> String {
        localization.replacingOccurrences(of: "_", with: "-")
    }

    /// The image (catalog or loose file) for a request, or a 404 that names a near miss in case.
    private func resolveImage(_ name: String, _ chain: [ThemeIndex.ThemeInfo], _ traits: TraitRequest) throws -> ThemeIndex.Resolution {
        if let resolution = try index.resolveImage(named: name, in: chain, for: traits) { return resolution }
        var message = "theme \(chain.first?.name ?? "") has no image named \(name) for these traits (searched \(chain.map(\.name).joined(separator: ", ")))"
        if let other = try index.nameDifferingInCase(from: name, kinds: [.image, .data, .file], in: chain) {
            message += "; names are case-sensitive: did you mean \"\(other)\"?"
        }
        throw APIError.notFound(message)
    }

    private func imageMetadata(_ name: String, _ chain: [ThemeIndex.ThemeInfo], _ traits: TraitRequest) throws -> Response {
        let resolution = try resolveImage(name, chain, traits)
        guard let owner = chain.first(where: { $0.name == resolution.theme }) else { throw APIError.notFound("no theme") }
        let all = try index.variants(resolution.variant.kind, in: owner, named: resolution.variant.name)
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
        var chosen = describe(resolution.variant)
        if case .object(var members) = chosen {
            if resolution.variant.kind == .file {
                members += [("file", .string(relative(resolution.variant.location))), ("folder", .string(resolution.variant.traits.locale.isEmpty ? "" : resolution.variant.traits.locale + ".lproj"))]
            }
            chosen = .object(members)
        }
        let body: JSONValue = .object([
            ("theme", .string(chain.first?.name ?? "")),
            ("name", .string(name)),
            ("chosen", chosen),
            ("localization", resolution.localization.map(JSONValue.string) ?? .null),
            ("mirrored", .bool(resolution.isMirrored)),
            ("fallbacks", .array(resolution.fallbacks.map(JSONValue.string))),
            ("source", .object([("theme", .string(resolution.theme)), ("path", .string(relative(resolution.sourcePath)))])),
            ("href", .string("/themes/\(chain.first?.name ?? "")/images/\(name)")),
            ("variants", .array(all.map(describe))),
        ])
        return json(body, etagged: true)
    }

    // MARK: - Strings

    private func stringTables(_ chain: [ThemeIndex.ThemeInfo], _ traits: TraitRequest) throws -> Response {
        let localization = index.chosenLocalization(in: chain, languages: traits.languages)
        return localized(json(.object([
            ("theme", .string(chain.first?.name ?? "")),
            ("localization", localization.map(JSONValue.string) ?? .null),
            ("tables", .array(try index.stringTables(in: chain).map(JSONValue.string))),
        ]), etagged: true), localization)
    }

    /// `?count=N`: the number a plural string is for.
    static func pluralCount(_ request: Request) throws -> Int? {
        guard let value = request.query["count"] else { return nil }
        guard let count = Int(value), (0...Int(Int32.max)).contains(count) else {
            throw TraitParser.BadParameter(name: "count", value: value, expected: "a whole number from 0")
        }
        return count
    }

    private func stringTable(_ table: String, _ chain: [ThemeIndex.ThemeInfo], _ traits: TraitRequest, count: Int?) throws -> Response {
        let entries = try index.localizedTable(table, in: chain, languages: traits.languages)
        guard !entries.isEmpty else {
            throw APIError.notFound("theme \(chain.first?.name ?? "") has no strings table named \(table) (searched \(chain.map(\.name).joined(separator: ", ")))")
        }
        let localization = entries.first?.localization
        return localized(json(.object([
            ("theme", .string(chain.first?.name ?? "")),
            ("table", .string(table)),
            ("localization", localization.map(JSONValue.string) ?? .null),
            ("strings", .object(entries.map { ($0.key, .string(count.map($0.value(forCount:)) ?? $0.value)) })),
        ]), etagged: true), localization)
    }

    private func string(_ key: String, table: String, _ chain: [ThemeIndex.ThemeInfo], _ traits: TraitRequest, count: Int?) throws -> Response {
        guard let entry = try index.localizedString(key, table: table, in: chain, languages: traits.languages) else {
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
            ("source", .object([("theme", .string(entry.theme)), ("path", .string(relative(entry.file)))])),
        ]
        if !entry.forms.isEmpty {
            members.append(("forms", .object(entry.forms.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        return localized(json(.object(members), etagged: true), entry.localization)
    }

    /// Marks a response as depending on the client's languages and names the one chosen.
    private func localized(_ response: Response, _ localization: String?) -> Response {
        var response = response
        response.headers[HTTPField.Name("Vary")!] = "Accept-Language"
        if let localization { response.headers[.contentLanguage] = Self.languageTag(localization) }
        return response
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
