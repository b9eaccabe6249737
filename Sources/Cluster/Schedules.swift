import Audiences
import Foundation
import JSON
import ThemeVocabulary

/// A change stored now to happen at a set time: the theme made active, or a release (already
/// stored, blobs and all) made current. When it is due, whichever replica's timer fires first
/// applies it under the generation lock, with a new generation, so it is ordered after
/// everything before it; the others find it done and follow the notification.
public struct Schedule: Sendable, Equatable {
    public var id: Int64
    public var theme: String
    /// RFC 3339, UTC, to the millisecond.
    public var at: String
    /// For a release made current at `at`: its digest and number of files; nil for a switch.
    public var release: (digest: String, files: Int)?
    /// For an alias changed at `at`: its name (the document is kept with it).
    public var alias: String?
    public var actor: String
    /// How long until it is due, by the store's clock when it was read (replicas' clocks may
    /// differ; the store's decides).
    public var secondsUntilDue: Double

    /// An RFC 3339 date-time with its zone (`2026-12-01T09:30:00Z`, `2026-12-01T10:30:00.250+01:00`).
    /// PostgreSQL reads more (`tomorrow`, a time without a zone, in the server's zone): a
    /// schedule takes only what means the same everywhere.
    public static func isTime(_ text: String) -> Bool {
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return text.utf8.count <= 64 && (plain.date(from: text) != nil || fractional.date(from: text) != nil)
    }

    public static func == (left: Schedule, right: Schedule) -> Bool {
        left.id == right.id && left.theme == right.theme && left.at == right.at && left.release?.digest == right.release?.digest
            && left.actor == right.actor && left.alias == right.alias
    }

    /// What it does when due: `activate`, `release` or `alias`.
    public var kind: String { alias != nil ? "alias" : release != nil ? "release" : "activate" }
}

extension ClusterStore {
    /// Stores a switch of the active theme to happen at `at` (an RFC 3339 time).
    public func schedule(activating theme: String, at: String, by actor: String) throws -> Schedule {
        try transaction {
            let id = try insertSchedule(theme: theme, at: at, release: nil, actor: actor)
            try audit(actor: actor, action: "schedule", theme: theme, detail: "activate at \(at)")
            return try schedule(id)
        }
    }

    /// Stores the files as a release of the theme that becomes current at `at`: the blobs now,
    /// the release (with its generation) when it is due.
    public func schedule(theme: String, paths: [String], at: String, by actor: String, contents: (Int) throws -> [UInt8]) throws -> Schedule {
        try Release.check(theme: theme, paths: paths)
        guard Schedule.isTime(at) else { throw ClusterError.badTime(at) }
        return try transaction {
            let files = try storeBlobs(paths: paths, contents: contents)
            let id = try insertSchedule(theme: theme, at: at, release: Release(theme: theme, generation: 0, files: files, retired: false), actor: actor)
            try audit(actor: actor, action: "schedule", theme: theme, detail: "release at \(at)")
            return try schedule(id)
        }
    }

    /// Stores a change of an alias to happen at `at`; what it points at is checked again when due.
    public func schedule(alias: Alias, at: String, by actor: String) throws -> Schedule {
        try transaction {
            let id = try insertSchedule(theme: alias.theme, at: at, release: nil, alias: alias, actor: actor)
            try audit(actor: actor, action: "schedule", theme: alias.theme, detail: "alias \(alias.name) at \(at)")
            return try schedule(id)
        }
    }

    func insertSchedule(theme: String, at: String, release: Release?, alias: Alias? = nil, actor: String) throws -> Int64 {
        guard Schedule.isTime(at) else { throw ClusterError.badTime(at) }
        let rows = try connection.execute("""
            INSERT INTO themed_schedule (theme, at, manifest, hashes, actor, alias) VALUES ($1, $2::timestamptz, $3, $4::text[], $5, $6) RETURNING id
            """, [.text(theme), .text(at), release.map { .text($0.manifest) } ?? .null,
                  .textArray(Set(release?.files.map(\.hash) ?? []).sorted()), .text(actor),
                  alias.map { .text(try JSONValueEncoder().encode($0.named).serialized()) } ?? .null])
        guard let id = rows.values.first?.first.flatMap({ $0.flatMap { Int64($0) } }) else { throw ClusterError.badRelease("no schedule id returned") }
        try connection.execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("schedule:\(id)")])
        return id
    }

    /// Cancels a pending schedule; the blobs only it used go with it.
    public func cancelSchedule(_ id: Int64, by actor: String) throws -> Schedule {
        try transaction {
            let cancelled = try schedule(id)
            try connection.execute("UPDATE themed_schedule SET cancelled = true WHERE id = $1", [.int(id)])
            try connection.execute("""
                DELETE FROM themed_blob b WHERE b.hash = ANY ((SELECT hashes FROM themed_schedule WHERE id = $1)::text[])
                    AND NOT EXISTS (SELECT 1 FROM themed_release_blob u WHERE u.hash = b.hash)
                    AND NOT EXISTS (SELECT 1 FROM themed_schedule s WHERE s.applied_generation IS NULL AND NOT s.cancelled AND b.hash = ANY (s.hashes))
                    AND \(Self.keptByDrafts)
                """, [.int(id)])
            try audit(actor: actor, action: "cancel", theme: cancelled.theme, detail: "schedule \(id)")
            try connection.execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("schedule:\(id)")])
            return cancelled
        }
    }

    /// The schedules not yet applied nor cancelled, soonest first.
    public func pendingSchedules() throws -> [Schedule] {
        try scheduleRows(where: Self.pendingCondition, [])
    }

    func schedule(_ id: Int64) throws -> Schedule {
        guard let found = try scheduleRows(where: "id = $1 AND applied_generation IS NULL AND NOT cancelled", [.int(id)]).first else {
            throw ClusterError.noSuchSchedule(id)
        }
        return found
    }

    private func scheduleRows(where condition: String, _ parameters: [PostgresConnection.Value]) throws -> [Schedule] {
        try Self.schedules(from: connection.execute(Self.scheduleQuery(where: condition), parameters))
    }

    static func scheduleQuery(where condition: String) -> String {
        """
        SELECT id, theme, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), manifest, actor,
               EXTRACT(EPOCH FROM at - clock_timestamp()), alias
        FROM themed_schedule WHERE \(condition) ORDER BY at, id
        """
    }

    /// The schedules not yet applied nor cancelled (`pendingSchedules`).
    static let pendingCondition = "applied_generation IS NULL AND NOT cancelled"
    /// A row when a pending schedule is due by the store's clock.
    static let dueScheduleQuery = "SELECT 1 FROM themed_schedule WHERE \(pendingCondition) AND at <= clock_timestamp() LIMIT 1"

    static func schedules(from rows: PostgresConnection.Rows) throws -> [Schedule] {
        try rows.values.map { row in
            guard row.count == 7, let id = row[0].flatMap({ Int64($0) }), let theme = row[1], let at = row[2], let actor = row[4],
                  let seconds = row[5].flatMap({ Double($0) }) else { throw ClusterError.badRelease("a row of themed_schedule") }
            let release = try row[3].map { manifest in
                let files = try Release.files(fromManifest: manifest)
                return (Release(theme: theme, generation: 0, files: files, retired: false).digest, files.count)
            }
            let alias = try row[6].map { document in
                guard case .string(let name)? = try JSONParser.parse(Array(document.utf8))["name"] else { throw ClusterError.badRelease("a scheduled alias") }
                return name
            }
            return Schedule(id: id, theme: theme, at: at, release: release, alias: alias, actor: actor, secondsUntilDue: seconds)
        }
    }

    /// Applies every schedule whose time has come by the store's clock, oldest first, each with a
    /// new generation; returns how many. Replicas call it when a schedule is due and at every
    /// sync: the lock lets one of them apply each schedule, once.
    @discardableResult
    public func applyDueSchedules(keep: Int = Release.defaultRetention) throws -> Int {
        guard try connection.execute(Self.dueScheduleQuery).count > 0 else {
            return 0
        }
        return try transaction {
            try takeGenerationLock()
            let rows = try connection.execute("""
                SELECT id, theme, manifest, actor, alias FROM themed_schedule
                WHERE applied_generation IS NULL AND NOT cancelled AND at <= clock_timestamp() ORDER BY at, id FOR UPDATE
                """)
            for row in rows.values {
                guard row.count == 5, let id = row[0].flatMap({ Int64($0) }), let theme = row[1], let actor = row[3] else {
                    throw ClusterError.badRelease("a row of themed_schedule")
                }
                let generation = if let document = row[4] {
                    try applyScheduledAlias(document, by: actor)
                } else if let manifest = row[2] {
                    try record(Release(theme: theme, generation: 0, files: try Release.files(fromManifest: manifest), retired: false),
                               by: actor, action: "publish", keep: keep)
                } else {
                    try activate(theme, by: actor)
                }
                try connection.execute("UPDATE themed_schedule SET applied_generation = $1 WHERE id = $2", [.int(generation), .int(id)])
            }
            return rows.count
        }
    }

    /// A scheduled alias falling due: kept as it was asked for; when what it points at has gone
    /// meanwhile, the schedule is spent without a change (the audit trail says why) rather than
    /// blocking every schedule after it.
    private func applyScheduledAlias(_ document: String, by actor: String) throws -> Generation {
        let json = try JSONParser.parse(Array(document.utf8))
        guard case .string(let name)? = json["name"], case .object(let members) = json else { throw ClusterError.badRelease("a scheduled alias") }
        let alias = try Alias(name: name, json: .object(members.filter { $0.0 != "name" }))
        try connection.execute("SAVEPOINT scheduled_alias")
        do {
            let generation = try storeAlias(alias, by: actor)
            try connection.execute("RELEASE SAVEPOINT scheduled_alias")
            return generation
        } catch let error as ClusterError {
            try connection.execute("ROLLBACK TO SAVEPOINT scheduled_alias")
            try audit(actor: actor, action: "schedule-failed", theme: alias.theme, detail: "alias \(name): \(error)")
            return 0
        }
    }
}
