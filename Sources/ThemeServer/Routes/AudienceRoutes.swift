import Audiences
import HTTPServer
import JSON
import ThemeContent
import ThemeVocabulary

/// Aliases, rollouts and assignment (docs/API.md, "Audiences"): `GET /aliases`, `GET`, `PUT`
/// and `DELETE /aliases/{alias}`, `GET /rollouts`, `GET` and `PUT /themes/{theme}/rollout`, and
/// `GET /assign/{alias}?client=...`, which answers a client the theme and the generation-pinned
/// base it reads everything from, worked out in memory (`Assigner`).
///
/// Without a cluster store, aliases are kept in this server's index (`AliasBook`) and rollouts
/// answer 409; with one (`store`), both are the store's, the same on every replica.
struct AudienceRoutes: RouteCollection {
    let library: ThemeLibrary
    let book: AliasBook
    let events: EventHub
    let metrics: ServiceMetrics
    let operators: OperatorCheck
    let store: (any AudienceStore)?
    /// `/assign`'s answers differ only in their bodies: their head, settled for other origins as
    /// the chain settles every public answer, is serialised once.
    let assignAnswers: ResponseTemplate
    /// Each event loop's last `/assign` answer, and the assignment it wrote. Clients an alias's
    /// rules and rollouts place alike (every client of an alias with neither) get the same
    /// bytes, which are then written once rather than at each request.
    let lastAnswers = PerLoop<LastAnswer?> { _ in nil }

    struct LastAnswer: Sendable {
        let assignment: Assignment
        let response: Response
    }

    init(library: ThemeLibrary, book: AliasBook, events: EventHub, metrics: ServiceMetrics, operators: OperatorCheck, store: (any AudienceStore)?,
         cors: CORSMiddleware) {
        (self.library, self.book, self.events, self.metrics, self.operators, self.store) = (library, book, events, metrics, operators, store)
        // The client's own answer: caches in front keep it for this client only, and not for long.
        var head = Response(status: .ok, headers: JSONResponse.headers(cacheControl: "private, max-age=60"))
        cors.settle(&head)
        assignAnswers = ResponseTemplate(head)
    }

    var routes: [Route] {
        [
            .get("/aliases", label: "aliases", crossOrigin: false) { _ in
                let list = AliasList(aliases: aliases.map(\.named), scheduled: store.map { $0.scheduledAliasChanges.map(\.body) })
                return try JSONResponse.make(encoding: list, cacheControl: "no-store")
            },
            .get("/aliases/{alias}", label: "aliases", crossOrigin: false) { context in
                let name = context.parameter("alias")
                let alias = if let store { store.assigner.aliases[name] } else { book.alias(named: name) }
                guard let alias else { throw APIError.notFound("no alias named \(name)") }
                return try JSONResponse.make(encoding: alias.named, cacheControl: "no-store")
            },
            Route([.put], "/aliases/{alias}", label: "aliases", crossOrigin: false) { try put($0) },
            Route([.delete], "/aliases/{alias}", label: "aliases", crossOrigin: false) { try delete($0) },
            .get("/rollouts", label: "rollouts", crossOrigin: false) { _ in
                let rollouts = (store?.assigner.rollouts.values).map { $0.sorted { ThemeName.naturalOrder($0.theme, $1.theme) } } ?? []
                return try JSONResponse.make(encoding: Rollouts(rollouts: rollouts.map(body)), cacheControl: "no-store")
            },
            .get("/themes/{theme}/rollout", label: "rollouts", crossOrigin: false) { context in
                let store = try Self.cluster(store)
                let theme = context.parameter("theme")
                guard let rollout = store.assigner.rollouts[theme] else { throw APIError.notFound("\(theme) has no rollout under way") }
                return try JSONResponse.make(encoding: body(rollout), cacheControl: "no-store")
            },
            Route([.put], "/themes/{theme}/rollout", label: "rollouts", crossOrigin: false) { try rollout($0) },
            // Made per client, short and never kept: answered on the fast path (`Route.direct`).
            .get("/assign/{alias}", label: "assign", direct: true) { try assign($0) },
        ]
    }

    /// Every alias, `current` first, then by name.
    private var aliases: [Alias] {
        guard let store else { return book.all }
        let aliases = store.assigner.aliases
        return (aliases[AliasBook.current].map { [$0] } ?? [])
            + aliases.values.filter { $0.name != AliasBook.current }.sorted { ThemeName.naturalOrder($0.name, $1.name) }
    }

    static func cluster(_ store: (any AudienceStore)?) throws -> any AudienceStore {
        guard let store else { throw APIError.noCluster }
        return store
    }

    /// Who may change aliases and rollouts: the operator (nil), or with a cluster store the
    /// holder of a token, whose credentials the store checks (`caller`).
    private func credentials(_ request: Request) throws -> Credentials? {
        if operators.allows(request) { return nil }
        guard store != nil, let authorization = request.headers[.authorization] else {
            throw operators.refusal(of: request, changing: "aliases and rollouts")
        }
        return Credentials(authorization: authorization, client: operators.proxies.client(of: request))
    }

    /// Who asks, settled off the loop (a token is a round trip to the store): the operator, or
    /// the holder of the token presented, which must have `rollout` on every theme of `themes`.
    private static func caller(_ credentials: Credentials?, themes: [String], store: any AudienceStore) throws(APIError) -> Caller {
        guard let credentials else { return .operator }
        return try store.authorize(credentials, themes: themes)
    }

    private func put(_ context: RequestContext) throws -> Response {
        let name = context.parameter("alias")
        let credentials = try credentials(context.request)
        guard name != AliasBook.current else { throw APIError.badRequest("current is the active theme: change it with PUT /active") }
        let document: JSONValue
        do { document = try JSONParser.parse(context.request.body) } catch { throw APIError.badRequest("the body is not JSON: \(error)") }
        var at: String?
        if let value = document["at"] {
            guard case .string(let text) = value else { throw APIError.badRequest("at must be an RFC 3339 time, like 2026-12-01T00:00:00Z") }
            at = text
        }
        let alias: Alias
        do { alias = try Alias(name: name, json: document) } catch {
            throw APIError(status: .unprocessableContent, code: "unprocessable", message: error.description)
        }
        if let store {
            let wait = try ServedWait.of(context.request)
            // The token needs `rollout` on the themes the alias names and on those it named before.
            let themes = alias.themes + (store.assigner.aliases[alias.name]?.themes ?? [])
            let at = at
            return JSONResponse.offLoop { () throws(APIError) in
                let caller = try Self.caller(credentials, themes: themes, store: store)
                if let at {
                    let scheduled = try store.scheduleAlias(alias, at: at, by: caller)
                    return try JSONResponse.make(encoding: ScheduledAnswer(scheduled.body), cacheControl: "no-store").with(status: .accepted)
                }
                let kept = try store.putAlias(alias, by: caller, wait: wait)
                return try JSONResponse.change(encoding: kept.value.named, status: .ok, replicas: kept.replicas)
            }
        }
        if at != nil { throw APIError.noCluster }
        for (place, theme, generation) in [("theme", alias.theme, alias.generation)] + alias.rules.enumerated().map({ ("rules[\($0)].theme", $1.theme, $1.generation) }) {
            guard let info = library.theme(named: theme) else { throw APIError.notFound("\(place): no theme named \(theme)") }
            if let generation, generation != info.generation {
                throw APIError(status: .unprocessableContent, code: "generation_not_kept",
                               message: "\(place): generation \(generation) of \(theme) is not kept: this server keeps only the one it serves, \(info.generation)")
            }
        }
        do { try book.put(alias) } catch { throw APIError(status: .internalServerError, code: "internal", message: "the alias could not be kept: \(error)") }
        Self.announce(alias.name, theme: alias.theme, to: events)
        return try JSONResponse.make(encoding: alias.named, cacheControl: "no-store")
    }

    private func delete(_ context: RequestContext) throws -> Response {
        let name = context.parameter("alias")
        let credentials = try credentials(context.request)
        guard name != AliasBook.current else { throw APIError.badRequest("current is the active theme: it cannot be deleted") }
        if let store {
            let wait = try ServedWait.of(context.request)
            // An alias that is not there: a token needs `rollout` on every theme to be told so.
            let themes = store.assigner.aliases[name]?.themes ?? ["*"]
            return JSONResponse.offLoop { () throws(APIError) in
                let replicas = try store.removeAlias(name, by: try Self.caller(credentials, themes: themes, store: store), wait: wait)
                return try JSONResponse.change(encoding: Deleted(deleted: name), status: .ok, replicas: replicas)
            }
        }
        let theme = book.alias(named: name)?.theme
        let removed: Bool
        do { removed = try book.remove(name) } catch { throw APIError(status: .internalServerError, code: "internal", message: "\(error)") }
        guard removed else { throw APIError.notFound("no alias named \(name)") }
        Self.announce(name, theme: theme, to: events)
        return try JSONResponse.make(encoding: Deleted(deleted: name), cacheControl: "no-store")
    }

    /// `PUT /themes/{theme}/rollout {"generation": 43, "percent": 10}`.
    private func rollout(_ context: RequestContext) throws -> Response {
        // Who asks is settled first: a change route answers 401 to a request without a token
        // whenever the server knows tokens, whether or not it could make the change.
        let credentials = try credentials(context.request)
        let store = try Self.cluster(store)
        let theme = context.parameter("theme")
        let document: JSONValue
        do { document = try JSONParser.parse(context.request.body) } catch { throw APIError.badRequest("the body is not JSON: \(error)") }
        guard case .object(let members) = document, members.allSatisfy({ ["generation", "percent"].contains($0.0) }),
              case .int(let generation)? = document["generation"], generation > 0, let percent = document["percent"]?.number else {
            throw APIError.badRequest("body must be JSON like {\"generation\": 43, \"percent\": 10}")
        }
        // The percentage is the rollout's to check (`Rollout`): 422 from the store.
        let wait = try ServedWait.of(context.request)
        return JSONResponse.offLoop { () throws(APIError) in
            let caller = try Self.caller(credentials, themes: [theme], store: store)
            let changed = try store.setRollout(theme: theme, generation: Generation(generation), percent: percent, by: caller, wait: wait)
            let answer = if let rollout = changed.value {
                RolloutChange(theme: theme, generation: rollout.generation, previous: rollout.previous, percent: rollout.percent, current: false)
            } else {
                RolloutChange(theme: theme, generation: Generation(generation), percent: 100, current: true)
            }
            return try JSONResponse.change(encoding: answer, status: .ok, replicas: changed.replicas)
        }
    }

    private func assign(_ context: RequestContext) throws -> Response {
        let name = context.parameter("alias")
        var reading = Client.Reading()
        // The request's query decodes: a broken one was refused before it became a Request.
        context.request.forEachQueryItem { reading.note($0, $1) }
        let client: Client
        do { client = try reading.client() } catch { throw APIError.badRequest(error.description) }
        let assigner: Assigner
        if let store {
            assigner = store.assigner
        } else {
            guard let kept = book.assigner(for: name, loop: context.request.loop) else { throw APIError.notFound("no alias named \(name)") }
            assigner = kept
        }
        let assignment: Assignment
        do {
            assignment = try assigner.assign(name, to: client)
        } catch .noSuchAlias {
            throw APIError.notFound("no alias named \(name)")
        } catch .themeGone(_, let theme) {
            throw APIError.notFound("alias \(name) points at \(theme), which is not served")
        }
        let loop = context.request.loop
        metrics.countAssignment(theme: assignment.theme, generation: assignment.generation, reason: assignment.kind.rawValue, loop: loop)
        if let same = lastAnswers.withState(forLoop: loop, { _, last in last?.assignment == assignment ? last?.response : nil }) { return same }
        // Written member by member (no JSONValue tree): every client asks at start.
        var json = JSONWriter(reservingCapacity: 160)
        json.beginObject()
        json.key(literal: "alias"); json.string(assignment.alias)
        json.key(literal: "theme"); json.string(assignment.theme)
        json.key(literal: "generation"); json.int(Int(assignment.generation))
        json.key(literal: "base"); json.string(assignment.base)
        json.key(literal: "reason"); json.string(assignment.reason)
        json.endObject()
        let response = assignAnswers.response(body: JSONResponse.body(json))
        lastAnswers.withState(forLoop: loop) { _, last in last = LastAnswer(assignment: assignment, response: response) }
        return response
    }

    /// A rollout as `GET /rollouts` shows it (the OpenAPI document's `Rollout`).
    struct RolloutBody: Encodable {
        var theme: String
        var generation: Generation
        var previous: Generation
        var percent: Double
        /// How many assignments each generation got from this replica, by generation, in order.
        var assignments: OrderedMembers<Int>
    }

    /// `GET /rollouts`.
    struct Rollouts: Encodable {
        var rollouts: [RolloutBody]
    }

    /// `PUT /themes/{theme}/rollout`'s answer (the OpenAPI document's `RolloutChange`): the
    /// rollout as it now is, or `current` when it went to everyone.
    struct RolloutChange: Encodable {
        var theme: String
        var generation: Generation
        var previous: Generation?
        var percent: Double
        var current: Bool
    }

    /// `GET /aliases`: the aliases and, with a cluster store, the changes waiting for their time.
    struct AliasList: Encodable {
        var aliases: [Alias.Named]
        var scheduled: [ScheduleBody]?
    }

    /// `DELETE /aliases/{alias}`'s answer (the OpenAPI document's `AliasDeleted`).
    struct Deleted: Encodable {
        var deleted: String
    }

    private func body(_ rollout: Rollout) -> RolloutBody {
        let counts = metrics.assignmentCounts(of: rollout.theme).sorted { $0.key < $1.key }
        return RolloutBody(theme: rollout.theme, generation: rollout.generation, previous: rollout.previous, percent: rollout.percent,
                           assignments: OrderedMembers(counts.map { (String($0.key), $0.value) }))
    }

    /// Tells clients of `alias` to ask for their assignment again.
    static func announce(_ alias: String, theme: String?, to events: EventHub, generation: Generation? = nil) {
        events.publish(.assignmentChanged(alias: alias, theme: theme), generation: generation)
    }
}
