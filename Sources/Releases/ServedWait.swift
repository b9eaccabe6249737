import Cluster
import HTTPServer
import HTTPTypes
import JSON
import ThemeServer

/// How long a change's answer waits for every ready replica to serve it: when it returns, the
/// change is live on each of them and the caches in front were told to drop what it made stale
/// (`ClusterStore.awaitServed`). `?wait=SECONDS` (up to 120) sets the limit, 10 s by default;
/// `?wait=0` answers as soon as the store holds the change.
public struct ServedWait: Sendable, Equatable {
    public static let defaultSeconds = 10
    public static let maximumSeconds = 120

    public var timeout: Duration

    public init(timeout: Duration) {
        self.timeout = timeout
    }

    /// The wait a request asks for; nil for `wait=0`.
    public static func of(_ request: Request) throws(APIError) -> ServedWait? {
        guard let text = request.query["wait"] else { return ServedWait(timeout: .seconds(defaultSeconds)) }
        guard let seconds = Int(text), (0...maximumSeconds).contains(seconds) else {
            throw APIError.badRequest("wait is the seconds to wait for every replica to serve the change, 0 to \(maximumSeconds) (0: answer at once)")
        }
        return seconds == 0 ? nil : ServedWait(timeout: .seconds(seconds))
    }

    /// The answer of a change: `json` with what the wait found (`replicas`) and `status`, or 202
    /// Accepted when some replica did not serve it in time (the change is stored: it is not to
    /// be sent again).
    static func answer(_ json: JSONValue, status: HTTPResponse.Status, served: ServedBy?) -> Response {
        guard let served, case .object(let members) = json else { return JSONResponse.make(json, cacheControl: "no-store").with(status: status) }
        let replicas: JSONValue = .object([
            ("serving", .array(served.serving.map(JSONValue.string))),
            ("lagging", .array(served.lagging.map { .object([("name", .string($0.name)), ("generation", .int(Int($0.generation)))]) })),
            ("waitedMilliseconds", .int(served.waitedMilliseconds)),
        ])
        return JSONResponse.make(.object(members + [("replicas", replicas)]), cacheControl: "no-store")
            .with(status: served.isComplete ? status : .accepted)
    }
}

extension ReleaseDesk {
    /// Waits until every ready replica serves `generation` (or `wait` is nil: at once, nil).
    public func awaitServed(_ generation: Int64, _ wait: ServedWait?) throws(Refusal) -> ServedBy? {
        guard let wait else { return nil }
        return try withStore { try $0.awaitServed(generation, timeout: wait.timeout) }
    }
}
