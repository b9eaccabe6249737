import Cluster
import ThemeServer
import ThemeVocabulary

/// The active theme kept in the cluster store for every replica, with its scheduled switches:
/// the `ActiveThemeStore` `themed serve` hands to `ThemeService` when it has a cluster store.
public struct ClusterActiveTheme: ActiveThemeStore {
    let desk: ReleaseDesk

    public init(desk: ReleaseDesk) {
        self.desk = desk
    }

    public var scheduledSwitches: [ScheduledSwitch] {
        desk.scheduled.filter { $0.kind == "activate" }.map { ScheduledSwitch(id: $0.id, theme: $0.theme, at: $0.at, by: $0.actor) }
    }

    public func authorize(_ credentials: Credentials, theme: String) throws(APIError) -> Caller {
        try ReleaseRoutes.refused { () throws(ReleaseDesk.Refusal) in
            .token(name: try desk.authorize(credentials.authorization, from: credentials.client, to: .activate, theme: theme).name)
        }
    }

    public func activate(_ theme: String, by caller: Caller) throws(APIError) -> Generation {
        try ReleaseRoutes.refused { () throws(ReleaseDesk.Refusal) in try desk.activate(theme, by: caller.actor) }
    }

    public func schedule(activating theme: String, at: String, by caller: Caller) throws(APIError) -> ScheduledSwitch {
        let schedule = try ReleaseRoutes.refused { () throws(ReleaseDesk.Refusal) in try desk.schedule(activating: theme, at: at, by: caller.actor) }
        return ScheduledSwitch(id: schedule.id, theme: schedule.theme, at: schedule.at, by: schedule.actor)
    }

    public func awaitServed(_ generation: Generation, _ wait: ServedWait?) throws(APIError) -> ReplicaReport? {
        try ReleaseRoutes.refused { () throws(ReleaseDesk.Refusal) in try desk.awaitServed(generation, wait) }
    }
}
