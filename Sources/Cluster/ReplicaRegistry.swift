import Foundation
import ThemeVocabulary

/// Which replicas serve what: each replica's follower writes the newest generation it serves
/// into `themed_replica` once its index reloaded and its purges went out, so that a change can
/// be answered when every ready replica serves it (`awaitServed`).
///
/// A replica counts while the PostgreSQL backend of its follower's connection lives (the row
/// names the backend and when it started, so a reused process id does not count): one stopped
/// or killed drops out at once, as its connection closes; one that hangs with its connection open
/// counts, and lags.
extension ClusterStore {
    static let replicaSchema = """
        CREATE TABLE IF NOT EXISTS themed_replica (name TEXT PRIMARY KEY, backend INTEGER NOT NULL,
            backend_start TIMESTAMPTZ NOT NULL, served BIGINT NOT NULL, seen TIMESTAMPTZ NOT NULL DEFAULT now());
        """

    /// Where a replica's report is announced, for the changes waiting on it (`awaitServed`); the
    /// followers listen on `channel` only, so a report does not wake them.
    static let servedChannel = "themed_served"
    /// How often a wait asks the store again when no report came: a replica that goes away sends
    /// none, and stops counting when its connection is seen closed.
    static let servedRecheck = Duration.milliseconds(100)

    /// Tells the store that the replica `name`, following on this connection, serves `generation`,
    /// and wakes the changes waiting for it.
    public func reportServing(replica name: String, generation: Generation) throws {
        try connection.execute("""
            WITH reported AS (
                INSERT INTO themed_replica (name, backend, backend_start, served)
                    SELECT $1, pid, backend_start, $2 FROM pg_stat_activity WHERE pid = pg_backend_pid()
                ON CONFLICT (name) DO UPDATE SET backend = EXCLUDED.backend, backend_start = EXCLUDED.backend_start,
                    served = EXCLUDED.served, seen = now()
                RETURNING served)
            SELECT pg_notify('\(Self.servedChannel)', served::text) FROM reported
            """, [.text(name), .int(generation)])
    }

    /// The replicas whose follower is connected now, by name, with what each serves.
    public func replicasServing() throws -> [ReplicaServing] {
        try connection.execute("""
            SELECT r.name, r.served FROM themed_replica r
                JOIN pg_stat_activity a ON a.pid = r.backend
                    -- Another role's sessions show no start time: their process id alone then.
                    AND (a.backend_start IS NULL OR a.backend_start = r.backend_start)
            ORDER BY r.name
            """).values.compactMap { row in
            guard row.count == 2, let name = row[0], let generation = row[1].flatMap({ Int64($0) }) else { return nil }
            return ReplicaServing(name: name, generation: generation)
        }
    }

    /// Waits until every connected replica serves `generation` or later, or `timeout` passed:
    /// asks the store at the start, at each replica's report (`servedChannel`), and every
    /// `servedRecheck` between them. A replica that connects meanwhile counts from then on; one
    /// that goes away stops counting.
    public func awaitServed(_ generation: Generation, timeout: Duration) throws -> ReplicaReport {
        let start = ContinuousClock.now
        // Listening before the first look (which waits for both): a report committed after it is
        // not missed.
        try connection.send("LISTEN \(Self.servedChannel)")
        defer { try? connection.execute("UNLISTEN \(Self.servedChannel)") }
        while true {
            let replicas = try replicasServing()
            let lagging = replicas.filter { $0.generation < generation }
            let waited = ContinuousClock.now - start
            if lagging.isEmpty || waited >= timeout {
                return ReplicaReport(serving: replicas.filter { $0.generation >= generation }.map(\.name), lagging: lagging,
                                     waitedMilliseconds: Int(waited / .milliseconds(1)))
            }
            _ = try notifications(waitingUpTo: min(timeout - waited, Self.servedRecheck))
        }
    }
}
