import HTTPServer
import JSON
import ThemeContent
import ThemeIndex

/// `GET /themes/{theme}/colors` (every colour's variants, or a resolved palette when the query
/// names traits) and `GET /themes/{theme}/colors/{name}`.
struct ColorRoutes: RouteCollection {
    let library: ThemeLibrary

    var routes: [Route] {
        [
            .get("/themes/{theme}/colors", label: "colors", cacheable: true) { try colorList($0) },
            .get("/themes/{theme}/colors/{name...}", label: "color", cacheable: true) { try color($0) },
        ]
    }

    private func colorList(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        let traits = try context.traits()
        let reader = library.index.reader
        let query = context.request.query
        let resolve = !Set(query.keys).isDisjoint(with: TraitParser.parameterNames) || query["resolve"] != nil
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        if resolve {
            // One query for the whole palette, whatever its size.
            let colors = try reader.resolveAll(.color, in: chain, for: traits).map { resolution in
                (resolution.variant.name, JSONValue.object(colorMembers(resolution, context)))
            }
            let traitsJSON: JSONValue = .object([
                ("appearance", .string(traits.appearance.label)),
                ("idiom", .string(traits.idiom.name)),
                ("scale", .int(traits.scale)),
                ("gamut", .string(traits.gamut.name)),
            ])
            return JSONResponse.make(.object([("theme", .string(theme.name)), ("traits", traitsJSON), ("colors", .object(colors))]), etagged: true)
        }
        var colors: [JSONValue] = []
        for name in try reader.names(.color, in: chain) {
            var variants: [JSONValue] = []
            for member in chain {
                let found = try reader.variants(.color, in: member, named: name)
                guard !found.isEmpty else { continue }
                variants = found.map { variant in
                    .object([("traits", ColorRendering.traits(variant.traits))] + ColorRendering.json(variant) + [("theme", .string(member.name))])
                }
                break
            }
            colors.append(.object([("name", .string(name)), ("variants", .array(variants))]))
        }
        return JSONResponse.make(.object([("theme", .string(theme.name)), ("colors", .array(colors))]), etagged: true)
    }

    private func color(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        let traits = try context.traits()
        let name = context.parameter("name")
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        guard let resolution = try library.index.reader.resolve(.color, named: name, in: chain, for: traits) else {
            throw APIError.noVariant("color", named: name, in: chain,
                                     available: try library.index.reader.availableTraits(named: name, kinds: [.color], in: chain))
        }
        var response = JSONResponse.make(.object([("theme", .string(theme.name)), ("name", .string(name))] + colorMembers(resolution, context)),
                                         etagged: true)
        response.headers[.vary] = "Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast"
        return response
    }

    private func colorMembers(_ resolution: Resolution, _ context: RequestContext) -> [(String, JSONValue)] {
        ColorRendering.json(resolution.variant) + [
            ("traits", ColorRendering.traits(resolution.variant.traits)),
            ("fallbacks", .array(resolution.fallbacks.map(JSONValue.string))),
            ("source", .object([("theme", .string(resolution.theme)), ("path", .string(context.relative(resolution.source.path)))])),
        ] + (resolution.localization.map { [("localization", JSONValue.string($0))] } ?? [])
    }
}
