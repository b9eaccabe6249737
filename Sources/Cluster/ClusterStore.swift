import Foundation
import Hashing
import ThemeVocabulary

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

    /// Whether the server has not closed the connection (a kept one may have been), told without
    /// asking it (`PostgresConnection.isOpen`).
    public var isOpen: Bool { connection.isOpen }

    public init(url: String) throws(PostgresError) {
        connection = try PostgresConnection(url: url)
        // The schema is made or brought up to date only on a store that is not at `schemaVersion`
        // yet. Its ALTER TABLE and CREATE INDEX lock their tables even when there is nothing to do
        // (ACCESS EXCLUSIVE for ALTER): a connection opened on a live store (a webhook claim, a
        // busy release desk) that ran them would wait behind every open transaction and hold up
        // every reader behind itself.
        if !isSchemaCurrent() { try makeSchema() }
    }

    /// The version of the schema `makeSchema` makes: raised with every change to it.
    static let schemaVersion = 6

    /// Whether the store's schema is at this version or a later one (a newer replica's); false
    /// also when it has none yet (the query's error).
    private func isSchemaCurrent() -> Bool {
        let version = (try? connection.execute("SELECT version FROM themed_schema WHERE id = 1"))?.values.first?.first?.flatMap { Int($0) } ?? 0
        return version >= Self.schemaVersion
    }

    private func makeSchema() throws(PostgresError) {
        // Without the SET, every start prints a NOTICE per table that already exists. The lock
        // keeps replicas starting at once from creating the same table twice; the statements run
        // as one transaction, which releases it. A release names only blobs the store holds (the
        // foreign key; NOT VALID: rows from before it are not read again to check them).
        try connection.execute("""
            SET client_min_messages TO warning;
            SELECT pg_advisory_xact_lock(\(Self.schemaLock));
            CREATE TABLE IF NOT EXISTS themed_blob (hash TEXT PRIMARY KEY, bytes BYTEA NOT NULL);
            CREATE SEQUENCE IF NOT EXISTS themed_generation;
            CREATE TABLE IF NOT EXISTS themed_release (
                theme TEXT NOT NULL, generation BIGINT NOT NULL, manifest TEXT NOT NULL, retired BOOLEAN NOT NULL,
                published TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (theme, generation));
            ALTER TABLE themed_release ADD COLUMN IF NOT EXISTS publisher TEXT NOT NULL DEFAULT 'operator';
            ALTER TABLE themed_release ADD COLUMN IF NOT EXISTS rollback_of BIGINT;
            ALTER TABLE themed_release ADD COLUMN IF NOT EXISTS settings TEXT;
            UPDATE themed_release SET settings = COALESCE(substring(manifest from '\(Self.settingsPattern)'), '') WHERE settings IS NULL;
            CREATE INDEX IF NOT EXISTS themed_release_generation ON themed_release (generation);
            CREATE TABLE IF NOT EXISTS themed_active (id INTEGER PRIMARY KEY CHECK (id = 1), theme TEXT NOT NULL);
            ALTER TABLE themed_active ADD COLUMN IF NOT EXISTS generation BIGINT NOT NULL DEFAULT 0;
            DO $$ BEGIN IF to_regclass('themed_release_blob') IS NULL THEN
                CREATE TABLE themed_release_blob (theme TEXT NOT NULL, generation BIGINT NOT NULL, hash TEXT NOT NULL,
                    PRIMARY KEY (theme, generation, hash));
                CREATE INDEX themed_release_blob_hash ON themed_release_blob (hash);
                INSERT INTO themed_release_blob SELECT r.theme, r.generation, split_part(line, ' ', 1)
                    FROM themed_release r, regexp_split_to_table(r.manifest, E'\\n') AS line WHERE line <> '' ON CONFLICT DO NOTHING;
            END IF; END $$;
            DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'themed_release_blob_content') THEN
                ALTER TABLE themed_release_blob ADD CONSTRAINT themed_release_blob_content FOREIGN KEY (hash) REFERENCES themed_blob (hash) NOT VALID;
            END IF; END $$;
            CREATE TABLE IF NOT EXISTS themed_token (name TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, themes TEXT NOT NULL,
                permissions TEXT NOT NULL, created TIMESTAMPTZ NOT NULL DEFAULT now());
            CREATE TABLE IF NOT EXISTS themed_schedule (id BIGSERIAL PRIMARY KEY, theme TEXT NOT NULL, at TIMESTAMPTZ NOT NULL,
                manifest TEXT, hashes TEXT[] NOT NULL DEFAULT '{}', actor TEXT NOT NULL, created TIMESTAMPTZ NOT NULL DEFAULT now(),
                applied_generation BIGINT, cancelled BOOLEAN NOT NULL DEFAULT false);
            CREATE TABLE IF NOT EXISTS themed_listing (theme TEXT PRIMARY KEY, generation BIGINT NOT NULL, revision TEXT NOT NULL,
                parent TEXT, colors INTEGER NOT NULL, images INTEGER NOT NULL, files INTEGER NOT NULL, errors TEXT NOT NULL DEFAULT '');
            CREATE TABLE IF NOT EXISTS themed_audit (id BIGSERIAL PRIMARY KEY, at TIMESTAMPTZ NOT NULL DEFAULT now(), actor TEXT NOT NULL,
                action TEXT NOT NULL, theme TEXT NOT NULL, generation BIGINT, detail TEXT NOT NULL DEFAULT '');
            CREATE INDEX IF NOT EXISTS themed_audit_generation ON themed_audit (generation) WHERE generation IS NOT NULL;
            CREATE INDEX IF NOT EXISTS themed_audit_theme ON themed_audit (theme, generation) WHERE generation IS NOT NULL;
            \(Self.audienceSchema)
            \(Self.webhookSchema)
            \(Self.draftSchema)
            \(Self.replicaSchema)
            CREATE TABLE IF NOT EXISTS themed_schema (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
            INSERT INTO themed_schema VALUES (1, \(Self.schemaVersion))
                ON CONFLICT (id) DO UPDATE SET version = GREATEST(themed_schema.version, EXCLUDED.version);
            """.replacingOccurrences(of: "\n", with: " "))
    }

    /// What finds the theme.json's hash in a manifest (`Release.hashPattern`), as a literal of the
    /// schema's statements: a constant path, so no quote to escape.
    private static let settingsPattern = Release.hashPattern(ofFile: ThemeSettings.fileName)

    public var backendPID: Int { connection.backendPID }
    /// The statements this store's connection has sent and how long their answers took.
    public var roundTrips: PostgresConnection.RoundTrips { connection.roundTrips }

    /// Stores `files` (paths relative to the theme's folder) as the theme's next generation.
    @discardableResult
    public func publish(theme: String, files: [(path: String, bytes: [UInt8])], by publisher: String = Release.operatorName,
                        keep: Int = Release.defaultRetention) throws -> Generation {
        try publish(theme: theme, paths: files.map(\.path), by: publisher, keep: keep) { files[$0].bytes }
    }

    /// Stores the files at `paths`, whose bytes `contents` reads one at a time (a release is never
    /// whole in memory), as the theme's next generation, published by `publisher`; then drops the
    /// theme's releases past the newest `keep` and the blobs no kept release or schedule uses,
    /// in the same transaction.
    /// With `rollout`, the release goes to that percentage of clients first (`setRollout`).
    /// `held`: contents the caller read as held (`currentReleases(publishing:).contents`), not asked again.
    /// A release cannot name a blob the store lacks (the schema's foreign key): one of those gone
    /// meanwhile (another theme's retention) fails the transaction, and the store is asked.
    @discardableResult
    public func publish(theme: String, paths: [String], by publisher: String, keep: Int = Release.defaultRetention, rollout: Double? = nil,
                        held: Set<String>? = nil, contents: (Int) throws -> [UInt8]) throws -> Generation {
        try Release.check(theme: theme, paths: paths)
        do {
            return try transaction {
                let entries = try storeBlobs(paths: paths, held: held, contents: contents)
                return try record(Release(theme: theme, generation: 0, files: entries, retired: false), by: publisher, action: "publish", keep: keep,
                                  rollout: rollout)
            }
        } catch let error as PostgresError where held != nil && error.isForeignKeyViolation {
            return try publish(theme: theme, paths: paths, by: publisher, keep: keep, rollout: rollout, held: nil, contents: contents)
        }
    }

    /// Each file's bytes into the blob table (once per content), checked against the limits.
    /// The store is asked once which contents it lacks (unless the caller knows what it `held`),
    /// not once per file, and those are sent without waiting for each answer: on a machine short
    /// of CPU each answer waits for PostgreSQL's backend to be scheduled, and a publish of 14
    /// files spent most of its time in them. So each file is read twice when the store lacks it
    /// (hashed, then sent), and never held with the others.
    func storeBlobs(paths: [String], held: Set<String>? = nil, contents: (Int) throws -> [UInt8]) throws -> [Release.File] {
        var entries: [Release.File] = []
        for (number, path) in paths.enumerated() {
            let bytes = try contents(number)
            guard bytes.count <= Release.maximumFileBytes else {
                throw ClusterError.tooLarge("\(path) is \(bytes.count) bytes, more than \(Release.maximumFileBytes)")
            }
            entries.append(Release.File(path: path, hash: ContentHash.of(bytes).hex, size: bytes.count))
        }
        let hashes = Set(entries.map(\.hash))
        var stored = try held.map { $0.intersection(hashes) } ?? Set(
            connection.execute("SELECT hash FROM themed_blob WHERE hash = ANY ($1::text[])", [.textArray(hashes)]).values.compactMap { $0.first ?? nil })
        for (number, entry) in entries.enumerated() where !stored.contains(entry.hash) {
            let bytes = try contents(number)
            guard ContentHash.of(bytes).hex == entry.hash else { throw ClusterError.changedWhilePublished(entry.path) }
            try connection.send("INSERT INTO themed_blob (hash, bytes) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING", [.text(entry.hash), .bytes(bytes)])
            stored.insert(entry.hash)
        }
        return entries
    }

    /// Records that the theme is gone as of a new generation; refused while another theme's
    /// current release inherits from it (every replica would cut those off their parent).
    @discardableResult
    public func retire(theme: String, by actor: String = Release.operatorName) throws -> Generation {
        guard Release.isSafe(theme: theme) else { throw ClusterError.unsafeName(theme) }
        return try transaction {
            // Under the generation lock: a child published meanwhile waits, then sees the retirement.
            try takeGenerationLock()
            let children = try currentReleases().parents.filter { $0.value == theme }.map(\.key).sorted()
            guard children.isEmpty else { throw ClusterError.inherited(theme, by: children) }
            return try record(Release(theme: theme, generation: 0, files: [], retired: true), by: actor, action: "retire")
        }
    }

    /// What a publish checks a release against and need not send again, read in one question:
    /// each current theme's parent, and the contents of the published theme's current release.
    public struct CurrentReleases: Sendable {
        /// Every current (not retired) theme with the parent its theme.json names: what a
        /// release's parent chain is checked against before it is stored.
        public var parents: [String: String?] = [:]
        /// Hashes of the blobs the published theme's current release uses, which the store
        /// therefore holds: a theme's next release keeps most of its files. Not every current
        /// release's: a store of 10,000 themes sent each publish a million manifest lines.
        public var contents: Set<String> = []
    }

    /// The newest release of every theme, with the bytes of its theme.json joined in the same
    /// statement (a question less for a publish: on a machine short of CPU each one waits for the
    /// store's backend to be scheduled), and the manifest of the theme `publishing` only.
    /// The theme.json is found by the release's `settings` column, not in its manifest: a store of
    /// 10,000 themes took the publish 0.9 s to search them all. A row an older themed wrote during
    /// an upgrade has none (NULL), and its manifest is searched.
    public func currentReleases(publishing theme: String? = nil) throws -> CurrentReleases {
        let rows = try connection.execute("""
            WITH latest AS (\(Self.newestReleases(of: "theme, retired, settings, manifest")))
            SELECT l.theme, l.retired, b.bytes, CASE WHEN l.theme = $2 THEN l.manifest END FROM latest l
                LEFT JOIN themed_blob b ON NOT l.retired AND b.hash = COALESCE(l.settings, substring(l.manifest from $1))
            """, [.text(Self.settingsPattern), theme.map { .text($0) } ?? .null])
        var current = CurrentReleases()
        // A theme.json the store holds passed the check when it was published. Each one is read
        // once: a white-label platform's themes mostly share theirs.
        var parentsBySettings: [String: String?] = [:]
        func parent(inSettings hex: String) -> String? {
            if let known = parentsBySettings[hex] { return known }
            let parent = PostgresConnection.bytes(fromHex: hex).flatMap { try? ThemeSettings(json: Data($0)).parent }
            parentsBySettings[hex] = parent
            return parent
        }
        for row in rows.values where row.count == 4 {
            guard let name = row[0], Release.isSafe(theme: name), let retired = row[1] else { throw ClusterError.badRelease("a row of themed_release") }
            guard retired == "f" else { continue }
            current.parents.updateValue(row[2].flatMap(parent(inSettings:)), forKey: name)
            if let manifest = row[3] { current.contents = Set(try Release.files(fromManifest: manifest).map(\.hash)) }
        }
        return current
    }

    /// Inside a transaction: the release with the next generation, the blobs it uses, its audit
    /// line and its notification; the theme's rollout ended, or moved to it with `rollout`; then
    /// the theme's releases past the newest `keep` go (but those a rollout or an alias still
    /// points at), with the blobs nothing kept uses.
    func record(_ release: Release, by actor: String, action: String, rollbackOf: Generation? = nil, keep: Int? = nil, rollout: Double? = nil,
                approvers: [String] = []) throws -> Generation {
        try takeGenerationLock()
        let rows = try connection.execute("""
            INSERT INTO themed_release (theme, generation, manifest, retired, publisher, rollback_of, approvers, settings)
            VALUES ($1, nextval('themed_generation'), $2, $3, $4, $5::bigint, $6, $7) RETURNING generation
            """, [.text(release.theme), .text(release.manifest), .text(release.retired ? "true" : "false"), .text(actor),
                  rollbackOf.map { .int($0) } ?? .null, .text(approvers.joined(separator: "\n")), .text(release.settingsHash ?? "")])
        guard let text = rows.values.first?.first ?? nil, let generation = Generation(text) else { throw ClusterError.badRelease("no generation returned") }
        if !release.files.isEmpty {
            try connection.send("INSERT INTO themed_release_blob (theme, generation, hash) SELECT $1, $2, unnest($3::text[])",
                                   [.text(release.theme), .int(generation), .textArray(Set(release.files.map(\.hash)))])
        }
        try audit(actor: actor, action: action, theme: release.theme, generation: generation,
                  detail: rollbackOf.map { "content of generation \($0)" } ?? (approvers.isEmpty ? "" : "approved by \(approvers.joined(separator: ", "))"))
        if release.retired { try connection.send("DELETE FROM themed_listing WHERE theme = $1", [.text(release.theme)]) }
        try moveRollout(of: release, generation: generation, percent: rollout)
        if let keep { try dropReleases(of: release.theme, keepingNewest: keep) }
        try connection.send("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("release:\(release.theme):\(generation)")])
        return generation
    }

    /// Retention: the theme's releases past the newest `keep` are deleted (not those a rollout or
    /// an alias points at: they go at a later release once nothing does), and the blobs that no
    /// release left and no pending schedule uses. (Every statement of the WITH sees the rows as
    /// they were before it, hence the exclusion of the dropped releases' own uses.)
    private func dropReleases(of theme: String, keepingNewest keep: Int) throws {
        try connection.send("""
            WITH dropped AS (
                DELETE FROM themed_release WHERE theme = $1 AND generation NOT IN (
                    SELECT generation FROM themed_release WHERE theme = $1 ORDER BY generation DESC LIMIT $2)
                    AND generation NOT IN (SELECT generation FROM themed_rollout WHERE theme = $1 UNION SELECT previous FROM themed_rollout WHERE theme = $1)
                    AND ($1 || '@' || generation) NOT IN (SELECT unnest(pins) FROM themed_alias)
                RETURNING generation),
            freed AS (
                DELETE FROM themed_release_blob u USING dropped WHERE u.theme = $1 AND u.generation = dropped.generation RETURNING u.hash)
            DELETE FROM themed_blob b WHERE b.hash IN (SELECT hash FROM freed)
                AND NOT EXISTS (SELECT 1 FROM themed_release_blob u
                                WHERE u.hash = b.hash AND NOT (u.theme = $1 AND u.generation IN (SELECT generation FROM dropped)))
                AND NOT EXISTS (SELECT 1 FROM themed_schedule s WHERE s.applied_generation IS NULL AND NOT s.cancelled AND b.hash = ANY (s.hashes))
                AND \(Self.keptByDrafts)
            """, [.text(theme), .int(Int64(max(1, keep)))])
    }

    /// One line of the audit trail: who did what to which theme, and when (the row's time); sent
    /// without waiting, inside a transaction.
    func audit(actor: String, action: String, theme: String, generation: Generation? = nil, detail: String = "") throws {
        try connection.send("INSERT INTO themed_audit (actor, action, theme, generation, detail) VALUES ($1, $2, $3, $4::bigint, $5)",
                               [.text(actor), .text(action), .text(theme), generation.map { .int($0) } ?? .null, .text(detail)])
    }

    /// Each theme's newest release, retired ones included.
    /// With `after`, only the themes with a release newer than that generation (a follower that
    /// has applied everything up to it reads what came since, not every theme again).
    public func latestReleases(after generation: Generation? = nil) throws -> [Release] {
        try connection.execute(Self.latestReleasesQuery(after: generation, manifests: true)).values.map(Self.release(from:))
    }

    /// The statement of `latestReleases`, the generation written into it (a number, not text a
    /// client gave): it also goes in `snapshot`'s batch, where statements take no parameters.
    /// Without `manifests`, each row's manifest is NULL.
    static func latestReleasesQuery(after generation: Generation?, manifests: Bool) -> String {
        newestReleases(of: "theme, generation, \(manifests ? "manifest" : "NULL"), retired", after: generation)
    }

    /// The statement that picks each theme's newest release (with `after`, of the themes with one
    /// newer than it), the columns named.
    static func newestReleases(of columns: String, after generation: Generation? = nil) -> String {
        """
        SELECT DISTINCT ON (theme) \(columns) FROM themed_release
        WHERE generation > \(generation ?? -1) ORDER BY theme, generation DESC
        """
    }

    /// `theme`'s newest release (a retired theme's is its retirement), if it has any.
    public func latestRelease(of theme: String) throws -> Release? {
        let rows = try connection.execute("""
            SELECT theme, generation, manifest, retired FROM themed_release WHERE theme = $1 ORDER BY generation DESC LIMIT 1
            """, [.text(theme)])
        return try rows.values.first.map(Self.release(from:))
    }

    static func release(from row: [String?]) throws -> Release {
        try StoreSnapshot.LatestRelease(row: row).release()
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
    public func setActive(_ theme: String, by actor: String = Release.operatorName) throws -> Generation {
        try transaction { try activate(theme, by: actor) }
    }

    /// Inside a transaction: the switch, with its generation, audit line and notification.
    func activate(_ theme: String, by actor: String) throws -> Generation {
        try takeGenerationLock()
        let rows = try connection.execute("""
            INSERT INTO themed_active (id, theme, generation) VALUES (1, $1, nextval('themed_generation'))
            ON CONFLICT (id) DO UPDATE SET theme = excluded.theme, generation = excluded.generation RETURNING generation
            """, [.text(theme)])
        guard let text = rows.values.first?.first ?? nil, let generation = Generation(text) else { throw ClusterError.badRelease("no generation returned") }
        try audit(actor: actor, action: "activate", theme: theme, generation: generation)
        try connection.send("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("active:\(theme):\(generation)")])
        return generation
    }

    static let activeQuery = "SELECT theme, generation FROM themed_active WHERE id = 1"

    static func active(from rows: PostgresConnection.Rows) -> (theme: String, generation: Generation)? {
        guard let row = rows.values.first, row.count == 2, let theme = row[0], let text = row[1], let generation = Int64(text) else { return nil }
        return (theme, generation)
    }

    /// Held until the transaction ends: generations are taken, and committed, one change at a time.
    /// Sent without waiting: the statement after it waits for the lock.
    func takeGenerationLock() throws {
        try connection.send("SELECT pg_advisory_xact_lock(\(Self.generationLock))")
    }

    /// The advisory lock's key ("themed" in ASCII), shared by every client of the store.
    static let generationLock: Int64 = 0x7468_656d_6564
    /// Taken while the tables are created or changed at a connection's start.
    static let schemaLock: Int64 = 0x7468_656d_6573

    /// Starts receiving the channel's notifications on this connection.
    public func listen() throws {
        try connection.execute("LISTEN \(Self.channel)")
    }

    public func notifications(waitingUpTo timeout: Duration, wakingOn wakeup: Int32? = nil) throws -> [String] {
        try connection.notifications(waitingUpTo: timeout, wakingOn: wakeup)
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

    /// `body` in one transaction. Statements in it whose rows no one reads (audit lines,
    /// notifications, blobs) are `send`: COMMIT waits for their answers, and a failure among them
    /// fails the transaction.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try connection.send("BEGIN")
        do {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            connection.rollBack()
            throw error
        }
    }
}
