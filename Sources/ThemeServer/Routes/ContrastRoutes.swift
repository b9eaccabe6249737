import HTTPServer
import Logging
import ThemeContent
import ThemeExport
import ThemeVocabulary

/// `GET /themes/{theme}/contrast`: the WCAG 2.1 ratio of each colour pair its theme.json names
/// (`contrast.pairs`) in every mode, and whether it reaches its minimum (`ContrastReport`).
/// Read on the worker pool, as exports are.
struct ContrastRoutes: RouteCollection {
    let library: ThemeLibrary
    let logger: Logger

    var routes: [Route] {
        [.get("/themes/{theme}/contrast", label: "contrast", cacheable: true) { try contrast($0) }]
    }

    private func contrast(_ context: RequestContext) throws -> Response {
        let chain = try context.chain()
        guard let theme = chain.first else { throw APIError.notFound("no theme") }
        let contexts = try context.traits(in: chain).contexts
        let reader = library.index.reader
        let logger = self.logger
        return Response(deferred: { complete in
            // theme.json is read on the worker pool with the colours, not on the event loop.
            library.content.perform({ (try ThemeSettings(inheritingAt: theme.path), try ColorTable(reading: reader, chain: chain, contexts: contexts)) }) { result in
                switch result {
                case .success(let (settings, table)):
                    do throws(APIError) {
                        complete(try JSONResponse.make(encoding: ContrastReport(table: table, settings: settings), etagged: true))
                    } catch {
                        complete(error.response)
                    }
                case .failure(let error as ThemeSettings.Invalid):
                    complete(APIError(status: .serviceUnavailable, code: "theme_error", message: "\(error)").response)
                case .failure(let error as ContentStore.Busy):
                    complete(APIError.busy(error))
                case .failure(let error):
                    logger.error("contrast failed", metadata: ["path": "\(context.request.path)", "error": "\(error)"])
                    complete(APIError(status: .internalServerError, code: "internal", message: "\(error)").response)
                }
            }
        })
    }
}
