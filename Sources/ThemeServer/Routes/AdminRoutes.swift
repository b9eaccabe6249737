import Caching
import Foundation
import HTTPServer
import JSON
import Logging
import ThemeContent

/// `GET /healthz`, `GET /metrics`, `GET /openapi.json`, and `GET`/`PUT /active`: the theme
/// `current` stands for.
struct AdminRoutes: RouteCollection {
    let library: ThemeLibrary
    let metrics: ServiceMetrics
    /// The caches `/metrics` reports.
    let caches: [any CacheReporting]
    let events: EventHub
    /// When set, `PUT /active` needs `Authorization: Bearer <token>`; when nil, only clients on
    /// the loopback interface may change the active theme.
    let activeToken: String?
    /// nil when this replica should take traffic; otherwise why not (draining, a cluster store
    /// unreachable for too long).
    let readiness: @Sendable () -> String?
    /// With a cluster, where the active theme is kept for every replica: stores a switch and
    /// returns its generation; throws when it cannot.
    let activeStore: (@Sendable (String) throws -> Int)?
    let logger: Logger

    var routes: [Route] {
        [
            .get("/readyz", label: "readyz", crossOrigin: false) { _ in
                // Liveness is /healthz; this says whether to send traffic (load balancers, Varnish).
                guard let reason = readiness() else {
                    return JSONResponse.make(["status": "ready"], cacheControl: "no-store")
                }
                var response = APIError(status: .serviceUnavailable, code: "not_ready", message: reason).response
                response.headers[.retryAfter] = "1"
                return response
            },
            .get("/healthz", label: "healthz", crossOrigin: false) { _ in
                JSONResponse.make(["status": "ok", "themes": .int(library.themes.count)], cacheControl: "no-store")
            },
            .get("/metrics", label: "metrics", crossOrigin: false) { _ in
                let decoding = library.content.decoding.statistics
                let exposition = metrics.exposition(caches: caches.map { ($0.name, $0.statistics) }, gauges: [
                    ("themed_decodes_total", "Images and data decoded or read from theme files because no blob had them.", library.content.decodes),
                    ("themed_encodings_total", "Compressed encodings made (each once per content).", library.content.encodings),
                    ("themed_blob_store_failures_total", "Contents the blob store could not keep (served from memory).", library.content.storeFailures),
                    ("themed_blob_corrupt_total", "Blobs whose bytes no longer matched their hash (dropped and rebuilt).", library.content.blobs.statistics.corrupt),
                    ("themed_decode_memory_bytes", "Working memory reserved by the decodes and encodes under way.", decoding.reservedBytes),
                    ("themed_decode_memory_capacity_bytes", "The budget of that working memory.", decoding.capacityBytes),
                    ("themed_decode_memory_waits_total", "Decodes that waited for working memory.", decoding.waits),
                    ("themed_subscribers", "Open event streams.", events.subscriberCount),
                    ("themed_releases_refused_total", "Cluster releases this replica could not write; it kept serving the one before.",
                     metrics.releasesRefused.load(ordering: .relaxed)),
                ])
                return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: "no-store"], body: exposition)
            },
            .get("/active", label: "active", crossOrigin: false) { _ in
                JSONResponse.make(["theme": library.activeTheme.map(JSONValue.string) ?? .null], cacheControl: "no-store")
            },
            Route([.put], "/active", label: "active", crossOrigin: false) { try setActive($0) },
            .get("/openapi.json", label: "openapi") { _ in
                Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                         body: Array(OpenAPIDocument.json.utf8))
            },
        ]
    }

    private func setActive(_ context: RequestContext) throws -> Response {
        let request = context.request
        if let token = activeToken {
            guard request.headers[.authorization] == "Bearer \(token)" else {
                throw APIError(status: .unauthorized, code: "unauthorized", message: "PUT /active needs Authorization: Bearer <token>")
            }
        } else if !(request.remoteAddress.hasPrefix("127.") || request.remoteAddress.hasPrefix("[::1]")) {
            throw APIError(status: .forbidden, code: "forbidden", message: "without a configured token, only loopback clients may change the active theme")
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
              let name = object["theme"] as? String else {
            throw APIError.badRequest("body must be JSON like {\"theme\":\"dark\"}")
        }
        guard library.theme(named: name) != nil else { throw APIError.notFound("no theme named \(name)") }
        guard let activeStore else { return try switchActive(to: name) }
        // With a cluster the change goes to PostgreSQL first: a round trip (or a connection that
        // times out) that must not hold up the event loop's other connections. Every replica
        // switches when the store's notification arrives; this one at once.
        return Response(deferred: { [self] complete in
            DispatchQueue.global().async {
                let generation: Int
                do {
                    generation = try activeStore(name)
                } catch {
                    complete(APIError(status: .serviceUnavailable, code: "cluster_unavailable", message: "the cluster store did not take the change: \(error)").response)
                    return
                }
                // The store's notification may have switched this replica already: announced once.
                Self.apply(name, library: library, events: events, generation: generation, logger: logger)
                complete(JSONResponse.make(["theme": .string(name)], cacheControl: "no-store"))
            }
        })
    }

    private func switchActive(to name: String) throws -> Response {
        do {
            try ReloadEvents.makeActive(name, library: library, events: events)
        } catch {
            throw APIError(status: .internalServerError, code: "internal", message: "\(error)")
        }
        return JSONResponse.make(["theme": .string(name)], cacheControl: "no-store")
    }

    /// The active theme set from elsewhere (the cluster); announced only when it changes.
    static func apply(_ name: String, library: ThemeLibrary, events: EventHub, generation: Int? = nil, logger: Logger) {
        guard library.activeTheme != name, library.theme(named: name) != nil else { return }
        do {
            try ReloadEvents.makeActive(name, library: library, events: events, generation: generation)
        } catch {
            logger.error("could not switch the active theme", metadata: ["theme": "\(name)", "error": "\(error)"])
        }
    }
}
