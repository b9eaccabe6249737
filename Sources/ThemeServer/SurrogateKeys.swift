/// The surrogate keys a change makes stale: those `SharedCacheMiddleware` puts on the answers the
/// change alters, for the caches in front to drop (`CachePurger` in `themed serve`, `purgeURLs`).
enum SurrogateKeys {
    /// `theme:<name>` for a theme added, reloaded or removed; `current` for an active switch;
    /// nothing for the rest (an error changes no answer).
    static func keys(for event: EventHub.Event) -> [String] {
        switch event.change {
        case .theme(.added, let theme), .theme(.reloaded, let theme), .theme(.removed, let theme):
            ["theme:\(SharedCacheMiddleware.token(theme.theme))"]
        case .theme(.activated, _): ["current"]
        case .themeError, .assignmentChanged, .rolloutChanged, .resync: []
        }
    }
}
