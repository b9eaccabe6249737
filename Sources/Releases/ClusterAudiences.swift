import Audiences
import Cluster
import Foundation
import HTTPServer
import Synchronization
import ThemeServer
import ThemeVocabulary

/// Aliases and rollouts with a cluster store (`AudienceStore`): changes go to the store, off the
/// event loop, and are answered once every ready replica serves them
/// (`ServedWait`; with `wait=0`, once this replica follows them); assignments
/// are answered from what the follower last read (`follow`), the same on every replica.
public final class ClusterAudiences: AudienceStore {
    let connections: StoreConnections
    let tokens: TokenCheck
    /// The schedules pending at the replica's last sync with the store, soonest first.
    let pendingSchedules: @Sendable () -> [Schedule]
    /// The theme `current` stands for when the store has never been told one.
    let defaultActive: @Sendable () -> String?
    private let state = Mutex((replica: ReplicaAudiences(), assigner: Assigner()))
    /// Signalled each time the follower hands over what it read: a change waits on it until
    /// this replica follows it (`awaitFollowing`).
    private let followed = NSCondition()
    /// How long a change waits for this replica to follow it before it is answered anyway.
    static let followWait: TimeInterval = 2

    public init(connections: StoreConnections, tokens: TokenCheck, pendingSchedules: @escaping @Sendable () -> [Schedule],
                defaultActive: @escaping @Sendable () -> String?) {
        (self.connections, self.tokens, self.pendingSchedules, self.defaultActive) = (connections, tokens, pendingSchedules, defaultActive)
    }

    public var assigner: Assigner { state.withLock { $0.assigner } }

    public func folder(of theme: String, generation: Generation) -> String? {
        state.withLock { $0.replica.folder(of: theme, generation: generation) }
    }

    public var scheduledAliasChanges: [ScheduledAliasChange] {
        pendingSchedules().compactMap { schedule in
            guard schedule.kind == "alias", let alias = schedule.alias else { return nil }
            return ScheduledAliasChange(id: schedule.id, alias: alias, theme: schedule.theme, at: schedule.at, by: schedule.actor)
        }
    }

    /// What a follow changed: the aliases whose clients must ask again (and the theme each
    /// points at), for `assignment-changed`; and the themes whose rollout changed (nil: none now),
    /// for `rollout-changed`.
    public struct Changes: Sendable {
        public var aliases: [(alias: String, theme: String?)]
        public var rollouts: [(theme: String, rollout: Rollout?)]
    }

    /// Takes what the follower read; returns what changed for the clients.
    @discardableResult
    public func follow(_ replica: ReplicaAudiences) -> Changes {
        let assigner = Self.assigner(for: replica, defaultActive: defaultActive())
        let before = state.withLock { state in
            defer { state = (replica, assigner) }
            return state.assigner
        }
        followed.lock()
        followed.broadcast()
        followed.unlock()
        let rollouts = Set(before.rollouts.keys).union(assigner.rollouts.keys).sorted()
            .filter { before.rollouts[$0] != assigner.rollouts[$0] }.map { ($0, assigner.rollouts[$0]) }
        return Changes(aliases: Self.changes(from: before, to: assigner), rollouts: rollouts)
    }

    /// Assignments from the replica's view: the store's aliases, `current` for the active theme,
    /// its rollouts, and the generation each theme's folder serves.
    static func assigner(for replica: ReplicaAudiences, defaultActive: String?) -> Assigner {
        var aliases = replica.store.aliases
        if let active = replica.active ?? defaultActive { aliases["current"] = Alias(name: "current", theme: active) }
        return Assigner(aliases: aliases, rollouts: replica.store.rollouts, generations: replica.served)
    }

    /// The aliases whose answers may differ between two assigners: changed or gone, or pointing
    /// at a theme whose rollout or served generation changed.
    static func changes(from before: Assigner, to after: Assigner) -> [(alias: String, theme: String?)] {
        func moved(_ theme: String) -> Bool {
            before.rollouts[theme] != after.rollouts[theme] || before.generations[theme] != after.generations[theme]
        }
        let names = Set(before.aliases.keys).union(after.aliases.keys).sorted()
        return names.compactMap { name in
            let (old, new) = (before.aliases[name], after.aliases[name])
            guard old != new || (new?.themes.contains(where: moved) ?? false) else { return nil }
            return (name, (new ?? old)?.theme)
        }
    }

    // MARK: Changes (off the event loop: see `AudienceStore`)

    public func authorize(_ credentials: Credentials, themes: [String]) throws(APIError) -> Caller {
        try Refusal.answering { () throws(Refusal) in
            var name = ""
            for theme in Set(themes.isEmpty ? ["*"] : themes).sorted() {
                name = try tokens.authorize(credentials.authorization, from: credentials.client, to: .rollout, theme: theme).name
            }
            return .token(name: name)
        }
    }

    public func putAlias(_ alias: Alias, by caller: Caller, wait: ServedWait?) throws(APIError) -> Changed<Alias> {
        let generation = try Refusal.answering { () throws(Refusal) in try connections.withStore { try $0.putAlias(alias, by: caller.actor) } }
        return Changed(alias, replicas: try awaitChange(generation, wait))
    }

    public func scheduleAlias(_ alias: Alias, at: String, by caller: Caller) throws(APIError) -> ScheduledAliasChange {
        let schedule = try Refusal.answering { () throws(Refusal) -> Schedule in try connections.withStore { try $0.schedule(alias: alias, at: at, by: caller.actor) } }
        return ScheduledAliasChange(id: schedule.id, alias: alias.name, theme: schedule.theme, at: schedule.at, by: schedule.actor)
    }

    public func removeAlias(_ name: String, by caller: Caller, wait: ServedWait?) throws(APIError) -> ReplicaReport? {
        let generation = try Refusal.answering { () throws(Refusal) -> Generation? in try connections.withStore { try $0.removeAlias(name, by: caller.actor) } }
        guard let generation else { throw APIError.notFound("no alias named \(name)") }
        return try awaitChange(generation, wait)
    }

    public func setRollout(theme: String, generation: Generation, percent: Double, by caller: Caller, wait: ServedWait?) throws(APIError) -> Changed<Rollout?> {
        let (rollout, change) = try Refusal.answering { () throws(Refusal) -> (rollout: Rollout?, generation: Generation) in
            try connections.withStore { try $0.setRollout(theme: theme, generation: generation, percent: percent, by: caller.actor) }
        }
        return Changed(rollout, replicas: try awaitChange(change, wait))
    }

    /// Waits until every ready replica serves the change of `generation` (`ServedWait`), and
    /// returns what it found (a replica that lags past the wait makes the answer 202); with
    /// `wait=0`, until this replica follows it, and nil.
    private func awaitChange(_ generation: Generation, _ wait: ServedWait?) throws(APIError) -> ReplicaReport? {
        let replicas = try Refusal.answering { () throws(Refusal) in try connections.awaitServed(generation, wait) }
        if replicas == nil { awaitFollowing(generation) }
        return replicas
    }

    /// Waits (off the loop) until this replica's follower has read the change of `generation`,
    /// so that the client's next `/assign` here sees it; a slow follower only delays the answer.
    public func awaitFollowing(_ generation: Generation) {
        let deadline = Date(timeIntervalSinceNow: Self.followWait)
        followed.lock()
        defer { followed.unlock() }
        // `follow` broadcasts under the condition's lock after storing what it read, so a
        // hand-over between this check and the wait is not missed.
        while state.withLock({ $0.replica.store.generation }) < generation {
            guard followed.wait(until: deadline) else { return }
        }
    }
}

extension Caller {
    /// The name the store's history and audit trail give who made a change.
    var actor: String {
        switch self {
        case .operator: Release.operatorName
        case .token(let name): name
        }
    }
}
