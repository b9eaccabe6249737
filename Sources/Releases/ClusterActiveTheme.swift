import Cluster
import ThemeServer
import ThemeVocabulary

/// The active theme kept in the cluster store for every replica, with its scheduled switches:
/// the `ActiveThemeStore` `themed serve` hands to `ThemeService` when it has a cluster store.
public struct ClusterActiveTheme: ActiveThemeStore {
    let connections: StoreConnections
    let tokens: TokenCheck
    /// The schedules pending at the replica's last sync with the store, soonest first.
    let pendingSchedules: @Sendable () -> [Schedule]

    public init(connections: StoreConnections, tokens: TokenCheck, pendingSchedules: @escaping @Sendable () -> [Schedule]) {
        (self.connections, self.tokens, self.pendingSchedules) = (connections, tokens, pendingSchedules)
    }

    public var scheduledSwitches: [ScheduledSwitch] {
        pendingSchedules().filter { $0.kind == "activate" }.map { ScheduledSwitch(id: $0.id, theme: $0.theme, at: $0.at, by: $0.actor) }
    }

    public func authorize(_ credentials: Credentials, theme: String) throws(APIError) -> Caller {
        try Refusal.answering { () throws(Refusal) in
            .token(name: try tokens.authorize(credentials.authorization, from: credentials.client, to: .activate, theme: theme).name)
        }
    }

    public func activate(_ theme: String, by caller: Caller) throws(APIError) -> Generation {
        try Refusal.answering { () throws(Refusal) in try connections.withStore { try $0.setActive(theme, by: caller.actor) } }
    }

    public func schedule(activating theme: String, at: String, by caller: Caller) throws(APIError) -> ScheduledSwitch {
        let schedule = try Refusal.answering { () throws(Refusal) in try connections.withStore { try $0.schedule(activating: theme, at: at, by: caller.actor) } }
        return ScheduledSwitch(id: schedule.id, theme: schedule.theme, at: schedule.at, by: schedule.actor)
    }

    public func awaitServed(_ generation: Generation, _ wait: ServedWait?) throws(APIError) -> ReplicaReport? {
        try Refusal.answering { () throws(Refusal) in try connections.awaitServed(generation, wait) }
    }
}
