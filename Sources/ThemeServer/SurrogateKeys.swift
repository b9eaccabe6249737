/// The surrogate keys a change makes stale: those `SharedCacheMiddleware` puts on the answers the
/// change alters, for the caches in front to drop (`CachePurger` in `themed serve`, `purgeURLs`).
enum SurrogateKeys {
    /// `theme:<name>` for a theme added, reloaded or removed; `current` for an active switch;
    /// nothing for the rest (an error changes no answer).
    static func keys(for event: EventHub.Event) -> [String] {
        switch event.type {
        case ThemeChange.added.rawValue, ThemeChange.reloaded.rawValue, ThemeChange.removed.rawValue:
            guard case .object(let members) = event.data, let name = members.first(where: { $0.0 == "theme" }), case .string(let theme) = name.1 else { return [] }
            return ["theme:\(SharedCacheMiddleware.token(theme))"]
        case ThemeChange.activated.rawValue: return ["current"]
        default: return []
        }
    }
}
