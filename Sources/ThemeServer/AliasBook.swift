import Audiences
import HTTPServer
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
    private let aliases: Mutex<[String: Alias]>
    /// Counts the aliases' changes, each counted once the change is in `aliases`.
    private let version = Atomic<Int>(0)
    /// `/assign`'s assigners, each made once for the library's epoch (which moves with every
    /// reload and `PUT /active`) and the aliases' version: every client asks at start. Kept by each
    /// event loop for itself (`PerLoop`): a lock both loops took at every assignment moved between
    /// the cores each time.
    private let assigners = PerLoop<KeptAssigners> { _ in KeptAssigners() }
    static let prefix = "alias:"
    static let current = "current"

    private struct KeptAssigners {
        var byName: [String: Assigner] = [:]
        var madeAt = (epoch: -1, version: -1)
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
        aliases = Mutex(loaded)
    }

    /// Every alias, `current` first, then by name.
    var all: [Alias] {
        let kept = aliases.withLock { $0 }.values.sorted { ThemeName.naturalOrder($0.name, $1.name) }
        return (alias(named: Self.current).map { [$0] } ?? []) + kept
    }

    func alias(named name: String) -> Alias? {
        if name == Self.current { return library.activeTheme.map { Alias(name: Self.current, theme: $0) } }
        return aliases.withLock { $0[name] }
    }

    /// What `/assign` answers `name`'s clients from, for a request read by event loop `loop`: the
    /// alias and the generations its themes serve now; nil when there is no such alias.
    func assigner(for name: String, loop: Int?) -> Assigner? {
        // The version before the alias is read: a change counted after it is not kept as this one.
        let epoch = library.epoch, version = self.version.load(ordering: .acquiring)
        let kept = assigners.withState(forLoop: loop) { _, kept in kept.madeAt == (epoch, version) ? kept.byName[name] : nil }
        if let kept { return kept }
        guard let alias = alias(named: name) else { return nil }
        var generations: [String: Generation] = [:]
        for theme in alias.themes { generations[theme] = library.theme(named: theme).map { $0.generation } }
        let assigner = Assigner(aliases: [name: alias], generations: generations)
        // Kept only when nothing moved meanwhile: one made from what changed is not kept.
        guard library.epoch == epoch, self.version.load(ordering: .acquiring) == version else { return assigner }
        assigners.withState(forLoop: loop) { _, kept in
            if kept.madeAt != (epoch, version) { (kept.byName, kept.madeAt) = ([:], (epoch, version)) }
            kept.byName[name] = assigner
        }
        return assigner
    }

    /// Keeps `alias` (replacing one of its name): in the index first, so what is answered is kept.
    func put(_ alias: Alias) throws {
        try index.writer.setSetting(Self.prefix + alias.name, to: try alias.json.serialized())
        aliases.withLock { $0[alias.name] = alias }
        version.add(1, ordering: .releasing)
    }

    /// Forgets an alias; false when there was none.
    func remove(_ name: String) throws -> Bool {
        let existed = try index.writer.removeSetting(Self.prefix + name)
        aliases.withLock { $0[name] = nil }
        version.add(1, ordering: .releasing)
        return existed
    }

    /// The aliases that can point at `theme` (for events when its generation changes).
    func aliases(pointingAt theme: String) -> [Alias] {
        all.filter { $0.themes.contains(theme) }
    }
}
