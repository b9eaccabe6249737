import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which theme and generation the server assigned this client, and why (`GET /assign/{alias}`).
public struct ClientAssignment: Sendable, Equatable {
    public var theme: String
    public var generation: Int
    /// Where the client reads everything: `/themes/{theme}@{generation}`, kept by caches for good.
    public var base: String
    public var reason: String
}

/// What the client tells `/assign` of itself.
struct AudienceRequest: Sendable {
    var alias: String
    var query: [URLQueryItem]
}

extension ThemedClient {
    /// Follows `alias`: asks the server which theme and generation this client reads (by the id
    /// it keeps, its platform, app version, locale and attributes), then reads everything at the
    /// generation-pinned base, and asks again when an `assignment-changed` event names the alias
    /// (while `follow()` runs) or the pinned generation is gone.
    @discardableResult
    public func follow(alias: String, platform: String? = nil, appVersion: String? = nil, locale: String? = nil,
                       attributes: [String: String] = [:]) async throws(ThemedClientError) -> ClientAssignment {
        var query = [URLQueryItem(name: "client", value: clientID)]
        for (name, value) in [("platform", platform), ("appVersion", appVersion), ("locale", locale)] {
            if let value { query.append(URLQueryItem(name: name, value: value)) }
        }
        query += attributes.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        state.withLock { $0.audience = AudienceRequest(alias: alias, query: query) }
        let assignment = try await assign()
        await refresh(reason: .fetched)
        return assignment
    }

    /// The assignment the client follows now; nil when it follows a theme by name.
    public var assignment: ClientAssignment? { state.withLock { $0.assignment } }

    /// Asks `/assign` again and follows the answer's pinned base.
    @discardableResult
    func assign() async throws(ThemedClientError) -> ClientAssignment {
        guard let audience = state.withLock({ $0.audience }) else { throw .invalidResponse("no alias is followed") }
        var request = URLRequest(url: url(path: "/assign/\(audience.alias)", query: audience.query), timeoutInterval: 10)
        let (body, response) = try await send(request)
        guard response.statusCode == 200 else { throw .status(response.statusCode, request.url ?? server) }
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any], let theme = object["theme"] as? String,
              let generation = object["generation"] as? Int, let base = object["base"] as? String else {
            throw .invalidResponse("not an assignment")
        }
        let assignment = ClientAssignment(theme: theme, generation: generation, base: base, reason: object["reason"] as? String ?? "")
        state.withLock { state in
            state.assignment = assignment
            state.theme = "\(theme)@\(generation)"
        }
        return assignment
    }

    /// An `assignment-changed` event: for the followed alias, the assignment is asked again and
    /// the palette read at its base.
    func reassign(after event: ServerSentEvent) async {
        guard let alias = state.withLock({ $0.audience?.alias }),
              let data = event.data.data(using: .utf8), let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              object["alias"] as? String == alias else { return }
        do {
            let before = assignment
            if try await assign() != before { await refresh(reason: .event(event.type)) }
        } catch {
            state.withLock { $0.lastError = error }
        }
    }

    /// The id this client gives `/assign`: made once at random and kept beside the cache (without
    /// a cache directory, for this process's life), so the client stays in its rollout bucket.
    public var clientID: String {
        let made = UUID().uuidString.lowercased()
        guard let directory = cache?.directory else { return processClientID }
        let file = directory.appendingPathComponent("client-id")
        if let kept = try? String(contentsOf: file, encoding: .utf8), !kept.isEmpty { return kept }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? made.write(to: file, atomically: true, encoding: .utf8)
        return (try? String(contentsOf: file, encoding: .utf8)) ?? made
    }
}

private let processClientID = UUID().uuidString.lowercased()
