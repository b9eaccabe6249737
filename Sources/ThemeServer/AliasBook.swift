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
    private let aliases: Mutex<(version: Int, byName: [String: Alias])>
    /// `/assign`'s assigners, each made once for the library's epoch (which moves with every
    /// reload and `PUT /active`) and the aliases' version: every client asks at start.
    private let assigners = Mutex<(epoch: Int, version: Int, byName: [String: Assigner])>((-1, -1, [:]))
    static let prefix = "alias:"
    static let current = "current"

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
        aliases = Mutex((0, loaded))
    }

    /// Every alias, `current` first, then by name.
    var all: [Alias] {
        let kept = aliases.withLock { $0.byName }.values.sorted { ThemeName.naturalOrder($0.name, $1.name) }
        return (alias(named: Self.current).map { [$0] } ?? []) + kept
    }

    func alias(named name: String) -> Alias? {
        if name == Self.current { return library.activeTheme.map { Alias(name: Self.current, theme: $0) } }
        return aliases.withLock { $0.byName[name] }
    }

    /// What `/assign` answers `name`'s clients from: the alias and the generations its themes
    /// serve now; nil when there is no such alias.
    func assigner(for name: String) -> Assigner? {
        let epoch = library.epoch
        let version = aliases.withLock { $0.version }
        if let kept = assigners.withLock({ $0.epoch == epoch && $0.version == version ? $0.byName[name] : nil }) { return kept }
        guard let alias = alias(named: name) else { return nil }
        var generations: [String: Int64] = [:]
        for theme in alias.themes { generations[theme] = library.theme(named: theme).map { Int64($0.generation) } }
        let assigner = Assigner(aliases: [name: alias], generations: generations)
        // Kept only when nothing moved meanwhile: one made from what changed is not kept.
        guard library.epoch == epoch, aliases.withLock({ $0.version }) == version else { return assigner }
        assigners.withLock { kept in
            if kept.epoch != epoch || kept.version != version { kept = (epoch, version, [:]) }
            kept.byName[name] = assigner
        }
        return assigner
    }

    /// Keeps `alias` (replacing one of its name): in the index first, so what is answered is kept.
    func put(_ alias: Alias) throws {
        try index.writer.setSetting(Self.prefix + alias.name, to: alias.json.serialized())
        aliases.withLock { $0.byName[alias.name] = alias; $0.version += 1 }
    }

    /// Forgets an alias; false when there was none.
    func remove(_ name: String) throws -> Bool {
        let existed = try index.writer.removeSetting(Self.prefix + name)
        aliases.withLock { $0.byName[name] = nil; $0.version += 1 }
        return existed
    }

    /// The aliases that can point at `theme` (for events when its generation changes).
    func aliases(pointingAt theme: String) -> [Alias] {
        all.filter { $0.themes.contains(theme) }
    }
}
