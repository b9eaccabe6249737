import HTTPServer
import HTTPTypes
import JSON
import Sharding
import ThemeContent
import ThemeIndex
import ThemeVocabulary

/// An error answer: `{"error":{"code":"...","message":"..."}}` with its status.
public struct APIError: Error {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// For a name that exists but not for the traits asked: the traits it does exist for, by the
    /// query parameter that asks for each (`{"idiom": ["phone", "pad"], "scale": [2, 3]}`).
    var available: JSONValue?
    /// For a theme another shard serves: that shard ("2/8"), also sent as `Themed-Shard`.
    var shard: Shard?
    /// Fields the answer carries besides (`WWW-Authenticate` with a 401, `Retry-After`).
    public var headers: HTTPFields = [:]

    public init(status: HTTPResponse.Status, code: String, message: String, available: JSONValue? = nil) {
        (self.status, self.code, self.message, self.available) = (status, code, message, available)
    }

    public static func notFound(_ message: String) -> APIError { APIError(status: .notFound, code: "not_found", message: message) }
    public static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, code: "bad_request", message: message) }

    /// 409: what was asked needs a cluster store (releases, rollbacks, schedules).
    public static let noCluster = APIError(status: .conflict, code: "no_cluster",
                                           message: "releases, rollbacks and schedules need a cluster store: set the cluster setting (docs/DEPLOY.md)")

    /// 421 when this replica's shard does not serve `theme`, naming the shard that does
    /// (docs/DEPLOY.md "Shards"); nil when it is served here.
    static func misdirected(_ theme: String, in library: ThemeLibrary) -> APIError? {
        guard let shard = library.shard, library.isElsewhere(theme) else { return nil }
        let owner = shard.owner(of: theme)
        var error = APIError(status: .misdirectedRequest, code: "other_shard", message: "theme \(theme) is served by shard \(owner)")
        error.shard = owner
        return error
    }

    /// The worker pool's queue is full: 503 with a hint to try again in a second.
    static func busy(_ error: ContentStore.Busy) -> Response {
        var response = APIError(status: .serviceUnavailable, code: "busy", message: error.description).response
        response.headers[.retryAfter] = "1"
        return response
    }

    /// A combination as the query parameters that ask for it; defaults (no size, no subtype,
    /// any appearance, no language) left out.
    static func parameters(_ combination: AvailableTraits.Combination) -> [(String, JSONValue)] {
        var parameters: [(String, JSONValue)] = [("idiom", .string(combination.idiom.name))]
        if combination.scale > 0 { parameters.append(("scale", .int(combination.scale))) }
        if combination.size > 0 { parameters.append(("size", .int(combination.size))) }
        if combination.subtype != 0 { parameters.append(("subtype", .int(combination.subtype))) }
        if combination.appearance != Appearance.any.label { parameters.append(("appearance", .string(combination.appearance))) }
        if !combination.language.isEmpty { parameters.append(("lang", .string(combination.language))) }
        return parameters
    }

    /// The 404 for `kind` `name` that no variant in `chain` answers for the traits asked: when the
    /// name exists, the message and `available` say for which traits.
    static func noVariant(_ kind: String, named name: String, in chain: [ThemeInfo], available: AvailableTraits, hint: String? = nil) -> APIError {
        var message = "theme \(chain.first?.name ?? "") has no \(kind) named \(name) for these traits (searched \(chain.map(\.name).joined(separator: ", ")))"
        let lists: [(parameter: String, values: [JSONValue])] = [
            ("idiom", available.idioms.map { .string($0.name) }), ("scale", available.scales.map { .int($0) }),
            ("appearance", available.appearances.map { .string($0) }), ("gamut", available.gamuts.map { .string($0.name) }),
            ("size", available.sizes.map { .int($0) }), ("subtype", available.subtypes.map { .int($0) }),
            ("lang", available.languages.map { .string($0) }),
        ].filter { !$0.values.isEmpty }
        // The combinations, as query parameters: what a client can ask and be answered.
        let combinations = available.combinations.map(Self.parameters)
        if !combinations.isEmpty {
            message += "; it exists for " + combinations.map { members in
                members.map { parameter, value in
                    switch value {
                    case .string(let text): "\(parameter)=\(text)"
                    case .int(let number): "\(parameter)=\(number)"
                    default: "\(parameter)=\(value.serialized())"
                    }
                }.joined(separator: "&")
            }.joined(separator: ", ")
        }
        if let hint { message += "; " + hint }
        var members = lists.map { ($0.parameter, JSONValue.array($0.values)) }
        if !combinations.isEmpty { members.append(("combinations", .array(combinations.map { JSONValue.object($0) }))) }
        return APIError(status: .notFound, code: "not_found", message: message, available: members.isEmpty ? nil : .object(members))
    }

    public var response: Response {
        var error: [(String, JSONValue)] = [("code", .string(code)), ("message", .string(message))]
        if let available { error.append(("available", available)) }
        let body: JSONValue = .object([("error", .object(error))])
        var response = Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                                body: Array((body.serialized() + "\n").utf8))
        if let shard { response.headers[.themedShard] = shard.description }
        for field in headers { response.headers[field.name] = field.value }
        return response
    }
}
