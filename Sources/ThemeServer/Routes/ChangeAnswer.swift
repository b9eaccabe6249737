import Dispatch
import HTTPServer
import HTTPTypes
import JSON
import ThemeVocabulary

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
}

/// Who asks for a change, as the route settled it: the operator (its token, or loopback where
/// loopback is the operator), or the holder of a token the store checked, by the token's name.
public enum Caller: Sendable, Equatable {
    case `operator`
    case token(name: String)
}

/// What a client presents for a change that the store checks: its Authorization header and the
/// address it asks from (through trusted proxies), which failed tokens count against.
public struct Credentials: Sendable, Equatable {
    public var authorization: String?
    public var client: String

    public init(authorization: String?, client: String) {
        (self.authorization, self.client) = (authorization, client)
    }
}

/// A change as stored, and what the wait for the replicas to serve it found (nil: not waited).
public struct Changed<Value: Sendable>: Sendable {
    public var value: Value
    public var replicas: ReplicaReport?

    public init(_ value: Value, replicas: ReplicaReport?) {
        (self.value, self.replicas) = (value, replicas)
    }
}

extension JSONResponse {
    /// A change of the cluster store, answered off the event loop: it waits on the store (the
    /// caller's token, the change) and then on the replicas serving it, while the loop goes on
    /// with its other connections. A refusal is answered as itself.
    static func offLoop(_ change: @escaping @Sendable () throws(APIError) -> Response) -> Response {
        Response(deferred: { complete in
            DispatchQueue.global().async {
                do throws(APIError) { complete(try change()) } catch { complete(error.response) }
            }
        })
    }

    /// The answer of a change: `body` with what the wait found (`replicas`) and `status`, or 202
    /// Accepted with the same body when some replica did not serve it in time (the change is
    /// stored: it is not to be sent again). Never cached.
    public static func change(encoding body: some Encodable, status: HTTPResponse.Status, replicas: ReplicaReport?) throws(APIError) -> Response {
        try make(encoding: Joined(body, WaitFound(replicas: replicas)), cacheControl: "no-store")
            .with(status: replicas.map { $0.isComplete ? status : .accepted } ?? status)
    }
}

/// What a change's wait found, beside the change's own members (none when it did not wait).
private struct WaitFound: Encodable {
    var replicas: ReplicaReport?
}
