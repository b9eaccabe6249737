import Audiences
import JSON
import ThemeVocabulary

/// The aliases and rollouts every replica answers `/assign` from (issue 44), as the store holds
/// them: each change takes a generation from the one sequence under the generation lock, writes
/// an audit line and notifies `alias:<name>:<generation>` or `rollout:<theme>:<generation>`, so
/// replicas apply changes in one order and their event ids agree.
public struct StoreAudiences: Sendable, Equatable {
    public var aliases: [String: Alias] = [:]
    /// Rollouts in progress, by theme: each sends the theme's newest release to a share of
    /// clients and `previous` to the rest (and to every plain request).
    public var rollouts: [String: Rollout] = [:]
    /// The generation of the newest change to either (0: none yet).
    public var generation: Generation = 0

    public init(aliases: [String: Alias] = [:], rollouts: [String: Rollout] = [:], generation: Generation = 0) {
        (self.aliases, self.rollouts, self.generation) = (aliases, rollouts, generation)
    }

    /// The generation a plain `/themes/{theme}/...` serves when `latest` is its newest release:
    /// the rollout's previous one while a rollout is in progress.
    public func servedGeneration(of theme: String, latest: Generation) -> Generation {
        rollouts[theme].map(\.previous) ?? latest
    }

    /// Every (theme, generation) a replica must be able to answer at a pinned URL besides what
    /// each theme serves: rollouts' new generations and the generations aliases pin.
    public var pinnedGenerations: Set<PinnedGeneration> {
        var pinned = Set(rollouts.values.map { PinnedGeneration(theme: $0.theme, generation: $0.generation) })
        for alias in aliases.values {
            for (theme, generation) in [(alias.theme, alias.generation)] + alias.rules.map({ ($0.theme, $0.generation) }) {
                if let generation { pinned.insert(PinnedGeneration(theme: theme, generation: generation)) }
            }
        }
        return pinned
    }
}

/// What a replica answers assignments from: the store's aliases and rollouts, the generation
/// each theme's folder serves, the generations kept beside them, and the active theme (`current`).
public struct ReplicaAudiences: Sendable, Equatable {
    public var store = StoreAudiences()
    /// The generation each theme serves to plain requests: here, what its folder holds; for
    /// another shard's theme, what the store says its owners serve.
    public var served: [String: Generation] = [:]
    public var kept: Set<PinnedGeneration> = []
    public var active: String?
    /// Whether `served` and `kept` were read from the folder (at the first sync).
    var isComplete = false

    public init() {}

    /// Where `theme`'s `generation` is answered here: the theme's own folder when it serves it,
    /// the kept folder beside it, or nowhere (nil).
    public func folder(of theme: String, generation: Generation) -> String? {
        if served[theme] == generation { return theme }
        return kept.contains(PinnedGeneration(theme: theme, generation: generation)) ? ThemeName.pinned(theme, generation: generation) : nil
    }
}

public struct PinnedGeneration: Hashable, Sendable {
    public var theme: String
    public var generation: Generation

    public init(theme: String, generation: Generation) { (self.theme, self.generation) = (theme, generation) }
}

extension ClusterStore {
    static let audienceSchema = """
        CREATE TABLE IF NOT EXISTS themed_alias (name TEXT PRIMARY KEY, document TEXT NOT NULL, pins TEXT[] NOT NULL DEFAULT '{}',
            generation BIGINT NOT NULL);
        CREATE TABLE IF NOT EXISTS themed_rollout (theme TEXT PRIMARY KEY, generation BIGINT NOT NULL, previous BIGINT NOT NULL,
            basis_points INTEGER NOT NULL, seed TEXT NOT NULL, changed BIGINT NOT NULL);
        CREATE TABLE IF NOT EXISTS themed_audience (id INTEGER PRIMARY KEY CHECK (id = 1), generation BIGINT NOT NULL);
        ALTER TABLE themed_schedule ADD COLUMN IF NOT EXISTS alias TEXT;
        """

    /// The generation of the newest change to aliases and rollouts (0: none yet): a replica reads
    /// them again only when it moved (`StoreSnapshot.audienceGeneration`).
    static let audienceGenerationQuery = "SELECT generation FROM themed_audience WHERE id = 1"

    static func audienceGeneration(from rows: PostgresConnection.Rows) -> Generation {
        rows.values.first?.first.flatMap { $0.flatMap { Int64($0) } } ?? 0
    }

    /// Every alias and rollout, and the generation of the newest change to them (one round trip).
    public func audiences() throws -> StoreAudiences {
        let answers = try connection.executeAll(Self.audienceQueries.joined(separator: ";\n"))
        guard answers.count == Self.audienceQueries.count else { throw ClusterError.badRelease("the store answered \(answers.count) of 3 statements about audiences") }
        return try Self.audiences(aliases: answers[0], rollouts: answers[1], generation: answers[2])
    }

    /// The aliases, the rollouts and their generation, in that order.
    static let audienceQueries = ["SELECT name, document FROM themed_alias", "SELECT theme, generation, previous, basis_points, seed FROM themed_rollout",
                                  audienceGenerationQuery]

    static func audiences(aliases: PostgresConnection.Rows, rollouts: PostgresConnection.Rows, generation: PostgresConnection.Rows) throws -> StoreAudiences {
        var audiences = StoreAudiences()
        for row in aliases.values {
            guard row.count == 2, let name = row[0], let document = row[1] else { throw ClusterError.badRelease("a row of themed_alias") }
            do {
                audiences.aliases[name] = try Alias(name: name, json: JSONParser.parse(Array(document.utf8)))
            } catch {
                throw ClusterError.badRelease("alias \(name): \(error)")
            }
        }
        for row in rollouts.values {
            guard row.count == 5, let theme = row[0], let generation = row[1].flatMap({ Int64($0) }), let previous = row[2].flatMap({ Int64($0) }),
                  let basisPoints = row[3].flatMap({ Int($0) }), let seed = row[4],
                  let rollout = try? Rollout(theme: theme, generation: generation, previous: previous, percent: Double(basisPoints) / 100, seed: seed)
            else { throw ClusterError.badRelease("a row of themed_rollout") }
            audiences.rollouts[theme] = rollout
        }
        audiences.generation = audienceGeneration(from: generation)
        return audiences
    }

    /// Keeps `alias` (replacing one of its name) for every replica; every theme it points at must
    /// have a current release, and every generation it pins must be kept. Returns the change's generation.
    @discardableResult
    public func putAlias(_ alias: Alias, by actor: String) throws -> Generation {
        try transaction { try storeAlias(alias, by: actor) }
    }

    /// Inside a transaction (also a schedule's, when it falls due).
    func storeAlias(_ alias: Alias, by actor: String) throws -> Generation {
        try takeGenerationLock()
        for (theme, pinned) in [(alias.theme, alias.generation)] + alias.rules.map({ ($0.theme, $0.generation) }) {
            guard let latest = try latestRelease(of: theme), !latest.retired else { throw ClusterError.noSuchTheme(theme) }
            if let pinned, try !keeps(theme: theme, generation: pinned) { throw ClusterError.generationNotKept(theme, pinned) }
        }
        let generation = try takeAudienceGeneration()
        let document = try alias.json.serialized()
        try connection.execute("""
            INSERT INTO themed_alias (name, document, pins, generation) VALUES ($1, $2, $3::text[], $4)
            ON CONFLICT (name) DO UPDATE SET document = excluded.document, pins = excluded.pins, generation = excluded.generation
            """, [.text(alias.name), .text(document), .textArray(Self.pins(of: alias)), .int(generation)])
        try audit(actor: actor, action: "alias", theme: alias.theme, generation: generation, detail: "\(alias.name): \(document)")
        try connection.execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("alias:\(alias.name):\(generation)")])
        return generation
    }

    /// Forgets an alias for every replica; nil when there was none.
    public func removeAlias(_ name: String, by actor: String) throws -> Generation? {
        try transaction {
            try takeGenerationLock()
            guard try connection.execute("DELETE FROM themed_alias WHERE name = $1 RETURNING name", [.text(name)]).count > 0 else { return nil }
            let generation = try takeAudienceGeneration()
            try audit(actor: actor, action: "alias-delete", theme: "", generation: generation, detail: name)
            try connection.execute("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("alias:\(name):\(generation)")])
            return generation
        }
    }

    /// Sends `theme`'s newest release, `generation`, to `percent` of clients (by a sticky bucket)
    /// and the release that was current before it to the rest; 100 makes it current for
    /// everyone (the rollout ends), 0 halts it (everyone on the previous release). Returns the
    /// rollout as it now stands (nil once it reached 100) and the change's generation.
    public func setRollout(theme: String, generation: Generation, percent: Double, by actor: String) throws -> (rollout: Rollout?, generation: Generation) {
        try transaction { try storeRollout(theme: theme, generation: generation, percent: percent, by: actor) }
    }

    func storeRollout(theme: String, generation: Generation, percent: Double, by actor: String) throws -> (rollout: Rollout?, generation: Generation) {
        try takeGenerationLock()
        guard let latest = try latestRelease(of: theme), !latest.retired else { throw ClusterError.noSuchTheme(theme) }
        guard try keeps(theme: theme, generation: generation) else { throw ClusterError.generationNotKept(theme, generation) }
        guard generation == latest.generation else {
            throw ClusterError.badRollout("a rollout sends \(theme)'s newest release, \(latest.generation), not \(generation)")
        }
        guard let rollout = try rollout(of: theme, sending: generation, percent: percent) else {
            throw ClusterError.badRollout("\(theme) has no release before \(generation) for the other clients to stay on")
        }
        let change = try takeAudienceGeneration()
        try keep(rollout, of: theme, changed: change)
        try audit(actor: actor, action: "rollout", theme: theme, generation: change,
                  detail: "generation \(generation) to \(Self.percentText(rollout.basisPoints))%, the rest on \(rollout.previous)")
        try connection.send("SELECT pg_notify($1, $2)", [.text(Self.channel), .text("rollout:\(theme):\(change)")])
        return (rollout.basisPoints == 10_000 ? nil : rollout, change)
    }

    /// Inside `record`: a release that is not published into a rollout ends the theme's rollout
    /// (it is current for everyone); one published into a rollout starts or moves it, the other
    /// clients staying where they were.
    func moveRollout(of release: Release, generation: Generation, percent: Double?) throws {
        // A first release has no one to hold back: it is current for everyone.
        let rollout = try percent.flatMap { release.retired ? nil : try self.rollout(of: release.theme, sending: generation, percent: $0) }
        // Replicas re-read rollouts when this generation moves: only when one started, moved or
        // ended. Whether one ended the store tells in the same statement, which is sent without
        // waiting like the rest of the release.
        let movedTo = "INSERT INTO themed_audience (id, generation) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET generation = excluded.generation"
        if let rollout, rollout.basisPoints < 10_000 {
            try keep(rollout, of: release.theme, changed: generation)
            try connection.send(movedTo, [.int(generation)])
        } else {
            try connection.send("""
                WITH ended AS (DELETE FROM themed_rollout WHERE theme = $1 RETURNING theme)
                INSERT INTO themed_audience (id, generation) SELECT 1, $2 FROM ended LIMIT 1
                ON CONFLICT (id) DO UPDATE SET generation = excluded.generation
                """, [.text(release.theme), .int(generation)])
        }
    }

    /// The theme's row: the rollout under way, or none (at 100 it is over).
    private func keep(_ rollout: Rollout?, of theme: String, changed: Generation) throws {
        try connection.send("DELETE FROM themed_rollout WHERE theme = $1", [.text(theme)])
        guard let rollout, rollout.basisPoints < 10_000 else { return }
        try connection.send("""
            INSERT INTO themed_rollout (theme, generation, previous, basis_points, seed, changed) VALUES ($1, $2, $3, $4, $5, $6)
            """, [.text(theme), .int(rollout.generation), .int(rollout.previous), .int(Int64(rollout.basisPoints)),
                  .text(rollout.seed), .int(changed)])
    }

    /// `theme`'s rollout of `generation` at `percent`: a rollout under way keeps the others where
    /// they are; a new one holds them on the release before `generation` (nil: there is none).
    private func rollout(of theme: String, sending generation: Generation, percent: Double) throws -> Rollout? {
        let underWay = try connection.execute("SELECT previous FROM themed_rollout WHERE theme = $1", [.text(theme)]).values.first?.first
        let previous = try underWay.flatMap { $0.flatMap { Int64($0) } } ?? connection.execute("""
            SELECT generation FROM themed_release WHERE theme = $1 AND generation < $2 AND NOT retired ORDER BY generation DESC LIMIT 1
            """, [.text(theme), .int(generation)]).values.first?.first.flatMap { $0.flatMap { Int64($0) } }
        guard let previous else { return nil }
        do {
            return try Rollout(theme: theme, generation: generation, previous: previous, percent: percent, seed: String(generation))
        } catch {
            throw ClusterError.badRollout(error.description)
        }
    }

    /// Whether the store keeps `theme`'s release `generation` (not retired).
    func keeps(theme: String, generation: Generation) throws -> Bool {
        try connection.execute("SELECT 1 FROM themed_release WHERE theme = $1 AND generation = $2 AND NOT retired",
                               [.text(theme), .int(generation)]).count > 0
    }

    /// `theme`'s release `generation`, if the store keeps it (a replica materializes a rollout's
    /// or an alias's generation from it).
    public func release(of theme: String, generation: Generation) throws -> Release? {
        let rows = try connection.execute("SELECT theme, generation, manifest, retired FROM themed_release WHERE theme = $1 AND generation = $2",
                                          [.text(theme), .int(generation)])
        guard let row = rows.values.first, row.count == 4, let manifest = row[2] else { return nil }
        return Release(theme: theme, generation: generation, files: try Release.files(fromManifest: manifest), retired: row[3] == "t")
    }

    /// Under the generation lock: a generation for a change of aliases or rollouts.
    private func takeAudienceGeneration() throws -> Generation {
        let rows = try connection.execute("""
            INSERT INTO themed_audience (id, generation) VALUES (1, nextval('themed_generation'))
            ON CONFLICT (id) DO UPDATE SET generation = excluded.generation RETURNING generation
            """)
        guard let generation = rows.values.first?.first.flatMap({ $0.flatMap { Int64($0) } }) else { throw ClusterError.badRelease("no generation returned") }
        return generation
    }

    /// `theme@generation` for each generation the alias pins: what retention keeps.
    static func pins(of alias: Alias) -> [String] {
        ([(alias.theme, alias.generation)] + alias.rules.map { ($0.theme, $0.generation) }).compactMap { theme, generation in
            generation.map { "\(theme)@\($0)" }
        }
    }

    static func percentText(_ basisPoints: Int) -> String {
        basisPoints % 100 == 0 ? String(basisPoints / 100) : String(Double(basisPoints) / 100)
    }
}
