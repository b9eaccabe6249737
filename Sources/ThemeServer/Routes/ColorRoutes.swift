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
        let traits = try context.traits(in: chain)
        return try context.resolvingTokens(in: chain, for: traits) { try colorList(context, chain: chain, traits: traits) }
    }

    private func colorList(_ context: RequestContext, chain: [ThemeInfo], traits: TraitRequest) throws -> Response {
        let reader = library.index.reader
        let query = context.request.query
        // Naming a token modifier's context (`?brand=portal`) asks for that palette, resolved.
        let resolve = !Set(query.keys).isDisjoint(with: TraitParser.parameterNames) || query["resolve"] != nil || !traits.contexts.isEmpty
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        var json = JSONWriter(reservingCapacity: 16 << 10)
        json.beginObject()
        json.key("theme")
        json.string(theme.name)
        var varyByLanguage = false
        if resolve {
            // A query a theme for the whole palette, whatever its size, each colour written once.
            let palette = try reader.palette(in: chain, for: traits)
            varyByLanguage = palette.contains { $0.localization != nil }
            // Degraded: a source of the chain was refused, so some colours may be missing. Said
            // in the answer, so that a client keeps its last good value of each missing name.
            // Stale: an edit was refused and the last good read serves, whole.
            let status = ServingStatus.of(chain)
            json.key("status")
            json.string(status.rawValue)
            if status == .degraded {
                // What its last whole generation had and it lacks now (since this process started).
                json.key("missing")
                json.beginArray()
                for name in library.missingColors(in: chain) { json.string(name) }
                json.endArray()
            }
            // What each theme of the chain holds (ThemeInfo.revision, the same on every replica):
            // a client compares an event's revision with these and skips a refetch of what it has.
            json.key("revisions")
            json.beginObject()
            for member in chain {
                json.key(member.name)
                json.string(member.revision)
            }
            json.endObject()
            // No scale: colours ignore it (lookup-rules.md 4.4), so the bytes (and the ETag) are
            // the same at every density, and a bootstrap's ETag answers an Android client's
            // dpr=2.625 and an iPhone's scale=3. (The idiom and gamut asked do show, in the
            // fallbacks each colour took.)
            json.key("traits")
            json.value(.object([
                ("appearance", .string(traits.appearance.label)),
                ("idiom", .string(traits.idiom.name)),
                ("gamut", .string(traits.gamut.name)),
            ]))
            json.key("colors")
            json.beginObject()
            // By index: a for-in loop copies each colour out of the array (a retain a member).
            // Most colours of a palette came from one source by the same fallbacks: their
            // provenance is written once and copied while it stays the same.
            var provenance: (of: Int, members: [UInt8])?
            for index in palette.indices {
                json.key(palette[index].name)
                json.beginObject()
                json.members(palette[index].members)
                if provenance.map({ !palette[index].hasSameProvenance(as: palette[$0.of]) }) ?? true {
                    provenance = (index, JSONWriter.members { json in
                        writeProvenance(fallbacks: palette[index].fallbacks, theme: palette[index].theme, path: palette[index].sourcePath,
                                        localization: palette[index].localization, context, to: &json)
                    })
                }
                json.members(provenance?.members ?? [])
                json.endObject()
            }
            json.endObject()
        } else {
            json.key("colors")
            json.beginArray()
            for name in try reader.names(.color, in: chain) {
                json.beginObject()
                json.key("name")
                json.string(name)
                json.key("variants")
                json.beginArray()
                for member in chain {
                    // The listing is what a client naming no modifier gets: the default contexts.
                    let found = try reader.variants(.color, in: member, named: name).filter { $0.contexts.isEmpty }
                    guard !found.isEmpty else { continue }
                    for variant in found {
                        json.beginObject()
                        json.key("traits")
                        ColorJSON.writeTraits(variant.traits, to: &json)
                        ColorJSON.write(variant, to: &json)
                        json.key("theme")
                        json.string(member.name)
                        json.endObject()
                    }
                    break
                }
                json.endArray()
                json.endObject()
            }
            json.endArray()
        }
        json.endObject()
        var response = JSONResponse.make(json, etagged: true)
        if resolve {
            // The hints that choose its colours: a shared cache keeps one copy where the bytes are
            // one, and never hands one client's palette to another whose hints choose others.
            response.headers[.vary] = PaletteHints.appearance + (varyByLanguage ? ", Accept-Language" : "")
            let status = ServingStatus.of(chain)
            if status != .ok {
                response.headers[.themedStatus] = "\(status.rawValue); problems=\"/themes/\(theme.name)/problems\""
            }
            if status == .degraded {
                // The names as a list of strings of RFC 8941 (a name with a quote or a backslash,
                // or not ASCII, is in the body's `missing` alone).
                let missing = library.missingColors(in: chain).filter { $0.allSatisfy { $0.isASCII && $0 != "\"" && $0 != "\\" && $0 >= " " } }
                if !missing.isEmpty { response.headers[.themedMissing] = missing.map { "\"\($0)\"" }.joined(separator: ", ") }
            }
        }
        return response
    }

    private func color(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        let traits = try context.traits(in: chain)
        return try context.resolvingTokens(in: chain, for: traits) { try color(context, chain: chain, traits: traits) }
    }

    private func color(_ context: RequestContext, chain: [ThemeInfo], traits: TraitRequest) throws -> Response {
        let name = context.parameter("name")
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        guard let resolution = try library.index.reader.resolve(.color, named: name, in: chain, for: traits) else {
            throw APIError.noVariant("color", named: name, in: chain,
                                     available: try library.index.reader.availableTraits(named: name, kinds: [.color], in: chain))
        }
        var json = JSONWriter()
        json.beginObject()
        json.key("theme")
        json.string(theme.name)
        json.key("name")
        json.string(name)
        writeMembers(of: resolution, context, to: &json)
        json.endObject()
        var response = JSONResponse.make(json, etagged: true)
        response.headers[.vary] = PaletteHints.appearance
        return response
    }

    /// A resolved colour's members: its value, traits, the fallbacks taken and where it came from.
    private func writeMembers(of resolution: Resolution, _ context: RequestContext, to json: inout JSONWriter) {
        ColorJSON.write(resolution.variant, to: &json)
        json.key(literal: "traits")
        ColorJSON.writeTraits(resolution.variant.traits, to: &json)
        writeProvenance(fallbacks: resolution.fallbacks, theme: resolution.theme, path: resolution.source.path,
                        localization: resolution.localization, context, to: &json)
    }

    /// The members of a resolved colour that its request chose: the fallbacks taken, the theme
    /// and source it came from (the path under the themes folder) and the localization.
    private func writeProvenance(fallbacks: [String], theme: String, path: String, localization: String?, _ context: RequestContext,
                                 to json: inout JSONWriter) {
        json.key(literal: "fallbacks")
        json.beginArray()
        for fallback in fallbacks { json.string(fallback) }
        json.endArray()
        json.key(literal: "source")
        json.beginObject()
        json.key(literal: "theme")
        json.string(theme)
        json.key(literal: "path")
        json.string(context.relative(path))
        json.endObject()
        if let localization {
            json.key(literal: "localization")
            json.string(localization)
        }
    }
}

/// The client hints that choose colours (`Sec-CH-DPR` does not: colours ignore scale).
enum PaletteHints {
    static let appearance = "Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast"
}
