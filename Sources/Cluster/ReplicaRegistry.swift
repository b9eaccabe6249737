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
    /// How long a wait goes without a report before it asks the store again: a replica that goes
    /// away sends none, and stops counting when its connection is seen closed. Reports carry the
    /// progress; on a store short of CPU each question also holds up the replicas' own.
    static let servedRecheck = Duration.milliseconds(500)

    /// Tells the store that the replica `name`, following on this connection, serves `generation`,
    /// and wakes the changes waiting for it: the notification says `generation name`, so that a
    /// wait learns the replica's progress without asking the store again.
    public func reportServing(replica name: String, generation: Generation) throws {
        try connection.execute("""
            WITH reported AS (
                INSERT INTO themed_replica (name, backend, backend_start, served)
                    SELECT $1, pid, backend_start, $2 FROM pg_stat_activity WHERE pid = pg_backend_pid()
                ON CONFLICT (name) DO UPDATE SET backend = EXCLUDED.backend, backend_start = EXCLUDED.backend_start,
                    served = EXCLUDED.served, seen = now()
                RETURNING served)
            SELECT pg_notify('\(Self.servedChannel)', served::text || ' ' || $1) FROM reported
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
    /// asks the store at the start and every `servedRecheck` without a report, and follows each
    /// replica's report (`servedChannel`) from its notification. A replica that connects
    /// meanwhile counts from then on; one that goes away stops counting. On a machine short of
    /// CPU each question waits for the store's backend to be scheduled: the last report ends the
    /// wait without one. `unlistening: false` leaves the connection listening (one about to close).
    public func awaitServed(_ generation: Generation, timeout: Duration, unlistening: Bool = true) throws -> ReplicaReport {
        let start = ContinuousClock.now
        // Listening before the first look (one round trip for both): a report committed before
        // the look is in it, one after is notified.
        try connection.sendCommitted("LISTEN \(Self.servedChannel)")
        defer { if unlistening { _ = try? connection.execute("UNLISTEN \(Self.servedChannel)") } }
        var replicas = try replicasServing()
        while true {
            let lagging = replicas.filter { $0.generation < generation }
            let waited = ContinuousClock.now - start
            if lagging.isEmpty || waited >= timeout {
                return ReplicaReport(serving: replicas.filter { $0.generation >= generation }.map(\.name), lagging: lagging,
                                     waitedMilliseconds: Int(waited / .milliseconds(1)))
            }
            let reports = try notifications(waitingUpTo: min(timeout - waited, Self.servedRecheck)).map(ReplicaServing.init(report:))
            if let known = Self.applying(reports, to: replicas) {
                replicas = known
            } else {
                replicas = try replicasServing()
            }
        }
    }

    /// `replicas` moved on by their reports; nil when the store must be asked: no report came
    /// (one may have gone away), or one is from a replica not counted yet or does not say whose
    /// it is (an older replica's).
    static func applying(_ reports: [ReplicaServing?], to replicas: [ReplicaServing]) -> [ReplicaServing]? {
        guard !reports.isEmpty else { return nil }
        var moved = replicas
        for report in reports {
            guard let report, let index = moved.firstIndex(where: { $0.name == report.name }) else { return nil }
            moved[index].generation = max(moved[index].generation, report.generation)
        }
        return moved
    }
}

extension ReplicaServing {
    /// A report's notification, `generation name`; nil for anything else.
    init?(report: String) {
        let parts = report.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let generation = Generation(parts[0]) else { return nil }
        self.init(name: String(parts[1]), generation: generation)
    }
}
