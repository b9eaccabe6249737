import HTTPServer
import HTTPTypes
import Hashing
import JSON
import Logging
import ThemeContent
import ThemeExport
import ThemeIndex

/// A theme's colours in other formats (`ThemeExport`): `GET /themes/{theme}/colors.css`,
/// `GET /themes/{theme}/tokens.json?mode=`, and every file of every format under
/// `/themes/{theme}/exports`. The colours are read on the worker pool: a theme with thousands
/// of them does not hold up an event loop.
struct ExportRoutes: RouteCollection {
    let library: ThemeLibrary
    let logger: Logger

    var routes: [Route] {
        [
            .get("/themes/{theme}/colors.css", label: "export", cacheable: true) { context in
                try export(context, .css) { $0.first }
            },
            .get("/themes/{theme}/tokens.json", label: "export", cacheable: true) { context in
                let modeName = context.request.query["mode"] ?? ColorMode.light.name
                guard let mode = ColorMode(name: modeName) else { throw APIError.badRequest(ExportError.unknownMode(modeName).description) }
                return try export(context, .dtcg) { files in files.first { $0.path == "tokens/\(mode.name).tokens.json" } }
            },
            .get("/themes/{theme}/exports", label: "exports", cacheable: true) { try exportList($0) },
            .get("/themes/{theme}/exports/{format}/{path...}", label: "export", cacheable: true) { context in
                let name = context.parameter("format")
                guard let format = ExportFormat(rawValue: name) else { throw APIError.notFound(ExportError.unknownFormat(name).description) }
                let path = context.parameter("path")
                return try export(context, format) { files in files.first { $0.path == path } }
            },
        ]
    }

    /// The formats and the files each writes, with where to get them. Which files there are
    /// depends on the theme's design tokens (a token theme's Android folder has `dimens.xml`),
    /// not on its colours: those are read on the worker pool, the colours are not.
    private func exportList(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        let empty = ColorTable(theme: theme.name, revision: theme.revision, rows: [])
        let reader = library.index.reader
        return Response(deferred: { complete in
            library.content.perform({ try TokenTable(reading: reader, chain: chain) }) { result in
                switch result {
                case .success(let tokens):
                    let formats = OrderedMembers(ExportFormat.allCases.map { format in
                        (name: format.rawValue, value: format.files(for: empty, tokens: tokens).map { file in
                            ExportList.File(path: file.path, href: "/themes/\(theme.name)/exports/\(format.rawValue)/\(file.path)")
                        })
                    })
                    do throws(APIError) {
                        complete(try JSONResponse.make(encoding: ExportList(theme: theme.name, formats: formats), etagged: true))
                    } catch {
                        complete(error.response)
                    }
                case .failure(let error as ContentStore.Busy):
                    complete(APIError.busy(error))
                case .failure(let error):
                    complete(APIError(status: .internalServerError, code: "internal", message: "\(error)").response)
                }
            }
        })
    }

    private func export(_ context: RequestContext, _ format: ExportFormat,
                        pick: @escaping @Sendable ([ExportFile]) -> ExportFile?) throws -> Response {
        let chain = try context.chain()
        let reader = library.index.reader
        let logger = self.logger
        // `?references=1`, `?light-dark=1`, `?prefix=ds`: as `themed export`'s flags.
        let query = context.request.query
        let options: ExportOptions
        do {
            options = try ExportOptions(references: ["1", "true"].contains(query["references"] ?? ""),
                                        lightDark: ["1", "true"].contains(query["light-dark"] ?? ""), prefix: query["prefix"] ?? "")
            try options.check(for: format)
        } catch {
            throw APIError.badRequest(error.description)
        }
        // A token theme's modifiers chosen by name (`?brand=portal`), as on the colour routes.
        let contexts = try context.traits(in: chain).contexts
        return Response(deferred: { complete in
            library.content.perform({
                (try ColorTable(reading: reader, chain: chain, contexts: contexts, relativePath: context.relative),
                 format.writesTokens ? try TokenTable(reading: reader, chain: chain, contexts: contexts) : .empty)
            }) { result in
                switch result {
                case .success(let (table, tokens)):
                    guard let file = pick(format.files(for: table, tokens: tokens, options: options)) else {
                        return complete(APIError.notFound("the \(format.rawValue) export has no file \(context.request.path)").response)
                    }
                    let body = Array(file.contents.utf8)
                    complete(Response(status: .ok, headers: [
                        .contentType: file.mediaType,
                        .cacheControl: "public, max-age=10",
                        .eTag: ContentResponse.etag(ContentHash.of(body)),
                    ], body: body))
                case .failure(let error as ContentStore.Busy):
                    complete(APIError.busy(error))
                case .failure(let error):
                    logger.error("export failed", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
                    complete(APIError(status: .internalServerError, code: "internal", message: "\(error)").response)
                }
            }
        })
    }

    /// `GET /themes/{theme}/exports`: every format's files, in the formats' order.
    struct ExportList: Encodable {
        struct File: Encodable {
            var path: String
            var href: String
        }

        var theme: String
        var formats: OrderedMembers<[File]>
    }
}
