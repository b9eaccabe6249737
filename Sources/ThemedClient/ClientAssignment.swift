import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which theme and generation the server assigned this client, and why (`GET /assign/{alias}`).
public struct ClientAssignment: Sendable, Equatable, Codable {
    public var theme: String
    public var generation: Int
    /// Where the client reads everything: `/themes/{theme}@{generation}`, kept by caches for good.
    public var base: String
    public var reason: String
}

/// What the client tells `/assign` of itself.
struct AssignmentQuery: Sendable {
    var alias: String
    var query: [URLQueryItem]
}

extension ThemedClient {
    /// Follows `alias`: asks the server which theme and generation this client reads (by the id
    /// it keeps, its platform, app version, locale and attributes), then reads everything at the
    /// generation-pinned base, and asks again when an `assignment-changed` event names the alias
    /// or a `resync` comes (while `follow()` runs), when the stream reopens, and when the pinned
    /// generation is gone.
    ///
    /// The answer is kept in the cache folder: with the server away, the client follows the last
    /// assignment it was given (its palette from the disk copy) and says so in `status`; it
    /// throws only when it has never been given one.
    @discardableResult
    public func follow(alias: String, platform: String? = nil, appVersion: String? = nil, locale: String? = nil,
                       attributes: [String: String] = [:]) async throws(ThemedClientError) -> ClientAssignment {
        var query = [URLQueryItem(name: "client", value: clientID)]
        for (name, value) in [("platform", platform), ("appVersion", appVersion), ("locale", locale)] {
            if let value { query.append(URLQueryItem(name: name, value: value)) }
        }
        query += attributes.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        state.withLock { $0.assignmentQuery = AssignmentQuery(alias: alias, query: query) }
        let assignment: ClientAssignment
        do {
            assignment = try await assign()
        } catch {
            guard let kept = keptAssignment(of: alias) else { throw error }
            report(error)
            follow(kept)
            loadCached()
            return kept
        }
        await refresh(reason: .fetched)
        return assignment
    }

    /// The assignment the client follows now; nil when it follows a theme by name.
    public var assignment: ClientAssignment? { state.withLock { $0.assignment } }

    /// Asks `/assign` again and follows the answer's pinned base; keeps it for an offline start.
    @discardableResult
    func assign() async throws(ThemedClientError) -> ClientAssignment {
        guard let asked = state.withLock({ $0.assignmentQuery }) else { throw .invalidResponse("no alias is followed") }
        let request = URLRequest(url: url(path: "/assign/\(asked.alias)", query: asked.query), timeoutInterval: settings.requestTimeout.seconds)
        let (body, response) = try await send(request)
        guard response.statusCode == 200 else { throw .status(response.statusCode, request.url ?? server) }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any], let theme = object["theme"] as? String,
              let generation = object["generation"] as? Int, let base = object["base"] as? String else {
            throw .invalidResponse("not an assignment")
        }
        let assignment = ClientAssignment(theme: theme, generation: generation, base: base, reason: object["reason"] as? String ?? "")
        // Still the alias followed (not left for setTheme while the answer was on its way).
        guard state.withLock({ $0.assignmentQuery?.alias }) == asked.alias else { return assignment }
        follow(assignment)
        if let cache, let data = try? JSONEncoder().encode(assignment) {
            do { try cache.keep(data, as: Self.assignmentFile(asked.alias)) } catch { report(error, offline: false) }
        }
        return assignment
    }

    private func follow(_ assignment: ClientAssignment) {
        state.withLock { state in
            state.assignment = assignment
            state.theme = "\(assignment.theme)@\(assignment.generation)"
        }
    }

    private func keptAssignment(of alias: String) -> ClientAssignment? {
        cache?.kept(Self.assignmentFile(alias)).flatMap { try? JSONDecoder().decode(ClientAssignment.self, from: $0) }
    }

    private static func assignmentFile(_ alias: String) -> String {
        "assignment-" + (alias.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "alias") + ".json"
    }

    /// The id this client gives `/assign`: `Settings.clientID`, else made once at random and kept
    /// beside the cache (without a cache directory, for this process's life), so the client stays
    /// in its rollout bucket. A folder that cannot be written is reported: the id then lasts this
    /// process only, and a rollout is not sticky across launches.
    public var clientID: String {
        if let given = settings.clientID { return given }
        guard let cache else { return processClientID }
        if let kept = cache.kept("client-id").map({ String(decoding: $0, as: UTF8.self) }), !kept.isEmpty { return kept }
        do {
            try cache.keep(Data(processClientID.utf8), as: "client-id")
        } catch {
            report(error, offline: false)
        }
        return processClientID
    }
}

private let processClientID = UUID().uuidString.lowercased()
