import Foundation
import Hashing

/// Theme releases, blobs and the active theme in PostgreSQL, and the notifications replicas
/// follow (LISTEN/NOTIFY on channel `themed`: `release:<theme>:<generation>`, `active:<theme>`).
///
/// A release is published in one transaction: its blobs (stored once per SHA-256), the manifest
/// with a new generation, and the notification, which PostgreSQL delivers only on commit.
///
/// Releases and active switches take their generations from one sequence, under one lock held
/// to the commit: changes commit in the order of their generations, so a replica that has seen
/// generation N has seen every change before it (event ids rely on that: `EventHub.Numbering`).
public final class ClusterStore: @unchecked Sendable {
    public static let channel = "themed"
    let connection: PostgresConnection

    public init(url: String) throws(PostgresError) {
        connection = try PostgresConnection(url: url)
        // Without the SET, every start prints a NOTICE per table that already exists.
        try connection.execute("""
            SET client_min_messages TO warning;
            CREATE TABLE IF NOT EXISTS themed_blob (hash TEXT PRIMARY KEY, bytes BYTEA NOT NULL);
            CREATE SEQUENCE IF NOT EXISTS themed_generation;
            CREATE TABLE IF NOT EXISTS themed_release (
                theme TEXT NOT NULL, generation BIGINT NOT NULL, manifest TEXT NOT NULL, retired BOOLEAN NOT NULL,
                published TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (theme, generation));
            CREATE TABLE IF NOT EXISTS themed_active (id INTEGER PRIMARY KEY CHECK (id = 1), theme TEXT NOT NULL);
            ALTER TABLE themed_active ADD COLUMN IF NOT EXISTS generation BIGINT NOT NULL DEFAULT 0;
            """.replacingOccurrences(of: "\n", with: " "))
    }

    public var backendPID: Int { connection.backendPID }

    /// Stores `files` (paths relative to the theme's folder) as the theme's next generation.
    @discardableResult
    public func publish(theme: String, files: [(path: String, bytes: [UInt8])]) throws -> Int64 {
        guard Release.isPublishable(theme: theme) else { throw ClusterError.unpublishableName(theme) }
        for file in files where !Release.isSafe(path: file.path) { throw ClusterError.unsafeName(file.path) }
        guard files.count <= Release.maximumFiles else { throw ClusterError.tooLarge("\(files.count) files, more than \(Release.maximumFiles)") }
        if let large = files.first(where: { $0.bytes.count > Release.maximumFileBytes }) {
            throw ClusterError.tooLarge("\(large.path) is \(large.bytes.count) bytes, more than \(Release.maximumFileBytes)")
        }
        return try transaction {
            var entries: [Release.File] = []
            for file in files {
                let hash = ContentHash.of(file.bytes).hex
                try connection.execute("INSERT INTO themed_blob (hash, bytes) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING", [.text(hash), .bytes(file.bytes)])
                entries.append(Release.File(path: file.path, hash: hash, size: file.bytes.count))
            }
            return try record(Release(theme: theme, generation: 0, files: entries, retired: false))
        }
    }

    /// Records that the theme is gone as of a new generation.
    @discardableResult
    public func retire(theme: String) throws -> Int64 {
        guard Release.isSafe(theme: theme) else { throw ClusterError.unsafeName(theme) }
        return try transaction { try record(Release(theme: theme, generation: 0, files: [], retired: true)) }
    }

    private func record(_ release: Release) throws -> Int64 {
        try takeGenerationLock()
        let rows = try connection.execute("""
            INSERT INTO themed_release (theme, generation, manifest, retired) VALUES ($1, nextval('themed_generation'), $2, $3) RETURNING generation
            """, [.text(release.theme), .text(release.manifest), .text(release.retired ? "true" : "false")])
        guard let text = rows.values.first?.first ?? nil, let generation = Int64(text) else { throw ClusterError.badRelease("no generation returned") }
        try connection.execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("release:\(release.theme):\(generation)")])
        return generation
    }

    /// Each theme's newest release, retired ones included.
    public func latestReleases() throws -> [Release] {
        let rows = try connection.execute("""
            SELECT DISTINCT ON (theme) theme, generation, manifest, retired FROM themed_release ORDER BY theme, generation DESC
            """)
        return try rows.values.map { row in
            guard row.count == 4, let theme = row[0], let generationText = row[1], let generation = Int64(generationText),
                  let manifest = row[2], let retired = row[3], Release.isSafe(theme: theme) else {
                throw ClusterError.badRelease("a row of themed_release")
            }
            return Release(theme: theme, generation: generation, files: try Release.files(fromManifest: manifest), retired: retired == "t")
        }
    }

    /// A blob's bytes, checked against its name.
    public func blob(_ hash: String) throws -> [UInt8] {
        let rows = try connection.execute("SELECT bytes FROM themed_blob WHERE hash = $1", [.text(hash)])
        guard let text = rows.values.first?.first ?? nil else { throw ClusterError.missingBlob(hash) }
        guard let bytes = PostgresConnection.bytes(fromHex: text), ContentHash.of(bytes).hex == hash else { throw ClusterError.corruptBlob(hash) }
        return bytes
    }

    /// Makes `theme` the active one for every replica; returns the switch's generation.
    @discardableResult
    public func setActive(_ theme: String) throws -> Int64 {
        try transaction {
            try takeGenerationLock()
            let rows = try connection.execute("""
                INSERT INTO themed_active (id, theme, generation) VALUES (1, $1, nextval('themed_generation'))
                ON CONFLICT (id) DO UPDATE SET theme = excluded.theme, generation = excluded.generation RETURNING generation
                """, [.text(theme)])
            guard let text = rows.values.first?.first ?? nil, let generation = Int64(text) else { throw ClusterError.badRelease("no generation returned") }
            try connection.execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("active:\(theme):\(generation)")])
            return generation
        }
    }

    /// The active theme and the generation of the switch that made it so.
    public func active() throws -> (theme: String, generation: Int64)? {
        let rows = try connection.execute("SELECT theme, generation FROM themed_active WHERE id = 1")
        guard let row = rows.values.first, row.count == 2, let theme = row[0], let text = row[1], let generation = Int64(text) else { return nil }
        return (theme, generation)
    }

    /// Held until the transaction ends: generations are taken, and committed, one change at a time.
    private func takeGenerationLock() throws {
        try connection.execute("SELECT pg_advisory_xact_lock(\(Self.generationLock))")
    }

    /// The advisory lock's key ("themed" in ASCII), shared by every client of the store.
    static let generationLock: Int64 = 0x7468_656d_6564

    /// Starts receiving the channel's notifications on this connection.
    public func listen() throws {
        try connection.execute("LISTEN \(Self.channel)")
    }

    public func notifications(waitingUpTo timeout: Duration) throws -> [String] {
        try connection.notifications(waitingUpTo: timeout)
    }

    /// Ends another connection's server process (an operator's `pg_terminate_backend`; tests use
    /// it to cut a follower off).
    public func terminate(backend pid: Int) throws {
        try connection.execute("SELECT pg_terminate_backend($1::int)", [.int(Int64(pid))])
    }

    /// A cheap round trip: throws when the store is unreachable.
    public func ping() throws {
        try connection.execute("SELECT 1")
    }

    private func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try connection.execute("BEGIN")
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
