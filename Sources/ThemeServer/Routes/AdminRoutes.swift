import Caching
import Foundation
import HTTPServer
import JSON
import Logging
import ThemeContent
import ThemeVocabulary

/// `GET /healthz`, `GET /metrics`, `GET /openapi.json`, and `GET`/`PUT /active`: the theme
/// `current` stands for.
struct AdminRoutes: RouteCollection {
    let library: ThemeLibrary
    let metrics: ServiceMetrics
    /// The caches `/metrics` reports.
    let caches: [any CacheReporting]
    let events: EventHub
    /// Who may change the active theme: the `activeToken`'s holder, or without one loopback
    /// clients (through a trusted proxy, the address it forwarded).
    let operators: OperatorCheck
    /// nil when this replica should take traffic; otherwise why not (draining).
    let readiness: @Sendable () -> String?
    /// With a cluster store: when it last answered (shown, never a reason to stop serving).
    let storeContact: StoreContact?
    /// With a cluster: where the active theme is kept for every replica, with its schedules, and
    /// where teams' tokens are checked.
    let store: (any ActiveThemeStore)?
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
                // Serving goes on without the store; `clusterStore` says how stale what it serves may be.
                let contact = storeContact.map { Health.StoreContact(reachable: $0.isReachable, silentSeconds: $0.secondsSinceAnswer) }
                return try JSONResponse.make(encoding: Health(themes: library.themes.count, clusterStore: contact), cacheControl: "no-store")
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
                    ("themed_warming_pending", "Contents queued for encoding in the background after a reload (0: everything is warm).",
                     library.content.warmingPending),
                    ("themed_releases_refused_total", "Cluster releases this replica could not write; it kept serving the one before.",
                     metrics.releasesRefused.load(ordering: .relaxed)),
                    ("themed_publishes_total", "Releases published through POST /themes/{theme}/releases on this replica.",
                     metrics.publishes.load(ordering: .relaxed)),
                    ("themed_rollbacks_total", "Rollbacks made through POST /themes/{theme}/rollback on this replica.",
                     metrics.rollbacks.load(ordering: .relaxed)),
                    ("themed_publish_refusals_total", "Publishes and rollbacks refused (token, scope, body, limits, store) on this replica.",
                     metrics.publishRefusals.load(ordering: .relaxed)),
                    ("themed_webhooks_delivered_total", "Webhook messages a subscriber took (2xx).", metrics.webhooksDelivered.load(ordering: .relaxed)),
                    ("themed_webhooks_retried_total", "Webhook tries after a failure.", metrics.webhooksRetried.load(ordering: .relaxed)),
                    ("themed_webhooks_failed_total", "Webhook messages given up on after 5 tries (GET /webhooks/deliveries lists them).",
                     metrics.webhooksFailed.load(ordering: .relaxed)),
                ] + (storeContact.map { contact in [
                    ("themed_cluster_store_reachable", "1 when the cluster store answered within clusterUnreachableSeconds, else 0 (serving goes on).",
                     contact.isReachable ? 1 : 0),
                    ("themed_cluster_store_silent_seconds", "Seconds since the cluster store last answered (-1: not yet): how stale releases may be.",
                     contact.silentSeconds),
                ] } ?? []))
                return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: "no-store"], body: exposition)
            },
            .get("/active", label: "active", crossOrigin: false) { _ in
                try JSONResponse.make(encoding: Active(theme: library.activeTheme, scheduled: store?.scheduledSwitches.map(\.body) ?? []),
                                      cacheControl: "no-store")
            },
            Route([.put], "/active", label: "active", crossOrigin: false) { try setActive($0) },
            .get("/openapi.json", label: "openapi") { _ in
                Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-cache"],
                         body: Array(OpenAPIDocument.json.utf8))
            },
        ]
    }

    /// `PUT /active` with `{"theme": T}` switches now, with `{"theme": T, "at": "<RFC 3339>"}`
    /// at that time (a cluster store keeps the schedule). Allowed: the `activeToken`; without
    /// one, loopback clients; with a cluster, a team's token that may activate the theme.
    private func setActive(_ context: RequestContext) throws -> Response {
        let request = context.request
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
              let name = object["theme"] as? String else {
            throw APIError.badRequest("body must be JSON like {\"theme\":\"dark\"} or {\"theme\":\"dark\",\"at\":\"2026-12-01T00:00:00Z\"}")
        }
        let at = object["at"] as? String
        if object["at"] != nil, at == nil { throw APIError.badRequest("at must be an RFC 3339 time, like 2026-12-01T00:00:00Z") }
        if at == nil, library.theme(named: name) == nil {
            // Another shard's replicas hold the theme and can tell whether it exists.
            if let misdirected = APIError.misdirected(name, in: library) { throw misdirected }
            throw APIError.notFound("no theme named \(name)")
        }
        let operatorAllowed = operators.allows(request)
        guard operatorAllowed || (store != nil && request.headers[.authorization] != nil) else {
            throw operators.refusal(of: request, changing: "the active theme")
        }
        guard let store else {
            if at != nil { throw APIError.noCluster }
            return try switchActive(to: name)
        }
        let credentials = operatorAllowed ? nil : Credentials(authorization: request.headers[.authorization], client: operators.proxies.client(of: request))
        let wait = try ServedWait.of(request)
        return JSONResponse.offLoop { [library, events, logger] () throws(APIError) in
            let caller = try credentials.map { credentials throws(APIError) in try store.authorize(credentials, theme: name) } ?? .operator
            if let at {
                let scheduled = try store.schedule(activating: name, at: at, by: caller)
                return try JSONResponse.make(encoding: ScheduledAnswer(scheduled.body), cacheControl: "no-store").with(status: .accepted)
            }
            let generation = try store.activate(name, by: caller)
            // Every replica switches when the store's notification arrives; this one at once (the
            // notification may have switched it already: announced once).
            Self.apply(name, library: library, events: events, generation: generation, logger: logger)
            return try JSONResponse.change(encoding: Switched(theme: name), status: .ok, replicas: try store.awaitServed(generation, wait))
        }
    }

    private func switchActive(to name: String) throws -> Response {
        do {
            try ReloadEvents.makeActive(name, library: library, events: events)
        } catch {
            throw APIError(status: .internalServerError, code: "internal", message: "\(error)")
        }
        return try JSONResponse.make(encoding: Switched(theme: name), cacheControl: "no-store")
    }

    /// The active theme set from elsewhere (the cluster); announced only when it changes.
    static func apply(_ name: String, library: ThemeLibrary, events: EventHub, generation: Generation? = nil, announcing: Bool = true, logger: Logger) {
        guard library.activeTheme != name, library.theme(named: name) != nil || library.isElsewhere(name) else { return }
        do {
            try ReloadEvents.makeActive(name, library: library, events: events, generation: generation, announcing: announcing)
        } catch {
            logger.error("could not switch the active theme", metadata: ["theme": "\(name)", "error": "\(error)"])
        }
    }

    /// `GET /healthz`.
    struct Health: Encodable {
        struct StoreContact: Encodable {
            var reachable: Bool
            /// Since the store last answered; null before it ever has.
            @Nullable var silentSeconds: Int?
        }

        var status = "ok"
        var themes: Int
        /// With a cluster store only.
        var clusterStore: StoreContact?
    }

    /// `GET /active`: the theme `current` stands for (null before any is loaded) and the scheduled switches.
    struct Active: Encodable {
        @Nullable var theme: String?
        var scheduled: [ScheduleBody]
    }

    /// `PUT /active`'s answer: the theme switched to (the OpenAPI document's `ActiveSwitch`).
    struct Switched: Encodable {
        var theme: String
    }
}
