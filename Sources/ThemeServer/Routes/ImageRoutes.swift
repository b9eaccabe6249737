import Foundation
import HTTPServer
import HTTPTypes
import ImageCoders
import JSON
import Logging
import ThemeContent
import ThemeIndex
import ThemeVocabulary

/// `GET /themes/{theme}/images/{name}`: the bytes of the best image, data or loose file for the
/// request's traits; `.../{name}.json`: which variant that is and every variant there is.
struct ImageRoutes: RouteCollection {
    let library: ThemeLibrary
    let logger: Logger
    var transforms = ImageTransformPolicy()

    var routes: [Route] {
        [
            .get("/themes/{theme}/images", label: "images", cacheable: true) { try imageList($0) },
            .get("/themes/{theme}/images/{name...}.json", label: "image-json", cacheable: true) { try imageMetadata($0) },
            .get("/themes/{theme}/images/{name...}", label: "image", cacheable: true) { try image($0) },
        ]
    }

    /// Names answer at most this many at a time unless `limit` says fewer.
    static let pageLimit = 1000

    /// Every image, data and loose-file name of the theme (its parents' included), in name order,
    /// with its kind and how many variants the theme that answers it has; paged with `limit` and
    /// `after` (the last name of the previous page, as `next` gives it).
    private func imageList(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        let query = context.request.query
        let limit = try query["limit"].map { text in
            guard let limit = Int(text), (1...Self.pageLimit).contains(limit) else {
                throw APIError(status: .badRequest, code: "bad_parameter", message: "parameter limit=\(text) is invalid; expected 1...\(Self.pageLimit)")
            }
            return limit
        } ?? Self.pageLimit
        let after = query["after"] ?? ""
        let reader = library.index.reader
        var entries: [(name: String, kind: AssetKind)] = []
        for kind in [AssetKind.image, .data, .file] {
            entries += try reader.names(kind, in: chain).map { ($0, kind) }
        }
        entries.sort { ($0.name, $0.kind.rawValue) < ($1.name, $1.kind.rawValue) }
        let remaining = entries.filter { $0.name > after }
        var page: [ImageList.Entry] = []
        for entry in remaining.prefix(limit) {
            var count = 0
            for member in chain {
                count = try reader.variants(entry.kind, in: member, named: entry.name).count
                if count > 0 { break }
            }
            page.append(.init(name: entry.name, kind: entry.kind.rawValue, variants: count, href: "/themes/\(theme.name)/images/\(entry.name)"))
        }
        let next = remaining.count > limit ? "/themes/\(theme.name)/images?limit=\(limit)&after=\(Self.queryEscaped(remaining[limit - 1].name))" : nil
        return try JSONResponse.make(encoding: ImageList(theme: theme.name, total: entries.count, images: page, next: next), etagged: true)
    }

    private static func queryEscaped(_ text: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// Cached bytes are answered at once; anything else is loaded on the worker pool and answered
    /// from there, so a cold decode never holds up the event loop's other connections.
    /// `format=`, `w=`, `h=`, `fit=`, `q=` and `preset=` ask for another format or size
    /// (`imageRequest`), as `imageTransforms` allows.
    private func image(_ context: RequestContext) throws -> Response {
        let (resolution, _, traits) = try resolve(context)
        let (request, negotiated) = try imageRequest(context, resolution, traits)
        let store = library.content
        let answer: @Sendable (ContentStore.Content) -> Response = { content in
            var response = Self.response(resolution, content, context)
            if negotiated { response.headers[.vary] = (response.headers[.vary] ?? "") + ", Accept" }
            return response
        }
        if let content = store.cached(resolution, as: request) { return answer(content) }
        // Converting a P3 bitmap for an sRGB request is themed's own idea, not the client's: when
        // the bytes cannot be converted, they are served as stored.
        var asked = request
        asked.fromDisplayP3 = false
        let onlyConverting = request.fromDisplayP3 && asked.isIdentity
        let logger = self.logger
        return Response(deferred: { complete in
            @Sendable func deliver(_ result: Result<ContentStore.Content, any Error>) {
                switch result {
                case .success(let content):
                    complete(answer(content))
                case .failure(let error as ContentStore.Busy):
                    complete(APIError.busy(error))
                case .failure(is ImageCoderError) where onlyConverting:
                    store.load(resolution) { deliver($0) }
                case .failure(let error as ImageCoderError):
                    complete(APIError(status: .unprocessableContent, code: "image_error", message: "\(error)").response)
                case .failure(let error):
                    logger.error("request failed", metadata: ["path": "\(context.request.path)", "request_id": "\(context.request.headers[.requestID] ?? "")", "error": "\(error)"])
                    complete(APIError(status: .internalServerError, code: "internal", message: "\(error)").response)
                }
            }
            store.load(resolution, as: request) { deliver($0) }
        })
    }

    /// The bytes, their ETag (the SHA-256 of exactly these bytes) and their immutable
    /// `/blobs/` URL in `Content-Location`; which variant answered in `X-Themed-Variant`.
    private static func response(_ resolution: Resolution, _ content: ContentStore.Content, _ context: RequestContext) -> Response {
        let variant = resolution.variant
        let traits = variant.traits
        var description = "theme=\(resolution.theme); scale=\(traits.scale); idiom=\(traits.idiom); appearance=\(traits.appearance.label); "
        description += "gamut=\(traits.gamut); source=\(context.relative(resolution.source.path))"
        if case .file(let path) = variant.location, variant.kind == .file { description += "; file=\(context.relative(path))" }
        if let localization = resolution.localization { description += "; localization=\(localization)" }
        if content.isMirrored { description += "; mirrored" }
        var response = ContentResponse.make(content, cacheControl: "public, max-age=60")
        response.headers[.contentLocation] = ContentResponse.blobPath(content.digest, contentType: content.contentType)
        response.headers[.vary] = "Accept-Language, Sec-CH-DPR, Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast"
        response.headers[.acceptCH] = "Sec-CH-DPR, Sec-CH-Prefers-Color-Scheme, Sec-CH-Prefers-Contrast"
        response.headers[.themedVariant] = description
        if let localization = resolution.localization { response.headers[.contentLanguage] = JSONResponse.languageTag(localization) }
        return response
    }

    /// Which variant answers and every variant there is, each with its blob's URL and ETag (their
    /// bytes are loaded first if they are not stored yet, so the answer never depends on timing).
    private func imageMetadata(_ context: RequestContext) throws -> Response {
        let (resolution, chain, traits) = try resolve(context)
        let name = context.parameter("name")
        guard let owner = chain.first(where: { $0.name == resolution.theme }) else { throw APIError.notFound("no theme") }
        let all = try library.index.reader.storedContent(of: owner, kind: resolution.variant.kind, named: resolution.variant.name)
        let theme = chain.first?.name ?? ""
        // At a density between catalog scales: which scale it is made from, and whether resized.
        let density = traits.density.map { asked in
            let width = resolution.variant.kind == .image ? ImageDensity.width(of: resolution.variant, at: asked) : nil
            return ImageMetadata.Density(asked: asked, scale: resolution.variant.traits.scale, resized: width != nil,
                                         pixelWidth: width ?? resolution.variant.pixelWidth)
        }
        let render: @Sendable ([ContentStore.Content?]) -> Response = { [self] contents in
            var chosen = ImageMetadata.VariantBody(resolution.variant, blob: contents.first ?? nil)
            if case .file(let path) = resolution.variant.location, resolution.variant.kind == .file {
                let locale = resolution.variant.traits.locale
                (chosen.file, chosen.folder) = (context.relative(path), locale.isEmpty ? "" : locale + ".lproj")
            }
            let body = ImageMetadata(theme: theme, name: name, chosen: chosen, localization: resolution.localization, mirrored: resolution.isMirrored,
                                     fallbacks: resolution.fallbacks,
                                     source: SourceBody(theme: resolution.theme, path: context.relative(resolution.source.path)),
                                     href: "/themes/\(theme)/images/\(name)",
                                     variants: zip(all, contents.dropFirst()).map { ImageMetadata.VariantBody($0.variant, blob: $1) }, density: density)
            do throws(APIError) { return try JSONResponse.make(encoding: body, etagged: true) } catch { return error.response }
        }
        let store = library.content
        let wanted = [resolution] + all
        if let contents = store.readyContents(wanted) { return render(contents) }
        return Response(deferred: { complete in store.loadAll(wanted) { complete(render($0)) } })
    }

    /// What the query asks the image to become: `format=png|webp|avif|jpeg|auto` (`auto`: the
    /// best the `Accept` header allows, and only then does the answer vary by it), `w=` and `h=`
    /// within the configured maximum, and the scale a vector is drawn at. A vector asked for no
    /// format but a scale keeps its bytes. Also whether `Accept` decided.
    private func imageRequest(_ context: RequestContext, _ resolution: Resolution, _ traits: TraitRequest) throws -> (ImageRequest, negotiated: Bool) {
        let query = context.request.query
        if let refusal = transforms.refusal(of: context.request.target, query: query) {
            throw APIError(status: .forbidden, code: "transform_refused", message: refusal)
        }
        let limits = library.content.coders.limits
        var request = ImageRequest(scale: traits.density ?? Double(traits.scale))
        var negotiated = false
        // A P3 bitmap answering an sRGB request (the last resort of the gamut fallback) is
        // converted, so the client sees the colours it asked for.
        let variant = resolution.variant
        request.fromDisplayP3 = variant.kind == .image && variant.format == "png" && variant.traits.gamut == .displayP3 && traits.gamut == .sRGB
        if let name = query["format"] {
            if name == "auto" {
                request.format = ImageRequest.negotiate(accept: context.request.headers[.accept])
                negotiated = true
            } else {
                guard let format = ImageRequest.outputFormats.first(where: { $0.rawValue == name }) else {
                    throw APIError(status: .badRequest, code: "bad_parameter",
                                   message: "parameter format=\(name) is invalid; expected \((ImageRequest.outputFormats.map(\.rawValue) + ["auto"]).joined(separator: ", "))")
                }
                request.format = format
            }
        }
        for (parameter, keyPath) in [("w", \ImageRequest.width), ("h", \ImageRequest.height)] {
            guard let text = query[parameter] else { continue }
            guard let value = Int(text), (1...limits.maxDimension).contains(value) else {
                throw APIError(status: .badRequest, code: "bad_parameter", message: "parameter \(parameter)=\(text) is invalid; expected 1...\(limits.maxDimension)")
            }
            request[keyPath: keyPath] = value
        }
        if let name = query["fit"] {
            guard let fit = ImageRequest.Fit(rawValue: name) else {
                throw APIError(status: .badRequest, code: "bad_parameter",
                               message: "parameter fit=\(name) is invalid; expected \(ImageRequest.Fit.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            request.fit = fit
        }
        if let text = query["q"] {
            guard let quality = Int(text), ImageRequest.qualities.contains(quality) else {
                throw APIError(status: .badRequest, code: "bad_parameter", message: "parameter q=\(text) is invalid; expected 1...100")
            }
            request.quality = quality
        }
        if let name = query["preset"] {
            guard let preset = transforms.presets[name] else {
                let known = transforms.presets.keys.sorted()
                throw APIError(status: .badRequest, code: "bad_parameter",
                               message: "parameter preset=\(name) is not a preset" + (known.isEmpty ? " (none is configured)" : "; expected \(known.joined(separator: ", "))"))
            }
            guard !ImageTransformPolicy.asksTransform(query) else {
                throw APIError(status: .badRequest, code: "bad_parameter", message: "preset= and w, h, fit, q or format do not go together")
            }
            for (side, limit) in [(preset.width, limits.maxDimension), (preset.height, limits.maxDimension)] where (side ?? 0) > limit {
                throw APIError(status: .badRequest, code: "bad_parameter", message: "preset \(name) asks more than imageMaxDimension (\(limit))")
            }
            preset.apply(to: &request)
        }
        if request.width == nil, request.height == nil, let density = traits.density, resolution.variant.kind == .image {
            request.width = ImageDensity.width(of: resolution.variant, at: density)
        }
        return (request, negotiated)
    }

    /// The image (catalog or loose file) for a request, with the chain and the traits it was
    /// resolved for (parsed once), or a 404 that names a near miss in case.
    private func resolve(_ context: RequestContext) throws -> (Resolution, [ThemeInfo], TraitRequest) {
        let chain = try context.chain()
        let traits = try context.traits(in: chain)
        let name = context.parameter("name")
        let reader = library.index.reader
        if let resolution = try reader.resolveImage(named: name, in: chain, for: traits) { return (resolution, chain, traits) }
        let hint = try reader.nameDifferingInCase(from: name, kinds: [.image, .data, .file], in: chain)
            .map { "names are case-sensitive: did you mean \"\($0)\"?" }
        throw APIError.noVariant("image", named: name, in: chain,
                                 available: try reader.availableTraits(named: name, kinds: [.image, .data, .file], in: chain), hint: hint)
    }

    /// `GET /themes/{theme}/images`: one page of the theme's image, data and file names.
    struct ImageList: Encodable {
        struct Entry: Encodable {
            var name: String
            var kind: String
            /// How many variants the theme that answers the name has.
            var variants: Int
            var href: String
        }

        var theme: String
        var total: Int
        var images: [Entry]
        /// The next page; null on the last.
        @Nullable var next: String?
    }

    /// `GET /themes/{theme}/images/{name}.json`: which variant answers, and every variant there is.
    struct ImageMetadata: Encodable {
        /// A variant with its blob's URL and ETag (null when its bytes could not be loaded).
        struct VariantBody: Encodable {
            var scale: Int
            var idiom: String
            /// A multisize member's size in points.
            var size: Int?
            var subtype: Int?
            var appearance: String
            var gamut: String
            var pixelWidth: Int
            var pixelHeight: Int
            var format: String
            @Nullable var etag: String?
            @Nullable var blob: String?
            /// A bundle's file: its path and `.lproj` folder.
            var file: String?
            var folder: String?

            init(_ variant: Variant, blob: ContentStore.Content?) {
                (scale, idiom, appearance, gamut) = (variant.traits.scale, variant.traits.idiom.name, variant.traits.appearance.label, variant.traits.gamut.name)
                (size, subtype) = (variant.traits.pointSize > 0 ? variant.traits.pointSize : nil, variant.traits.subtype != 0 ? variant.traits.subtype : nil)
                (pixelWidth, pixelHeight, format) = (variant.pixelWidth, variant.pixelHeight, variant.format)
                etag = blob?.digest.hex
                self.blob = blob.map { ContentResponse.blobPath($0.digest, contentType: $0.contentType) }
            }
        }

        /// At a density between catalog scales: which scale it is made from, and whether resized.
        struct Density: Encodable {
            var asked: Double
            var scale: Int
            var resized: Bool
            var pixelWidth: Int
        }

        var theme: String
        var name: String
        var chosen: VariantBody
        @Nullable var localization: String?
        var mirrored: Bool
        var fallbacks: [String]
        var source: SourceBody
        var href: String
        var variants: [VariantBody]
        var density: Density?
    }
}
