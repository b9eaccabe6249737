import Audiences
import HTTPServer
import JSON
import ThemeContent

/// Aliases and assignment (docs/API.md, "Audiences"): `GET /aliases`, `GET`, `PUT` and `DELETE
/// /aliases/{alias}`, and `GET /assign/{alias}?client=...`, which answers a client the theme and
/// the generation-pinned base it reads everything from, worked out in memory (`Assigner`).
///
/// Kept in the index (folder mode). With a cluster store the aliases would have to be the
/// store's, the same on every replica, and generations the store's: until it keeps them these
/// routes answer 409 there rather than answers that differ from replica to replica.
struct AudienceRoutes: RouteCollection {
    let library: ThemeLibrary
    let book: AliasBook
    let events: EventHub
    let metrics: ServiceMetrics
    let operators: OperatorCheck
    /// A cluster store serves the themes: see above.
    let clustered: Bool

    var routes: [Route] {
        [
            .get("/aliases", label: "aliases", crossOrigin: false) { _ in
                try refuseInCluster()
                return JSONResponse.make(.object([("aliases", .array(book.all.map(Self.json)))]), cacheControl: "no-store")
            },
            .get("/aliases/{alias}", label: "aliases", crossOrigin: false) { context in
                try refuseInCluster()
                guard let alias = book.alias(named: context.parameter("alias")) else { throw APIError.notFound("no alias named \(context.parameter("alias"))") }
                return JSONResponse.make(Self.json(alias), cacheControl: "no-store")
            },
            Route([.put], "/aliases/{alias}", label: "aliases", crossOrigin: false) { try put($0) },
            Route([.delete], "/aliases/{alias}", label: "aliases", crossOrigin: false) { try delete($0) },
            .get("/assign/{alias}", label: "assign") { try assign($0) },
        ]
    }

    private func refuseInCluster() throws {
        guard !clustered else {
            throw APIError(status: .conflict, code: "not_with_cluster",
                           message: "aliases and assignments are kept in the index of a server without a cluster store; a cluster store does not keep them yet")
        }
    }

    private func put(_ context: RequestContext) throws -> Response {
        try refuseInCluster()
        let name = context.parameter("alias")
        guard operators.allows(context.request) else { throw operators.refusal(of: context.request, changing: "aliases") }
        guard name != AliasBook.current else { throw APIError.badRequest("current is the active theme: change it with PUT /active") }
        let document: JSONValue
        do { document = try JSONParser.parse(context.request.body) } catch { throw APIError.badRequest("the body is not JSON: \(error)") }
        if document["at"] != nil { throw APIError.noCluster }
        let alias: Alias
        do { alias = try Alias(name: name, json: document) } catch {
            throw APIError(status: .unprocessableContent, code: "unprocessable", message: error.description)
        }
        for (place, theme, generation) in [("theme", alias.theme, alias.generation)] + alias.rules.enumerated().map({ ("rules[\($0)].theme", $1.theme, $1.generation) }) {
            guard let info = library.theme(named: theme) else { throw APIError.notFound("\(place): no theme named \(theme)") }
            if let generation, generation != info.generation {
                throw APIError(status: .unprocessableContent, code: "generation_not_kept",
                               message: "\(place): generation \(generation) of \(theme) is not kept: this server keeps only the one it serves, \(info.generation)")
            }
        }
        do { try book.put(alias) } catch { throw APIError(status: .internalServerError, code: "internal", message: "the alias could not be kept: \(error)") }
        Self.announce(alias.name, theme: alias.theme, to: events)
        return JSONResponse.make(Self.json(alias), cacheControl: "no-store")
    }

    private func delete(_ context: RequestContext) throws -> Response {
        try refuseInCluster()
        let name = context.parameter("alias")
        guard operators.allows(context.request) else { throw operators.refusal(of: context.request, changing: "aliases") }
        guard name != AliasBook.current else { throw APIError.badRequest("current is the active theme: it cannot be deleted") }
        let theme = book.alias(named: name)?.theme
        let removed: Bool
        do { removed = try book.remove(name) } catch { throw APIError(status: .internalServerError, code: "internal", message: "\(error)") }
        guard removed else { throw APIError.notFound("no alias named \(name)") }
        Self.announce(name, theme: theme, to: events)
        return JSONResponse.make(.object([("deleted", .string(name))]), cacheControl: "no-store")
    }

    private func assign(_ context: RequestContext) throws -> Response {
        try refuseInCluster()
        let name = context.parameter("alias")
        let client: Client
        do { client = try Client(query: context.request.query) } catch { throw APIError.badRequest(error.description) }
        guard let alias = book.alias(named: name) else { throw APIError.notFound("no alias named \(name)") }
        var generations: [String: Int] = [:]
        for theme in alias.themes { generations[theme] = library.theme(named: theme)?.generation }
        let assignment: Assignment
        do {
            assignment = try Assigner(aliases: [name: alias], generations: generations).assign(name, to: client)
        } catch .noSuchAlias {
            throw APIError.notFound("no alias named \(name)")
        } catch .themeGone(_, let theme) {
            throw APIError.notFound("alias \(name) points at \(theme), which is not served")
        }
        metrics.countAssignment(theme: assignment.theme, generation: assignment.generation, reason: assignment.kind.rawValue)
        // The client's own answer: caches in front keep it for this client only, and not for long.
        return JSONResponse.make(.object([
            ("alias", .string(assignment.alias)), ("theme", .string(assignment.theme)), ("generation", .int(assignment.generation)),
            ("base", .string(assignment.base)), ("reason", .string(assignment.reason)),
        ]), cacheControl: "private, max-age=60")
    }

    /// Tells clients of `alias` to ask for their assignment again.
    static func announce(_ alias: String, theme: String?, to events: EventHub) {
        var data: [(String, JSONValue)] = [("alias", .string(alias))]
        if let theme { data.append(("theme", .string(theme))) }
        events.publish("assignment-changed", .object(data))
    }

    static func json(_ alias: Alias) -> JSONValue {
        guard case .object(let members) = alias.json else { return alias.json }
        return .object([("name", .string(alias.name))] + members)
    }
}
