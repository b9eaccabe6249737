import ThemeVocabulary

/// Where a theme's parent may be, beyond the themes folder being synced.
public enum ParentScope: Sendable {
    /// Only among the folder's themes (and those the index keeps for their children).
    case folder
    /// Also among these themes, each with its own parent: a cluster store's latest releases, when
    /// one release is checked alone before it is stored.
    case alsoAmong([String: String?])
    /// Not checked: a release checked on its way to a server, which checks it against its store.
    case unchecked
}

extension ParentScope {
    /// What is wrong with the chain of `theme`, whose theme.json names `parent`, once it joins
    /// `themes` (each with its own parent); nil when it ends well. What a sync with
    /// `.alsoAmong(themes)` says of it, for a release checked `.unchecked` while the store's
    /// themes were still being read.
    public static func chainProblem(of theme: String, parent: String?, among themes: [String: String?]) -> String? {
        ParentChains.problem(of: theme, parent: { $0 == theme ? .some(parent) : themes[$0] }, among: Array(themes.keys) + [theme])
    }
}

/// The parent chains of a sync's themes, settled before anything is written.
///
/// A theme.json that names a theme that does not exist, or closes a loop, would cut a brand off
/// its base (or off everything, with a loop): every route of it would fail. So such a change is
/// not taken: the theme keeps the parent the index had, serves as before, and says why in its
/// errors (and, once, as a `theme-error` event). Only a theme the index has never served takes a
/// broken chain, reported the same way, since it has nothing better to keep.
struct ParentChains {
    struct Settled: Equatable {
        /// The parent the theme is indexed with.
        var parent: String?
        /// Why its settings were not taken as they are, if they were not.
        var problem: String?
    }

    /// The longest chain a lookup follows (the theme itself and seven ancestors).
    static let maximumDepth = ThemeSettings.maximumParentDepth

    /// Each folder's settled parent. `stored` is each indexed theme's parent now.
    static func settle(_ folders: [ThemeFolder], stored: [String: String?], scope: ParentScope) -> [String: Settled] {
        var settled: [String: Settled] = [:]
        for folder in folders {
            // A theme.json that cannot be read keeps the parent the index had.
            let kept = stored[folder.name] ?? nil
            settled[folder.name] = folder.error == nil ? Settled(parent: folder.parent)
                : Settled(parent: kept, problem: folder.error.map { "\($0)\(keptNote(kept))" })
        }
        func parent(of name: String) -> String?? {
            if let theme = settled[name] { return .some(theme.parent) }
            if let parent = stored[name] { return .some(parent) }
            switch scope {
            case .folder: return .none
            case .alsoAmong(let themes): return themes[name]
            case .unchecked: return .some(nil)
            }
        }
        var names = Array(settled.keys) + stored.keys
        if case .alsoAmong(let themes) = scope { names += themes.keys }
        // A change undone can mend another theme's chain (a loop of two edits): settle until
        // nothing moves; each round undoes at least one change, so the rounds are few.
        var changed = true
        while changed {
            changed = false
            for folder in folders {
                guard let theme = settled[folder.name], let problem = problem(of: folder.name, parent: parent(of:), among: names) else { continue }
                if let previous = stored[folder.name], previous != theme.parent {
                    settled[folder.name] = Settled(parent: previous, problem: "\(problem)\(keptNote(previous))")
                    changed = true
                } else if theme.problem == nil {
                    settled[folder.name]?.problem = problem
                }
            }
        }
        return settled
    }

    /// What is wrong with `theme`'s chain when each theme's parent is `parent(of:)` (`.none` for
    /// a theme that does not exist), or nil when it ends well; a missing parent's hint is the
    /// nearest of `names`.
    static func problem(of theme: String, parent: (String) -> String??, among names: [String]) -> String? {
        var chain = [theme]
        var next = parent(theme) ?? nil
        while let current = next {
            if chain.contains(current) { return "parent chain loops: \((chain + [current]).joined(separator: " → "))" }
            guard let after = parent(current) else {
                let hint = Spelling.nearest(to: current, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
                return chain.count == 1 ? "parent \"\(current)\" (theme.json) is not a theme\(hint)"
                    : "parent chain \((chain + [current]).joined(separator: " → ")): \"\(current)\" is not a theme\(hint)"
            }
            chain.append(current)
            guard chain.count <= maximumDepth else { return "parent chain is deeper than \(maximumDepth): \(chain.joined(separator: " → ")) → …" }
            next = after
        }
        return nil
    }

    private static func keptNote(_ parent: String?) -> String {
        parent.map { "; it keeps inheriting from \"\($0)\" until that is fixed" } ?? "; it keeps serving without a parent until that is fixed"
    }
}
