import Foundation
import HTTPServer
import HTTPTypes
import Logging

extension ThemeService {
    /// Asks, in-process, for what clients ask first of a theme with colours (its resolved
    /// palettes in both appearances, a colour, its detail; plain and compressed), each twice:
    /// routed through the middleware, then as a kept answer. A process does some work once, on a
    /// code path's first use: Swift makes the metadata of generic types from their mangled names,
    /// tables are initialised, a connection compiles its statements. After a restart that made
    /// the first palette asked 3-4x slower than the next (6-8 ms instead of 2 at 1,000 brands);
    /// `serve` rehearses before it is ready, so that no client pays for it.
    ///
    /// Nothing is counted, logged or kept: the stages that record (the request log, the metrics,
    /// the response cache) are instances of the rehearsal's own, dropped when it ends; the others
    /// are the service's.
    public func rehearse() {
        guard let theme = library.themes.first(where: { $0.error.isEmpty && $0.colorCount > 0 })?.name,
              let chain = try? library.chain(of: theme),
              let color = try? library.index.reader.names(.color, in: chain).first else { return }
        let live = preparedResponder.stack
        let unrecorded = ServiceMetrics()
        let stack = MiddlewareStack(
            requestLog: RequestLogMiddleware(accessLog: nil, logger: Logger(label: "themed.rehearsal") { _ in SwiftLogNoOpLogHandler() }, ids: RequestIDs()),
            metrics: MetricsMiddleware(metrics: unrecorded), cors: live.cors,
            responseCache: ResponseCacheMiddleware(library: library, cors: live.cors, metrics: unrecorded, capacityBytes: 1 << 20),
            compression: live.compression, pinnedGeneration: live.pinnedGeneration, sharedCache: live.sharedCache)
        let routed = Responder(middleware: stack.chain, router: preparedResponder.router)
        let kept = PreparedResponder(stack: stack, router: preparedResponder.router)
        let escaped = color.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? color
        for target in ["/themes/\(theme)/colors?resolve=1", "/themes/\(theme)/colors?resolve=1&appearance=dark",
                       "/themes/\(theme)/colors/\(escaped)", "/themes/\(theme)"] {
            for headers: HTTPFields in [[:], [.acceptEncoding: "gzip, br"]] {
                guard let request = try? Request(method: .get, target: target, headers: headers) else { continue }
                _ = routed.respond(to: request).response.waitForCompletion()
                _ = kept.answer(request)?.waitForCompletion()
            }
        }
    }
}
