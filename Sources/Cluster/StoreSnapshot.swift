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
    public var releases: [Release]
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
        releases = try answers[5].values.map(ClusterStore.release(from:))
        active = ClusterStore.active(from: answers[6])
    }
}

extension ClusterStore {
    /// The store as a follower reads it, with the releases after `generation` (nil: every theme's newest).
    public func snapshot(releasesAfter generation: Generation?) throws -> StoreSnapshot {
        let statements = [Self.dueScheduleQuery, Self.scheduleQuery(where: Self.pendingCondition)] + Self.audienceQueries
            + [Self.latestReleasesQuery(after: generation), Self.activeQuery]
        let answers = try connection.executeAll(statements.joined(separator: ";\n"))
        guard answers.count == statements.count else { throw ClusterError.badRelease("the store answered \(answers.count) of the snapshot's \(statements.count) statements") }
        return try StoreSnapshot(answers)
    }
}
