import Foundation
import ThemeVocabulary

/// A release waiting for review (four-eyes approval): its files' blobs are stored, nothing is
/// served. Approved by enough reviewers other than its publisher, it is published as its publish
/// asked (now, at a time, or into a rollout), unless its theme moved on since it was made.
public struct Draft: Sendable, Equatable {
    public var id: Int64
    public var theme: String
    public var files: [Release.File]
    /// SHA-256 of its manifest, as a release's.
    public var digest: String
    public var publisher: String
    /// RFC 3339, UTC, to the millisecond.
    public var created: String
    /// The theme's newest generation when the draft's content was posted (0: none yet).
    public var base: Generation
    /// As its publish asked: current at a time, or sent to a share of clients first.
    public var at: String?
    public var rollout: Double?
    /// What it changes against the release current when it was posted (a `ThemeReview`'s JSON),
    /// '' for a theme's first release.
    public var review: String
    /// Who approved the content as it is now, in order.
    public var approvers: [String]
    /// Once approved: the release it became, or the schedule that makes it one.
    public var generation: Generation?
    public var schedule: Int64?

    public var isOpen: Bool { generation == nil && schedule == nil }
}

/// What an approval did: counted, or (the last one needed) published or scheduled.
public enum ApprovalOutcome: Sendable, Equatable {
    case counted(Draft)
    case published(Draft, generation: Generation)
    case scheduled(Draft, Schedule)
}

extension ClusterStore {
    static let draftSchema = """
        CREATE TABLE IF NOT EXISTS themed_draft (id BIGSERIAL PRIMARY KEY, theme TEXT NOT NULL, manifest TEXT NOT NULL,
            hashes TEXT[] NOT NULL DEFAULT '{}', publisher TEXT NOT NULL, created TIMESTAMPTZ NOT NULL DEFAULT now(), base BIGINT NOT NULL,
            at TIMESTAMPTZ, rollout DOUBLE PRECISION, review TEXT NOT NULL DEFAULT '', generation BIGINT, schedule BIGINT);
        CREATE TABLE IF NOT EXISTS themed_draft_approval (draft BIGINT NOT NULL, approver TEXT NOT NULL,
            at TIMESTAMPTZ NOT NULL DEFAULT now(), PRIMARY KEY (draft, approver));
        CREATE TABLE IF NOT EXISTS themed_policy (theme TEXT PRIMARY KEY, require_approval INTEGER NOT NULL);
        ALTER TABLE themed_release ADD COLUMN IF NOT EXISTS approvers TEXT NOT NULL DEFAULT '';
        """

    /// The clause that keeps a blob an open draft uses (with the schedules' and releases' own).
    static let keptByDrafts = "NOT EXISTS (SELECT 1 FROM themed_draft d WHERE d.generation IS NULL AND d.schedule IS NULL AND b.hash = ANY (d.hashes))"

    /// How many approvals a release of `theme` needs before it is published (0: none).
    public func requiredApprovals(of theme: String) throws -> Int {
        try connection.execute("SELECT require_approval FROM themed_policy WHERE theme = $1", [.text(theme)])
            .values.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
    }

    /// Sets the approvals `theme`'s releases need (0: a publish is served at once).
    public func setRequiredApprovals(_ count: Int, of theme: String, by actor: String) throws {
        guard Release.isPublishable(theme: theme) else { throw ClusterError.unpublishableName(theme) }
        try transaction {
            try connection.execute("""
                INSERT INTO themed_policy (theme, require_approval) VALUES ($1, $2) ON CONFLICT (theme) DO UPDATE SET require_approval = excluded.require_approval
                """, [.text(theme), .int(Int64(max(0, count)))])
            try audit(actor: actor, action: "policy", theme: theme, detail: "require approval: \(max(0, count))")
        }
    }

    /// Stores the files as a draft of `theme`, reviewed against what is live now.
    public func createDraft(theme: String, paths: [String], by publisher: String, at: String?, rollout: Double?, review: String,
                            contents: (Int) throws -> [UInt8]) throws -> Draft {
        try Release.check(theme: theme, paths: paths)
        if let at, !Schedule.isTime(at) { throw ClusterError.badTime(at) }
        return try transaction {
            let files = try storeBlobs(paths: paths, contents: contents)
            let release = Release(theme: theme, generation: 0, files: files, retired: false)
            let rows = try connection.execute("""
                INSERT INTO themed_draft (theme, manifest, hashes, publisher, base, at, rollout, review)
                VALUES ($1, $2, $3::text[], $4, $5, $6::timestamptz, $7::double precision, $8) RETURNING id
                """, [.text(theme), .text(release.manifest), .textArray(Set(files.map(\.hash)).sorted()), .text(publisher), .int(try newestGeneration(of: theme)),
                      at.map { .text($0) } ?? .null, rollout.map { .text(String($0)) } ?? .null, .text(review)])
            guard let id = rows.values.first?.first.flatMap({ $0.flatMap { Int64($0) } }) else { throw ClusterError.badRelease("no draft id returned") }
            try audit(actor: publisher, action: "draft", theme: theme, detail: "draft \(id)")
            return try draft(id)
        }
    }

    /// The draft's content posted again (reviewed against what is live now): its approvals are void.
    public func replaceDraft(_ id: Int64, paths: [String], by actor: String, review: String, contents: (Int) throws -> [UInt8]) throws -> Draft {
        try transaction {
            let current = try draft(id, locking: true)
            guard current.isOpen else { throw ClusterError.draftClosed(id) }
            try Release.check(theme: current.theme, paths: paths)
            let files = try storeBlobs(paths: paths, contents: contents)
            let release = Release(theme: current.theme, generation: 0, files: files, retired: false)
            try connection.execute("""
                UPDATE themed_draft SET manifest = $2, hashes = $3::text[], base = $4, review = $5, publisher = $6 WHERE id = $1
                """, [.int(id), .text(release.manifest), .textArray(Set(files.map(\.hash)).sorted()), .int(try newestGeneration(of: current.theme)), .text(review), .text(actor)])
            let voided = try connection.execute("DELETE FROM themed_draft_approval WHERE draft = $1 RETURNING approver", [.int(id)]).count
            try audit(actor: actor, action: "draft", theme: current.theme, detail: "draft \(id) posted again; \(voided) approval\(voided == 1 ? "" : "s") voided")
            return try draft(id)
        }
    }

    /// An approval of draft `id` by `approver` (not its publisher). With `required` approvals
    /// reached, the draft is published as it asked, in the same transaction, if its theme's newest
    /// release is still the one it was reviewed against.
    public func approveDraft(_ id: Int64, by approver: String, required: Int, keep: Int = Release.defaultRetention) throws -> ApprovalOutcome {
        try transaction {
            let current = try draft(id, locking: true)
            guard current.isOpen else { throw ClusterError.draftClosed(id) }
            guard approver != current.publisher else { throw ClusterError.ownDraft(id, current.publisher) }
            try connection.execute("INSERT INTO themed_draft_approval (draft, approver) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.int(id), .text(approver)])
            try audit(actor: approver, action: "approve", theme: current.theme, detail: "draft \(id)")
            let approved = try draft(id)
            guard approved.approvers.count >= max(1, required) else { return .counted(approved) }
            // Under the generation lock: a release that moved the theme on commits first, or waits.
            try takeGenerationLock()
            let newest = try newestGeneration(of: current.theme)
            guard newest == current.base else { throw ClusterError.movedOn(draft: id, theme: current.theme, base: current.base, newest: newest) }
            let release = Release(theme: current.theme, generation: 0, files: current.files, retired: false)
            if let at = current.at {
                let scheduled = try insertSchedule(theme: current.theme, at: at, release: release, actor: current.publisher)
                try connection.execute("UPDATE themed_draft SET schedule = $2 WHERE id = $1", [.int(id), .int(scheduled)])
                try audit(actor: approver, action: "schedule", theme: current.theme,
                          detail: "draft \(id) at \(at), approved by \(approved.approvers.joined(separator: ", "))")
                return .scheduled(try draft(id), try schedule(scheduled))
            }
            let generation = try record(release, by: current.publisher, action: "publish", keep: keep, rollout: current.rollout,
                                        approvers: approved.approvers)
            try connection.execute("UPDATE themed_draft SET generation = $2 WHERE id = $1", [.int(id), .int(generation)])
            return .published(try draft(id), generation: generation)
        }
    }

    /// A draft by id (open or not).
    public func draft(_ id: Int64) throws -> Draft {
        try draft(id, locking: false)
    }

    /// The theme's open drafts, oldest first.
    public func openDrafts(of theme: String) throws -> [Draft] {
        try draftRows(where: "theme = $1 AND generation IS NULL AND schedule IS NULL ORDER BY id", [.text(theme)])
    }

    private func draft(_ id: Int64, locking: Bool) throws -> Draft {
        guard let found = try draftRows(where: "id = $1" + (locking ? " FOR UPDATE" : ""), [.int(id)]).first else { throw ClusterError.noSuchDraft(id) }
        return found
    }

    private func draftRows(where condition: String, _ parameters: [PostgresConnection.Value]) throws -> [Draft] {
        let rows = try connection.execute("""
            SELECT id, theme, manifest, publisher, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), base,
                   to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), rollout, review, generation, schedule,
                   (SELECT string_agg(approver, E'\\n' ORDER BY at, approver) FROM themed_draft_approval a WHERE a.draft = themed_draft.id)
            FROM themed_draft WHERE \(condition)
            """, parameters)
        return try rows.values.map { row in
            guard row.count == 12, let id = row[0].flatMap({ Int64($0) }), let theme = row[1], let manifest = row[2], let publisher = row[3],
                  let base = row[5].flatMap({ Int64($0) }) else { throw ClusterError.badRelease("a row of themed_draft") }
            let release = Release(theme: theme, generation: 0, files: try Release.files(fromManifest: manifest), retired: false)
            return Draft(id: id, theme: theme, files: release.files, digest: release.digest, publisher: publisher, created: row[4] ?? "", base: base,
                         at: row[6], rollout: row[7].flatMap { Double($0) }, review: row[8] ?? "",
                         approvers: (row[11] ?? "").split(separator: "\n").map(String.init),
                         generation: row[9].flatMap { Int64($0) }, schedule: row[10].flatMap { Int64($0) })
        }
    }

    /// The theme's newest generation, retired or not (0: none).
    func newestGeneration(of theme: String) throws -> Generation {
        try connection.execute("SELECT max(generation) FROM themed_release WHERE theme = $1", [.text(theme)])
            .values.first?.first.flatMap { $0.flatMap { Int64($0) } } ?? 0
    }
}
