import HTTPServer
import HTTPTypes
import JSON
import Logging
import ThemeContent
import ThemeIndex

/// `GET /themes/{theme}/images/{name}`: the bytes of the best image, data or loose file for the
/// request's traits; `.../{name}.json`: which variant that is and every variant there is.
struct ImageRoutes: RouteCollection {
    let library: ThemeLibrary
    let logger: Logger

    var routes: [Route] {
        [
            .get("/themes/{theme}/images/{name...}.json", label: "image-json", cacheable: true) { try imageMetadata($0) },
            .get("/themes/{theme}/images/{name...}", label: "image", cacheable: true) { try image($0) },
        ]
    }

    /// Cached bytes are answered at once; anything else is loaded on the worker pool and answered
    /// from there, so a cold decode never holds up the event loop's other connections.
    private func image(_ context: RequestContext) throws -> Response {
        let (resolution, _) = try resolve(context)
        let store = library.content
        if let content = store.cached(resolution) { return Self.response(resolution, content, context) }
        let logger = self.logger
        return Response(deferred: { complete in
            store.load(resolution) { result in
                switch result {
                case .success(let content):
                    complete(Self.response(resolution, content, context))
                case .failure(let error as ContentStore.Busy):
                    var response = APIError(status: .serviceUnavailable, code: "busy", message: error.description).response
                    response.headers[.retryAfter] = "1"
                    complete(response)
                case .failure(let error):
                    logger.error("request failed", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
                    complete(APIError(status: .internalServerError, code: "internal", message: "\(error)").response)
                }
            }
        })
    }

    private static func response(_ resolution: Resolution, _ content: ContentStore.Content, _ context: RequestContext) -> Response {
        let variant = resolution.variant
        let traits = variant.traits
        var description = "theme=\(resolution.theme); scale=\(traits.scale); idiom=\(traits.idiom); appearance=\(traits.appearance.label); "
        description += "gamut=\(traits.gamut); source=\(context.relative(resolution.source.path))"
        if case .file(let path) = variant.location, variant.kind == .file { description += "; file=\(context.relative(path))" }
        if let localization = resolution.localization { description += "; localization=\(localization)" }
        if content.isMirrored { description += "; mirrored" }
        var response = Response(status: .ok, headers: [
            .contentType: content.contentType,
            .eTag: "\"\(variant.etag)\(content.isMirrored ? "-mirrored" : "")\"",
            .cacheControl: "public, max-age=60",
            .vary: "Accept-Language, Sec-CH-DPR, Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast",
            .acceptCH: "Sec-CH-DPR, Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast",
            .themedVariant: description,
        ], body: content.bytes)
        if let localization = resolution.localization { response.headers[.contentLanguage] = JSONResponse.languageTag(localization) }
        return response
    }

    private func imageMetadata(_ context: RequestContext) throws -> Response {
        let (resolution, chain) = try resolve(context)
        let name = context.parameter("name")
        guard let owner = chain.first(where: { $0.name == resolution.theme }) else { throw APIError.notFound("no theme") }
        let all = try library.index.reader.variants(resolution.variant.kind, in: owner, named: resolution.variant.name)
        var chosen = describe(resolution.variant)
        if case .file(let path) = resolution.variant.location, resolution.variant.kind == .file {
            let locale = resolution.variant.traits.locale
            chosen += [("file", .string(context.relative(path))), ("folder", .string(locale.isEmpty ? "" : locale + ".lproj"))]
        }
        let theme = chain.first?.name ?? ""
        let body: JSONValue = .object([
            ("theme", .string(theme)),
            ("name", .string(name)),
            ("chosen", .object(chosen)),
            ("localization", resolution.localization.map(JSONValue.string) ?? .null),
            ("mirrored", .bool(resolution.isMirrored)),
            ("fallbacks", .array(resolution.fallbacks.map(JSONValue.string))),
            ("source", .object([("theme", .string(resolution.theme)), ("path", .string(context.relative(resolution.source.path)))])),
            ("href", .string("/themes/\(theme)/images/\(name)")),
            ("variants", .array(all.map { .object(describe($0)) })),
        ])
        return JSONResponse.make(body, etagged: true)
    }

    private func describe(_ variant: Variant) -> [(String, JSONValue)] {
        [
            ("scale", .int(variant.traits.scale)),
            ("idiom", .string(variant.traits.idiom.name)),
            ("appearance", .string(variant.traits.appearance.label)),
            ("gamut", .string(variant.traits.gamut.name)),
            ("pixelWidth", .int(variant.pixelWidth)),
            ("pixelHeight", .int(variant.pixelHeight)),
            ("format", .string(variant.format)),
            ("etag", .string(variant.etag)),
        ]
    }

    /// The image (catalog or loose file) for a request, or a 404 that names a near miss in case.
    private func resolve(_ context: RequestContext) throws -> (Resolution, [ThemeInfo]) {
        let chain = try context.chain()
        let traits = try context.traits()
        let name = context.parameter("name")
        let reader = library.index.reader
        if let resolution = try reader.resolveImage(named: name, in: chain, for: traits) { return (resolution, chain) }
        var message = "theme \(chain.first?.name ?? "") has no image named \(name) for these traits (searched \(chain.map(\.name).joined(separator: ", ")))"
        if let other = try reader.nameDifferingInCase(from: name, kinds: [.image, .data, .file], in: chain) {
            message += "; names are case-sensitive: did you mean \"\(other)\"?"
        }
        throw APIError.notFound(message)
    }
}
