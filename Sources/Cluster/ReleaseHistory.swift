import ThemeVocabulary

/// A theme's releases as a team sees them: who published what, when, and which is current.
public struct ReleaseEntry: Sendable, Equatable {
    public var theme: String
    public var generation: Generation
    /// SHA-256 of the release's manifest (`Release.digest`).
    public var digest: String
    public var publisher: String
    /// RFC 3339, UTC, to the millisecond.
    public var publishedAt: String
    public var files: Int
    public var retired: Bool
    /// For a rollback: the generation whose content it brought back.
    public var rollbackOf: Generation?
    /// For an approved draft: who approved it, in order.
    public var approvers: [String] = []
}

extension ClusterStore {
    /// The theme's kept releases, newest first.
    public func history(of theme: String) throws -> [ReleaseEntry] {
        let rows = try connection.execute("""
            SELECT generation, manifest, retired, publisher, rollback_of,
                   to_char(published AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), approvers
            FROM themed_release WHERE theme = $1 ORDER BY generation DESC
            """, [.text(theme)])
        return try rows.values.map { row in
            guard row.count == 7, let generation = row[0].flatMap({ Int64($0) }), let manifest = row[1], let retired = row[2] else {
                throw ClusterError.badRelease("a row of themed_release")
            }
            let release = Release(theme: theme, generation: generation, files: try Release.files(fromManifest: manifest), retired: retired == "t")
            return ReleaseEntry(theme: theme, generation: generation, digest: release.digest, publisher: row[3] ?? "",
                                publishedAt: row[5] ?? "", files: release.files.count, retired: release.retired,
                                rollbackOf: row[4].flatMap { Int64($0) }, approvers: (row[6] ?? "").split(separator: "\n").map(String.init))
        }
    }

    /// A new release of the theme with the content of a kept earlier one (the history only grows).
    @discardableResult
    public func rollback(theme: String, to generation: Generation, by actor: String, keep: Int = Release.defaultRetention) throws -> Generation {
        try transaction {
            let rows = try connection.execute("SELECT manifest FROM themed_release WHERE theme = $1 AND generation = $2 AND NOT retired",
                                              [.text(theme), .int(generation)])
            guard let manifest = rows.values.first?.first ?? nil else { throw ClusterError.noSuchRelease(theme, generation) }
            let files = try Release.files(fromManifest: manifest)
            return try record(Release(theme: theme, generation: 0, files: files, retired: false), by: actor, action: "rollback",
                              rollbackOf: generation, keep: keep)
        }
    }
}
