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
    var available: Available?
    /// For a theme another shard serves: that shard ("2/8"), also sent as `Themed-Shard`.
    var shard: Shard?
    /// Fields the answer carries besides (`WWW-Authenticate` with a 401, `Retry-After`).
    public var headers: HTTPFields = [:]

    public init(status: HTTPResponse.Status, code: String, message: String) {
        (self.status, self.code, self.message) = (status, code, message)
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

    /// The 404 for `kind` `name` that no variant in `chain` answers for the traits asked: when the
    /// name exists, the message and `available` say for which traits.
    static func noVariant(_ kind: String, named name: String, in chain: [ThemeInfo], available: AvailableTraits, hint: String? = nil) -> APIError {
        var message = "theme \(chain.first?.name ?? "") has no \(kind) named \(name) for these traits (searched \(chain.map(\.name).joined(separator: ", ")))"
        let body = Available(available)
        if let combinations = body?.combinations {
            message += "; it exists for " + combinations.map(\.query).joined(separator: ", ")
        }
        if let hint { message += "; " + hint }
        var error = APIError(status: .notFound, code: "not_found", message: message)
        error.available = body
        return error
    }

    public var response: Response {
        let body = Body(error: Body.Detail(code: code, message: message, available: available))
        // Nothing in an error's body lacks a JSON form (no numbers but whole ones); were one to, the
        // answer still says what went wrong.
        let json = (try? JSONValueEncoder().encode(body)) ?? .object([("error", .object([("code", .string(code)), ("message", .string(message))]))])
        var response = Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                                body: Array((json.serialized() + "\n").utf8))
        if let shard { response.headers[.themedShard] = shard.description }
        for field in headers { response.headers[field.name] = field.value }
        return response
    }

    /// Every error answer's body (the OpenAPI document's `Error`).
    struct Body: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var available: Available?
        }

        var error: Detail
    }

    /// The traits a name's variants exist for, by the query parameter that asks for each (a list
    /// left out when empty), and the combinations they exist in.
    struct Available: Encodable {
        var idiom: [String]?
        var scale: [Int]?
        var appearance: [String]?
        var gamut: [String]?
        var size: [Int]?
        var subtype: [Int]?
        var lang: [String]?
        var combinations: [Combination]?

        /// A combination as the query parameters that ask for it; defaults (no size, no subtype,
        /// any appearance, no language) left out.
        struct Combination: Encodable {
            var idiom: String
            var scale: Int?
            var size: Int?
            var subtype: Int?
            var appearance: String?
            var lang: String?

            init(_ combination: AvailableTraits.Combination) {
                idiom = combination.idiom.name
                scale = combination.scale > 0 ? combination.scale : nil
                size = combination.size > 0 ? combination.size : nil
                subtype = combination.subtype != 0 ? combination.subtype : nil
                appearance = combination.appearance != Appearance.any.label ? combination.appearance : nil
                lang = combination.language.isEmpty ? nil : combination.language
            }

            /// The query that asks for it (`idiom=phone&scale=2`), as the message names it.
            var query: String {
                let parameters: [(String, String?)] = [("idiom", idiom), ("scale", scale.map(String.init)), ("size", size.map(String.init)),
                                                       ("subtype", subtype.map(String.init)), ("appearance", appearance), ("lang", lang)]
                return parameters.compactMap { name, value in value.map { "\(name)=\($0)" } }.joined(separator: "&")
            }
        }

        /// Nil when the name has no variants at all.
        init?(_ available: AvailableTraits) {
            guard !available.isEmpty else { return nil }
            func list<T>(_ values: [T]) -> [T]? { values.isEmpty ? nil : values }
            idiom = list(available.idioms.map(\.name))
            scale = list(available.scales)
            appearance = list(available.appearances)
            gamut = list(available.gamuts.map(\.name))
            size = list(available.sizes)
            subtype = list(available.subtypes)
            lang = list(available.languages)
            combinations = list(available.combinations.map(Combination.init))
        }
    }
}
