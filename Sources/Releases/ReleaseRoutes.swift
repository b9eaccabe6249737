import Cluster
import Foundation
import HTTPServer
import HTTPTypes
import JSON
import Review
import ThemeServer
import ThemeVocabulary

/// Releases for teams (docs/API.md, "Releases"): `POST /themes/{theme}/releases` (a .car or a
/// tar of a theme folder, with a token), `GET /themes/{theme}/releases` (the history),
/// `POST /themes/{theme}/rollback` and `DELETE /active/schedule/{id}`, registered into the
/// service's router by `themed serve`. Without a cluster store every one answers 409 naming the
/// `cluster` setting, a change only once its sender is the operator (401 first, as every change
/// route answers). None is readable by other origins. (`PUT /active` with a cluster store goes
/// through `ClusterActiveTheme`.)
///
/// The work (unpacking, checking, PostgreSQL) runs off the event loop, as a deferred answer.
public struct ReleaseRoutes: RouteCollection {
    let desk: ReleaseDesk?
    let metrics: ServiceMetrics
    /// A release published into a rollout is answered once this replica follows the rollout.
    let audiences: ClusterAudiences?
    /// Without a cluster store: who is told that releases need one. Anyone else asking for a
    /// change is refused as `PUT /active` refuses them, so that no route tells a client without
    /// a token more than that it needs one.
    let operators: OperatorCheck
    /// Whose X-Forwarded-For names the client that failed tokens count against: the operators'.
    var proxies: TrustedProxies { operators.proxies }
    /// Where draft-created and draft-approved webhook messages go (type, webhook id, data).
    let notify: @Sendable (_ type: String, _ id: String, _ data: JSONValue) -> Void

    public init(desk: ReleaseDesk?, metrics: ServiceMetrics, operators: OperatorCheck, audiences: ClusterAudiences? = nil,
                notify: @escaping @Sendable (_ type: String, _ id: String, _ data: JSONValue) -> Void = { _, _, _ in }) {
        (self.desk, self.metrics, self.operators, self.audiences, self.notify) = (desk, metrics, operators, audiences, notify)
    }

    public var routes: [Route] {
        [
            Route(Self.publishing, label: "releases", crossOrigin: false) { try publish($0) },
            .get("/themes/{theme}/releases", label: "releases", crossOrigin: false) { try history($0) },
            .get("/themes/{theme}/diff", label: "diff", crossOrigin: false) { try diff($0) },
            .get("/themes/{theme}/drafts", label: "drafts", crossOrigin: false) { try drafts($0) },
            .get("/drafts/{id}", label: "drafts", crossOrigin: false) { try draft($0) },
            Route(Self.redrafting, label: "drafts", crossOrigin: false) { try replaceDraft($0) },
            Route([.post], "/drafts/{id}/approve", label: "drafts", crossOrigin: false) { try approve($0) },
            Route([.post], "/themes/{theme}/rollback", label: "rollback", crossOrigin: false) { try rollback($0) },
            Route([.delete], "/active/schedule/{id}", label: "active", crossOrigin: false) { try cancel($0) },
            .get("/audit", label: "audit", crossOrigin: false) { try audit($0) },
        ]
    }

    /// Whether a request's body goes to a file as it arrives (the server's `BodySpool`): a
    /// release upload that presents a token. One without is read like any body (up to the
    /// in-memory limit) and answered 401: no one without credentials fills the spool.
    public static func receivesUpload(_ head: Request) -> Bool {
        head.headers[.authorization]?.hasPrefix("Bearer ") == true && (publishing.matches(head) || redrafting.matches(head))
    }

    /// The routes whose bodies are releases: a publish, and a draft's content posted again.
    static let publishing = RouteShape([.post], "/themes/{theme}/releases")
    static let redrafting = RouteShape([.put], "/drafts/{id}")

    private func publish(_ context: RequestContext) throws -> Response {
        let desk = try changeDesk(for: context.request)
        let (request, theme) = (context.request, context.parameter("theme"))
        guard Release.isPublishable(theme: theme) else {
            metrics.publishRefusals.add(1, ordering: .relaxed)
            throw APIError.badRequest("\"\(theme)\" is not a theme name a release may take: \(Release.publishableRule)")
        }
        let rollout = try request.query["rollout"].map { text in
            guard let percent = Double(text), percent.isFinite, (0...100).contains(percent) else {
                throw APIError.badRequest("rollout must be a percentage from 0 to 100, like rollout=5")
            }
            guard request.query["at"] == nil else { throw APIError.badRequest("a release is scheduled (at) or rolled out (rollout), not both") }
            return percent
        }
        let wait = try ServedWait.of(request)
        return Self.deferred(metrics: metrics, counted: .publish) {
            let token = try desk.tokens.authorize(request.headers[.authorization], from: proxies.client(of: request), to: .publish, theme: theme)
            guard let body = request.spooledBody else { throw Refusal.badRequest("the body did not arrive as an upload") }
            guard let kind = ReleaseDesk.BodyKind(contentType: request.headers[.contentType]) else {
                throw Refusal.unsupportedMediaType("send a .car as application/octet-stream or a theme folder as application/x-tar (gzip accepted)")
            }
            let draft = ["1", "true"].contains(request.query["draft"] ?? "")
            switch try desk.publish(theme: theme, body: body.path, kind: kind, by: token, at: request.query["at"], rollout: rollout, draft: draft) {
            case .drafted(let draft):
                let json = try JSONValueEncoder().encode(DraftBody(draft, required: try desk.requiredApprovals(of: theme)))
                notify("draft-created", "msg_draft_\(draft.id)_created", json)
                return JSONResponse.make(json, cacheControl: "no-store").with(status: .accepted)
            case .published(let entry):
                let served = try desk.awaitServed(entry.generation, wait)
                if rollout != nil, served == nil { audiences?.awaitFollowing(entry.generation) }
                // Published into a rollout, the release is current for everyone only at 100.
                return try JSONResponse.change(encoding: ReleaseBody(entry, current: (rollout ?? 100) == 100, rollout: rollout),
                                               status: .created, replicas: served)
            case .scheduled(let schedule):
                return try JSONResponse.make(encoding: schedule.body, cacheControl: "no-store").with(status: .accepted)
            }
        }
    }

    private func history(_ context: RequestContext) throws -> Response {
        let desk = try Self.cluster(desk)
        let theme = context.parameter("theme")
        return Self.deferred(metrics: metrics, counted: nil) {
            let entries = try desk.history(of: theme)
            guard !entries.isEmpty else { throw Refusal.notFound("the cluster store has no release of \(theme)") }
            // The newest release is current unless it is a retirement, or in a rollout: then the
            // one before is current for every client outside it.
            let rollout = audiences?.assigner.rollouts[theme]
            let current = rollout.map(\.previous) ?? entries.first.flatMap { $0.retired ? nil : $0.generation }
            let scheduled = desk.scheduled.filter { $0.theme == theme }
            return try JSONResponse.make(encoding: History(theme: theme, releases: entries.map { entry in
                ReleaseBody(entry, current: entry.generation == current, rollout: rollout.flatMap { $0.generation == entry.generation ? $0.percent : nil })
            }, scheduled: scheduled.map(\.body)), cacheControl: "no-store")
        }
    }

    /// What a release changes against another (`?from=G1&to=G2`; by default the current release
    /// against the one before it), as `themed diff` writes it: `?format=json` (the default),
    /// `markdown` or `text`. Readable as the history is; `Themed-Diff` says `same` or `differs`.
    private func diff(_ context: RequestContext) throws -> Response {
        let desk = try Self.cluster(desk)
        let (theme, query) = (context.parameter("theme"), context.request.query)
        func generation(_ name: String) throws -> Generation? {
            try query[name].map { text in
                guard let number = Generation(text), number > 0 else { throw APIError.badRequest("\(name) must be a release's generation, like \(name)=42") }
                return number
            }
        }
        let (from, to) = (try generation("from"), try generation("to"))
        let format = query["format"] ?? "json"
        guard ["json", "markdown", "text"].contains(format) else { throw APIError.badRequest("format is json, markdown or text") }
        return Self.deferred(metrics: metrics, counted: nil) {
            let (older, newer, review) = try desk.diff(theme: theme, from: from, to: to)
            let (before, after) = ("\(theme)@\(older)", "\(theme)@\(newer)")
            var response: Response
            switch format {
            case "markdown": response = Self.text(review.markdown(from: before, to: after), type: "text/markdown; charset=utf-8")
            case "text": response = Self.text(review.text, type: "text/plain; charset=utf-8")
            default:
                response = try JSONResponse.make(encoding: Joined(Compared(theme: theme, from: older, to: newer), review), cacheControl: "no-store")
            }
            response.headers[Self.diffField] = review.isEmpty ? "same" : "differs"
            return response
        }
    }

    /// Whether a diff found anything (`themed diff --server` exits 1 on `differs`).
    public static let diffField = HTTPField.Name("Themed-Diff")!

    private static func text(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-store"], body: Array(text.utf8))
    }

    private func rollback(_ context: RequestContext) throws -> Response {
        let desk = try changeDesk(for: context.request)
        let (request, theme) = (context.request, context.parameter("theme"))
        let wait = try ServedWait.of(request)
        return Self.deferred(metrics: metrics, counted: .rollback) {
            let token = try desk.tokens.authorize(request.headers[.authorization], from: proxies.client(of: request), to: .publish, theme: theme)
            guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
                  let number = object["generation"] as? NSNumber, case let generation = number.int64Value, generation > 0,
                  Double(generation) == number.doubleValue else {
                throw Refusal.badRequest("body must be JSON like {\"generation\": 42}")
            }
            let entry = try desk.rollback(theme: theme, to: generation, by: token)
            return try JSONResponse.change(encoding: ReleaseBody(entry, current: true), status: .created,
                                           replicas: try desk.awaitServed(entry.generation, wait))
        }
    }

    private func cancel(_ context: RequestContext) throws -> Response {
        let desk = try changeDesk(for: context.request)
        let request = context.request
        let id = try context.parameter("id", as: RecordID.self, naming: "schedule").value
        return Self.deferred(metrics: metrics, counted: nil) {
            // The token must cover the schedule's theme: known from the last sync, or "*" when not
            // yet seen; an alias's change is for tokens that may roll out.
            let pending = desk.pending(id)
            let token = try desk.tokens.authorize(request.headers[.authorization], from: proxies.client(of: request),
                                           to: pending?.kind == "alias" ? .rollout : .activate, theme: pending?.theme ?? "*")
            let cancelled = try desk.cancel(id, by: token.name)
            return try JSONResponse.make(encoding: Cancelled(cancelled: cancelled.body), cacheControl: "no-store")
        }
    }

    /// The audit trail (`?theme=`, `?since=` an RFC 3339 time, `?limit=` up to 1,000): to a token
    /// that may activate the theme named, or every theme (`*`) without one.
    private func audit(_ context: RequestContext) throws -> Response {
        let desk = try Self.cluster(desk)
        let request = context.request
        let (theme, since) = (request.query["theme"], request.query["since"])
        if let since, !Self.isTime(since) { throw APIError.badRequest("since must be an RFC 3339 time, like 2026-12-01T00:00:00Z") }
        let limit = try request.query["limit"].map { text in
            guard let number = Int(text), (1...1_000).contains(number) else { throw APIError.badRequest("limit must be from 1 to 1000") }
            return number
        } ?? 100
        return Self.deferred(metrics: metrics, counted: nil) {
            _ = try desk.tokens.authorize(request.headers[.authorization], from: proxies.client(of: request), to: .activate, theme: theme ?? "*")
            let entries = try desk.audit(theme: theme, since: since, limit: limit)
            return try JSONResponse.make(encoding: Audit(entries: entries.map(Audit.Entry.init)), cacheControl: "no-store")
        }
    }

    /// `2026-12-01T00:00:00Z`, with a fraction or an offset: what PostgreSQL's timestamptz takes
    /// here without guessing (a date alone or another order is refused before the store sees it).
    static func isTime(_ text: String) -> Bool {
        text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})/) != nil
    }

    /// The desk, or 409: these routes need a cluster store.
    static func cluster(_ desk: ReleaseDesk?) throws -> ReleaseDesk {
        guard let desk else { throw APIError.noCluster }
        return desk
    }

    /// The desk for a change (the desk checks the team's token itself); without one, the sender
    /// must be the operator before hearing 409.
    func changeDesk(for request: Request) throws -> ReleaseDesk {
        if desk == nil, !operators.allows(request) { throw operators.refusal(of: request, changing: "releases") }
        return try Self.cluster(desk)
    }

    /// Runs `work` on a global queue and answers with what it returns or the refusal it throws;
    /// `counted` names the metric a success adds to, and a refusal counts in `publishRefusals`.
    static func deferred(metrics: ServiceMetrics, counted: ServiceMetrics.ReleaseAction?,
                         _ work: @escaping @Sendable () throws -> Response) -> Response {
        Response(deferred: { complete in
            DispatchQueue.global().async {
                do {
                    let response = try work()
                    if let counted { metrics.count(counted) }
                    complete(response)
                } catch let refusal as Refusal {
                    if counted != nil { metrics.publishRefusals.add(1, ordering: .relaxed) }
                    complete(refusal.apiError.response)
                } catch let error as APIError {
                    complete(error.response)
                } catch {
                    complete(APIError(status: .internalServerError, code: "internal", message: "\(error)").response)
                }
            }
        })
    }

    /// `DELETE /active/schedule/{id}`: the schedule that will not be applied.
    struct Cancelled: Encodable {
        var cancelled: ScheduleBody
    }

    /// `GET /themes/{theme}/releases`: newest first, and the theme's schedules.
    struct History: Encodable {
        var theme: String
        var releases: [ReleaseBody]
        var scheduled: [ScheduleBody]
    }

    /// `GET /audit`: who changed what, newest first.
    struct Audit: Encodable {
        struct Entry: Encodable {
            var id: Int64
            var at: String
            var actor: String
            var action: String
            var theme: String
            var generation: Generation?
            /// Left out when empty.
            var detail: String?

            init(_ entry: AuditEntry) {
                (id, at, actor, action, theme, generation) = (entry.id, entry.at, entry.actor, entry.action, entry.theme, entry.generation)
                detail = entry.detail.isEmpty ? nil : entry.detail
            }
        }

        var entries: [Entry]
    }
}

/// The releases a diff compares, beside the review's members (`GET /themes/{theme}/diff`).
private struct Compared: Encodable {
    var theme: String
    var from: Generation
    var to: Generation
}
