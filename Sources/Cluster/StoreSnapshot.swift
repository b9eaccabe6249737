import ThemeVocabulary

/// What a follower reads from the store at each sync, asked in one round trip: on a machine short
/// of CPU each question waits for PostgreSQL's backend to be scheduled, and a sync used to ask
/// five to eight. The statements run in the order of the members, each seeing what had committed
/// when it began: aliases and rollouts before the releases, the active theme after them, as the
/// questions one by one were asked.
public struct StoreSnapshot: Sendable {
    /// A schedule is due by the store's clock: the follower applies it, then asks again.
    public var scheduleDue: Bool
    /// Pending schedules, soonest first.
    public var schedules: [Schedule]
    /// The generation of the newest change to aliases and rollouts (0: none yet).
    public var audienceGeneration: Generation { ClusterStore.audienceGeneration(from: audienceRows.generation) }
    /// Each theme's newest release after the generation asked for, retired ones included.
    public var releases: [LatestRelease]
    public var active: (theme: String, generation: Generation)?
    /// Read every time (small tables, in the same round trip), decoded only when their generation moved.
    private let audienceRows: (aliases: PostgresConnection.Rows, rollouts: PostgresConnection.Rows, generation: PostgresConnection.Rows)

    /// Every alias and rollout, with their generation.
    public func audiences() throws -> StoreAudiences {
        try ClusterStore.audiences(aliases: audienceRows.aliases, rollouts: audienceRows.rollouts, generation: audienceRows.generation)
    }

    fileprivate init(_ answers: [PostgresConnection.Rows]) throws {
        scheduleDue = answers[0].count > 0
        schedules = try ClusterStore.schedules(from: answers[1])
        audienceRows = (answers[2], answers[3], answers[4])
        releases = try answers[5].values.map(LatestRelease.init(row:))
        active = ClusterStore.active(from: answers[6])
    }

    /// A theme's newest release as the store lists it (a row of `themed_release`: theme,
    /// generation, manifest, retired), its files not read from the manifest until asked: after each
    /// (re)connection a sync reads every theme's newest, and most are already here (10,000 themes of
    /// 100 files: a million manifest lines, seconds of a replica's CPU). Such a read sends the rows
    /// without their manifests (77 MB at that size), and only those asked for after.
    public struct LatestRelease: Sendable {
        public let theme: String
        public let generation: Generation
        public let retired: Bool
        /// nil: not sent (a snapshot of every theme's newest).
        fileprivate let manifest: String?

        init(row: [String?]) throws(ClusterError) {
            guard row.count == 4, let theme = row[0], let text = row[1], let generation = Generation(text),
                  let retired = row[3], Release.isSafe(theme: theme) else { throw ClusterError.badRelease("a row of themed_release") }
            (self.theme, self.generation, self.retired, self.manifest) = (theme, generation, retired == "t", row[2])
        }

        /// The release with its files; a manifest that does not read is refused here, for its theme
        /// alone. A retirement has no files to read.
        public func release() throws(ClusterError) -> Release {
            if retired { return Release(theme: theme, generation: generation, files: [], retired: true) }
            guard let manifest else { throw .badRelease("the manifest of \(theme)'s generation \(generation) was not read") }
            return Release(theme: theme, generation: generation, files: try Release.files(fromManifest: manifest), retired: retired)
        }
    }
}

extension ClusterStore {
    /// The store as a follower reads it, with the releases after `generation`. With nil, every
    /// theme's newest, the manifests of those `wanted` only, asked for in a second question (a
    /// release gone meanwhile, dropped by retention after a newer one, is left out: the newer
    /// one's notification follows).
    public func snapshot(releasesAfter generation: Generation?, manifestsWanted wanted: (StoreSnapshot.LatestRelease) -> Bool) throws -> StoreSnapshot {
        let statements = [Self.dueScheduleQuery, Self.scheduleQuery(where: Self.pendingCondition)] + Self.audienceQueries
            + [Self.latestReleasesQuery(after: generation, manifests: generation != nil), Self.activeQuery]
        let answers = try connection.executeAll(statements.joined(separator: ";\n"))
        guard answers.count == statements.count else { throw ClusterError.badRelease("the store answered \(answers.count) of the snapshot's \(statements.count) statements") }
        var snapshot = try StoreSnapshot(answers)
        let unread = snapshot.releases.filter { $0.manifest == nil && wanted($0) }
        guard !unread.isEmpty else { return snapshot }
        let read = try connection.execute("""
            SELECT r.theme, r.generation, r.manifest, r.retired FROM themed_release r
                JOIN unnest($1::text[], $2::bigint[]) AS wanted (theme, generation) USING (theme, generation)
            """, [.textArray(unread.map(\.theme)), .textArray(unread.map { String($0.generation) })]).values.map(StoreSnapshot.LatestRelease.init(row:))
        let (asked, byTheme) = (Set(unread.map(\.theme)), Dictionary(read.map { ($0.theme, $0) }, uniquingKeysWith: { first, _ in first }))
        snapshot.releases = snapshot.releases.compactMap { asked.contains($0.theme) ? byTheme[$0.theme] : $0 }
        return snapshot
    }
}
