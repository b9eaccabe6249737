import Cluster
import HTTPServer
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
}

extension ReplicaReport {
    /// What the cluster store's wait found, as the change routes answer it.
    init(_ served: ServedBy) {
        self.init(serving: served.serving, lagging: served.lagging.map { Lagging(name: $0.name, generation: $0.generation) },
                  waitedMilliseconds: served.waitedMilliseconds)
    }
}

extension ReleaseDesk {
    /// Waits until every ready replica serves `generation` (or `wait` is nil: at once, nil).
    public func awaitServed(_ generation: Int64, _ wait: ServedWait?) throws(Refusal) -> ReplicaReport? {
        guard let wait else { return nil }
        return ReplicaReport(try withStore { try $0.awaitServed(generation, timeout: wait.timeout) })
    }
}
