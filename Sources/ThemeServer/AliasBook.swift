import Audiences
import JSON
import Logging
import Synchronization
import ThemeContent
import ThemeIndex
import ThemeVocabulary

/// The aliases `/assign` answers from: kept in the index's settings (which survive a rebuild of
/// its tables and restarts) and in memory, where each assignment reads them. `current` is not
/// kept here: it is the active theme, set by `PUT /active`.
final class AliasBook: Sendable {
    private let index: ThemeIndex
    private let library: ThemeLibrary
    private let state: Mutex<State>
    static let prefix = "alias:"
    static let current = "current"

    private struct State {
        var aliases: [String: Alias]
        /// Counts the aliases' changes.
        var version = 0
        /// `/assign`'s assigners, each made once for the library's epoch (which moves with every
        /// reload and `PUT /active`) and the aliases' version: every client asks at start.
        var assigners: [String: Assigner] = [:]
        var assignersMadeAt = (epoch: -1, version: -1)
    }

    init(index: ThemeIndex, library: ThemeLibrary, logger: Logger) {
        (self.index, self.library) = (index, library)
        var loaded: [String: Alias] = [:]
        for (name, text) in (try? index.reader.settings(withPrefix: Self.prefix)) ?? [] {
            do {
                loaded[name] = try Alias(name: name, json: JSONParser.parse(Array(text.utf8)))
            } catch {
                // Written by this server, so not expected; kept in the index for an operator to see.
                logger.error("a kept alias cannot be read; it is not served", metadata: ["alias": "\(name)", "error": "\(error)"])
            }
        }
        state = Mutex(State(aliases: loaded))
    }

    /// Every alias, `current` first, then by name.
    var all: [Alias] {
        let kept = state.withLock { $0.aliases }.values.sorted { ThemeName.naturalOrder($0.name, $1.name) }
        return (alias(named: Self.current).map { [$0] } ?? []) + kept
    }

    func alias(named name: String) -> Alias? {
        if name == Self.current { return library.activeTheme.map { Alias(name: Self.current, theme: $0) } }
        return state.withLock { $0.aliases[name] }
    }

    /// What `/assign` answers `name`'s clients from: the alias and the generations its themes
    /// serve now; nil when there is no such alias.
    func assigner(for name: String) -> Assigner? {
        let epoch = library.epoch
        let (kept, version) = state.withLock { state in
            (state.assignersMadeAt == (epoch, state.version) ? state.assigners[name] : nil, state.version)
        }
        if let kept { return kept }
        guard let alias = alias(named: name) else { return nil }
        var generations: [String: Int64] = [:]
        for theme in alias.themes { generations[theme] = library.theme(named: theme).map { Int64($0.generation) } }
        let assigner = Assigner(aliases: [name: alias], generations: generations)
        // Kept only when nothing moved meanwhile: one made from what changed is not kept.
        guard library.epoch == epoch else { return assigner }
        state.withLock { state in
            guard state.version == version else { return }
            if state.assignersMadeAt != (epoch, version) { (state.assigners, state.assignersMadeAt) = ([:], (epoch, version)) }
            state.assigners[name] = assigner
        }
        return assigner
    }

    /// Keeps `alias` (replacing one of its name): in the index first, so what is answered is kept.
    func put(_ alias: Alias) throws {
        try index.writer.setSetting(Self.prefix + alias.name, to: alias.json.serialized())
        state.withLock { $0.aliases[alias.name] = alias; $0.version += 1 }
    }

    /// Forgets an alias; false when there was none.
    func remove(_ name: String) throws -> Bool {
        let existed = try index.writer.removeSetting(Self.prefix + name)
        state.withLock { $0.aliases[name] = nil; $0.version += 1 }
        return existed
    }

    /// The aliases that can point at `theme` (for events when its generation changes).
    func aliases(pointingAt theme: String) -> [Alias] {
        all.filter { $0.themes.contains(theme) }
    }
}
