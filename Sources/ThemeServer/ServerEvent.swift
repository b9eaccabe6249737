import Audiences
import JSON
import ThemeVocabulary

/// A change the server tells its clients of: on `/events` (Server-Sent Events: `name` is the
/// event's type, `data` its data) and to webhooks, which carry the same data. Each case holds what
/// its event says, so a consumer (a stream's filter, the purges of the caches in front, the
/// webhooks) switches over cases instead of reading names and JSON back.
public enum ServerEvent: Sendable, Equatable {
    /// A theme added, reloaded, removed or made the active one.
    case theme(ThemeChange, ThemeRevision)
    /// A source the server refused (`time`: ISO 8601); the theme keeps serving what it served before.
    case themeError(ThemeRevision, error: String, time: String)
    /// The clients of `alias` ask for their assignment again (`theme`: what it points at, when known).
    case assignmentChanged(alias: String, theme: String?)
    /// A theme's rollout widened, halted or ended (`rollout` nil: there is none now).
    case rolloutChanged(theme: String, rollout: Rollout?)
    /// A stream that cannot be caught up event by event: its client fetches what it shows again.
    case resync(reason: String)

    /// The event's type on the wire (docs/API.md lists them).
    public var name: String {
        switch self {
        case .theme(.added, _): "theme-added"
        case .theme(.reloaded, _): "theme-reloaded"
        case .theme(.removed, _): "theme-removed"
        case .theme(.activated, _): "active-changed"
        case .themeError: "theme-error"
        case .assignmentChanged: "assignment-changed"
        case .rolloutChanged: "rollout-changed"
        case .resync: "resync"
        }
    }

    /// The event's data on the wire, the same on `/events` and in webhooks.
    public var data: JSONValue {
        switch self {
        case .theme(_, let theme):
            theme.json
        case .themeError(let theme, let error, let time):
            .object(theme.members + [("error", .string(error)), ("time", .string(time))])
        case .assignmentChanged(let alias, let theme):
            .object([("alias", .string(alias))] + (theme.map { [("theme", .string($0))] } ?? []))
        case .rolloutChanged(let theme, let rollout):
            .object([("theme", .string(theme)), ("rollout", rollout.map { rollout in
                .object([("generation", .int(Int(rollout.generation))), ("previous", .int(Int(rollout.previous))), ("percent", .double(rollout.percent))])
            } ?? .null)])
        case .resync(let reason):
            .object([("reason", .string(reason))])
        }
    }

    /// The theme the event concerns, if one: what `/events?theme=` filters on.
    public var theme: String? {
        switch self {
        case .theme(_, let theme), .themeError(let theme, _, _): theme.theme
        case .assignmentChanged(_, let theme): theme
        case .rolloutChanged(let theme, _): theme
        case .resync: nil
        }
    }

    /// Whether every client gets it, whatever themes its stream follows.
    var concernsEveryClient: Bool {
        switch self {
        case .theme(.activated, _), .resync: true
        default: false
        }
    }

    /// Events after which a client fetches again: what a burst of them must spread.
    var setsOffRefetches: Bool {
        switch self {
        case .theme(.added, _), .theme(.reloaded, _), .theme(.activated, _), .assignmentChanged: true
        default: false
        }
    }
}

/// What changed of a theme.
public enum ThemeChange: Sendable, Equatable {
    case added, reloaded, removed
    /// Made the one `current` stands for.
    case activated
}

/// A theme as a change event names it: its generation and revision (its content's name, the same
/// on every replica; empty once removed). With a cluster store the generation is the store's, the
/// one in the event's id, the release history and rollbacks; in folder mode, the theme's own count
/// of its index's changes.
public struct ThemeRevision: Sendable, Equatable {
    public var theme: String
    public var generation: Generation
    public var revision: String

    public init(theme: String, generation: Generation = 0, revision: String = "") {
        (self.theme, self.generation, self.revision) = (theme, generation, revision)
    }

    var members: [(String, JSONValue)] {
        [("theme", .string(theme)), ("generation", .int(Int(generation))), ("revision", .string(revision))]
    }

    var json: JSONValue { .object(members) }
}
