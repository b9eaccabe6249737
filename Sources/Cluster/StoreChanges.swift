import ThemeVocabulary

/// A change the store made, as a replica announces it on its event stream: what a client that
/// was away when it happened must be told, whichever replica it comes back to.
public struct StoreChange: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A release of a theme the store did not hold (its first, or the first since it was retired).
        case added
        /// A release (or a rollback) of a theme it held.
        case reloaded
        case retired
        /// The theme became the active one.
        case activated
        /// An alias changed (`alias`), or a rollout of the theme (nil): clients ask for their assignment again.
        case assignment(alias: String?)
    }

    public var generation: Generation
    public var theme: String
    public var kind: Kind
}

/// The store's newest changes, up to a generation: a starting replica's event history, so that a
/// stream resuming from before the replica started is replayed, not told to resync.
public struct StoreHistory: Sendable, Equatable {
    /// Oldest first.
    public var changes: [StoreChange]
    /// Every change after this generation (up to the last asked for) is in `changes`; a client
    /// that saw less has missed something the history no longer holds.
    public var completeAfter: Generation
}

extension ClusterStore {
    /// The newest `limit` changes with generations up to `generation`, from the audit trail (every
    /// release, rollback, retirement and switch writes its line there in the transaction that takes
    /// its generation; the trail is not pruned with releases).
    public func history(through generation: Generation, limit: Int) throws -> StoreHistory {
        // Whether a release adds its theme or reloads it depends on the theme's change before it,
        // which may be older than the window.
        let rows = try connection.execute("""
            SELECT a.generation, a.action, a.theme, a.detail,
                   (SELECT p.action FROM themed_audit p
                    WHERE p.theme = a.theme AND p.generation < a.generation AND p.action IN ('publish', 'rollback', 'retire')
                    ORDER BY p.generation DESC LIMIT 1)
            FROM themed_audit a
            WHERE a.generation IS NOT NULL AND a.generation <= $1
                AND a.action IN ('publish', 'rollback', 'retire', 'activate', 'alias', 'alias-delete', 'rollout')
            ORDER BY a.generation DESC LIMIT $2
            """, [.int(generation), .int(Int64(max(0, limit)))])
        let changes = try rows.values.reversed().map { row -> StoreChange in
            guard row.count == 5, let number = row[0].flatMap({ Int64($0) }), let action = row[1], let theme = row[2], let detail = row[3] else {
                throw ClusterError.badRelease("a row of themed_audit")
            }
            let kind: StoreChange.Kind = switch action {
            case "activate": .activated
            case "retire": .retired
            // An alias's line says "name: document"; a deletion's, the name.
            case "alias": .assignment(alias: String(detail.prefix { $0 != ":" }))
            case "alias-delete": .assignment(alias: detail)
            case "rollout": .assignment(alias: nil)
            default: row[4] == nil || row[4] == "retire" ? .added : .reloaded
            }
            return StoreChange(generation: number, theme: theme, kind: kind)
        }
        // A full window may have older changes before it; a short one is everything there is.
        let completeAfter = changes.count < limit ? 0 : changes.first.map { $0.generation - 1 } ?? generation
        return StoreHistory(changes: changes, completeAfter: min(completeAfter, generation))
    }
}
