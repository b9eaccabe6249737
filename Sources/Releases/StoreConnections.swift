import Cluster
import Synchronization
import ThemeServer
import ThemeVocabulary

/// Connections to the cluster store for the requests of a replica (releases, drafts, tokens,
/// the active theme, aliases and rollouts). Each operation has a connection of its own (used by
/// one request at a time, it needs no lock): one kept from an earlier operation when one is idle
/// and still answers, else a new one. Opening one costs a PostgreSQL backend and the schema check
/// (`ClusterStore.init`), which took seconds on a machine saturated by load.
public final class StoreConnections: Sendable {
    let cluster: String
    /// Connections kept between operations, at most `idleLimit`.
    private let idle = Mutex<[ClusterStore]>([])
    static let idleLimit = 2

    public init(cluster: String) {
        self.cluster = cluster
    }

    /// Runs `body` on a connection of its own, turning the store's errors into refusals.
    public func withStore<Result>(_ body: (ClusterStore) throws -> Result) throws(Refusal) -> Result {
        do {
            let store = try store()
            do {
                let result = try body(store)
                giveBack(store)
                return result
            } catch let error as ClusterError {
                // The store answered: the connection is fine.
                giveBack(store)
                throw error
            }
        } catch let error as ClusterError {
            throw Refusal(error)
        } catch let error as PostgresError {
            throw .unavailable("the cluster store did not take it: \(error)")
        } catch {
            throw .unprocessable("\(error)")
        }
    }

    /// Waits until every ready replica serves `generation` (or `wait` is nil: at once, nil).
    public func awaitServed(_ generation: Generation, _ wait: ServedWait?) throws(Refusal) -> ReplicaReport? {
        guard let wait else { return nil }
        return try withStore { try $0.awaitServed(generation, timeout: wait.timeout) }
    }

    /// Opens the connection the first operation will use and keeps it, so that the first change
    /// after a start (a deploy) does not wait for a backend; a store that cannot be reached is the
    /// follower's to report, and the operation tries again.
    public func openAhead() {
        if let store = try? ClusterStore(url: cluster) { giveBack(store) }
    }

    /// A kept connection the server has not closed, or a new one. Told without a round trip: each
    /// waits for a backend's turn on a saturated machine, and an operation asks enough already.
    private func store() throws -> ClusterStore {
        while let kept = idle.withLock({ $0.popLast() }) {
            if kept.isOpen { return kept }
        }
        return try ClusterStore(url: cluster)
    }

    /// Keeps `store` for the next operation (one that failed talking to the store is not given back).
    private func giveBack(_ store: ClusterStore) {
        idle.withLock { if $0.count < Self.idleLimit { $0.append(store) } }
    }
}
