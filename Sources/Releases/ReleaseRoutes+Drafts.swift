import Cluster
import HTTPServer
import JSON
import ThemeServer

/// Drafts (four-eyes approval, docs/REVIEW.md): `GET /themes/{theme}/drafts`, `GET /drafts/{id}`,
/// `PUT /drafts/{id}` (the content posted again) and `POST /drafts/{id}/approve`. A draft is made
/// by `POST /themes/{theme}/releases?draft=1`, or by any publish of a theme whose policy requires
/// approval.
extension ReleaseRoutes {
    private func draftID(_ context: RequestContext) throws -> Int64 {
        try context.parameter("id", as: RecordID.self, naming: "draft").value
    }

    /// The draft's theme and the request's token, which must have `permission` on that theme.
    private func draftTheme(_ id: Int64, of request: Request, on desk: ReleaseDesk, to permission: Token.Permission) throws -> (theme: String, token: Token) {
        let theme = try desk.draft(id).theme
        return (theme, try desk.tokens.authorize(request.headers[.authorization], from: proxies.client(of: request), to: permission, theme: theme))
    }

    /// A theme's open drafts, oldest first; readable as the history is.
    func drafts(_ context: RequestContext) throws -> Response {
        let desk = try Self.cluster(desk)
        let theme = context.parameter("theme")
        return Self.deferred(metrics: metrics, counted: nil) {
            let required = try desk.requiredApprovals(of: theme)
            // As each draft says it: one approval at least, whatever the policy.
            return try JSONResponse.make(encoding: DraftList(theme: theme, required: max(1, required),
                                                             drafts: try desk.drafts(of: theme).map { DraftBody($0, required: required) }),
                                         cacheControl: "no-store")
        }
    }

    func draft(_ context: RequestContext) throws -> Response {
        let desk = try Self.cluster(desk)
        let id = try draftID(context)
        return Self.deferred(metrics: metrics, counted: nil) {
            let draft = try desk.draft(id)
            return try JSONResponse.make(encoding: DraftBody(draft, required: try desk.requiredApprovals(of: draft.theme)), cacheControl: "no-store")
        }
    }

    /// The draft's content posted again (a token that may publish its theme): reviewed against
    /// what is live now, its approvals voided.
    func replaceDraft(_ context: RequestContext) throws -> Response {
        let desk = try changeDesk(for: context.request)
        let (request, id) = (context.request, try draftID(context))
        return Self.deferred(metrics: metrics, counted: nil) {
            let (theme, token) = try draftTheme(id, of: request, on: desk, to: .publish)
            guard let body = request.spooledBody else { throw Refusal.badRequest("the body did not arrive as an upload") }
            guard let kind = ReleaseDesk.BodyKind(contentType: request.headers[.contentType]) else {
                throw Refusal.unsupportedMediaType("send a .car as application/octet-stream or a theme folder as application/x-tar (gzip accepted)")
            }
            let draft = try desk.replaceDraft(id, of: theme, body: body.path, kind: kind, by: token)
            return try JSONResponse.make(encoding: DraftBody(draft, required: try desk.requiredApprovals(of: theme)), cacheControl: "no-store")
        }
    }

    /// An approval by a token that may review the draft's theme and is not its publisher; the last
    /// one needed publishes it as it asked (201 with the release, 202 with a schedule), or is
    /// refused (409) when the theme moved on since the draft was posted.
    func approve(_ context: RequestContext) throws -> Response {
        let desk = try changeDesk(for: context.request)
        let (request, id) = (context.request, try draftID(context))
        let wait = try ServedWait.of(request)
        return Self.deferred(metrics: metrics, counted: nil) {
            let (theme, token) = try draftTheme(id, of: request, on: desk, to: .review)
            let required = try desk.requiredApprovals(of: theme)
            let (response, draft): (Response, Draft)
            switch try desk.approve(id, by: token, required: required) {
            case .counted(let counted):
                (response, draft) = (try JSONResponse.make(encoding: DraftBody(counted, required: required), cacheControl: "no-store"), counted)
            case .published(let published, let generation):
                let served = try desk.awaitServed(generation, wait)
                if published.rollout != nil, served == nil { audiences?.awaitFollowing(generation) }
                let entry = try desk.history(of: theme).first { $0.generation == generation }
                let approved = Approved(draft: DraftBody(published, required: required),
                                        release: entry.map { ReleaseBody($0, current: (published.rollout ?? 100) == 100) })
                (response, draft) = (try JSONResponse.change(encoding: approved, status: .created, replicas: served), published)
            case .scheduled(let scheduled, let schedule):
                let answer = Approved(draft: DraftBody(scheduled, required: required), scheduled: schedule.body)
                (response, draft) = (try JSONResponse.make(encoding: answer, cacheControl: "no-store").with(status: .accepted), scheduled)
            }
            // One message an approval: the draft as it stands (its state says whether it was the last).
            notify("draft-approved", "msg_draft_\(id)_\(draft.digest.prefix(12))_approved_by_\(token.name)",
                   try JSONValueEncoder().encode(Approval(approver: token.name, draft: DraftBody(draft, required: required))))
            return response
        }
    }

    /// `GET /themes/{theme}/drafts`: the open drafts and the approvals each needs.
    struct DraftList: Encodable {
        var theme: String
        var required: Int
        var drafts: [DraftBody]
    }

    /// An approval that was the last one needed: the draft and the release it became (201) or
    /// the schedule that will make it one (202).
    struct Approved: Encodable {
        var draft: DraftBody
        var release: ReleaseBody?
        var scheduled: ScheduleBody?
    }

    /// The `draft-approved` webhook's data.
    struct Approval: Encodable {
        var approver: String
        var draft: DraftBody
    }
}
