import Sharding
import Synchronization
import ThemeIndex
import ThemeVocabulary

/// The themes being served: the index, the content behind it, and a snapshot of the themes and
/// the active theme that requests read without touching SQLite.
///
/// `reload` is the one path from the themes folder to what clients see: it syncs the index,
/// hands the catalogs the sync parsed to the content store, and swaps the snapshot, bumping the
/// epoch that response caches are keyed by. A request sees the old generation or the new one.
public final class ThemeLibrary: Sendable {
    public let index: ThemeIndex
    public let content: ContentStore
    public let themesDirectory: String
    /// The share of a platform's themes this replica serves; nil: every theme.
    public let shard: Shard?
    private let snapshot: Mutex<Snapshot>
    /// The snapshot's epoch, read without its lock: every request's kept answer is checked
    /// against it.
    private let currentEpoch = Atomic<Int>(0)
    /// Serialises reloads (watcher, SIGHUP, tests) so that their reports come out in order.
    private let reloading = Mutex(())
    /// By degraded theme: the colours its last whole generation had that it lacks now (known since
    /// this process started), which a degraded palette names.
    private let missingColors = Mutex<[String: [String]]>([:])

    public struct Snapshot: Sendable {
        /// Bumped by every reload and every change of the active theme.
        public var epoch = 0
        /// The themes listed (`/themes`, the gallery, `current`'s default): a replica's kept
        /// generations (`ThemeName.pinned`) are served at their pinned URLs only.
        public private(set) var themes: [ThemeInfo]
        /// Every theme, kept generations too.
        private(set) var all: [ThemeInfo]
        /// The theme set with `PUT /active`, if any.
        public var active: String?
        /// Where each theme is in `all`, and in `themes` when listed: a request finds its theme
        /// without a walk through every theme (a platform has thousands).
        private let positions: [String: (all: Int, listed: Int?)]
        /// Whether every theme is listed (no kept generation): then the two lists share their storage.
        private let listsEveryTheme: Bool

        init(epoch: Int = 0, themes: [ThemeInfo], active: String? = nil) {
            (self.epoch, self.all, self.active) = (epoch, themes, active)
            var listed: [ThemeInfo] = []
            var positions: [String: (all: Int, listed: Int?)] = [:]
            positions.reserveCapacity(themes.count)
            for (position, info) in themes.enumerated() where positions[info.name] == nil {
                let isListed = ThemeName.pin(in: info.name) == nil
                positions[info.name] = (position, isListed ? listed.count : nil)
                if isListed { listed.append(info) }
            }
            listsEveryTheme = listed.count == themes.count
            (self.themes, self.positions) = (listsEveryTheme ? themes : listed, positions)
        }

        public func theme(named name: String) -> ThemeInfo? {
            positions[name].map { all[$0.all] }
        }

        /// This snapshot with `fresh` in place of the themes of the same names, if each is here
        /// already: the change of a few themes among thousands copies each list once (one, when
        /// they are the same) and places no name again. Nil when one of them is new.
        func replacing(_ fresh: [ThemeInfo]) -> Snapshot? {
            var next = self
            for info in fresh {
                guard let position = positions[info.name] else { return nil }
                next.all[position.all] = info
                if let listed = position.listed, !listsEveryTheme { next.themes[listed] = info }
            }
            if listsEveryTheme { next.themes = next.all }
            return next
        }

        /// Every theme, kept generations too, those `touched` as read again (`fresh`; one not in
        /// it is gone), in the index's order (by name, as bytes).
        func themes(replacing touched: Set<String>, with fresh: [ThemeInfo]) -> [ThemeInfo] {
            // Two runs already in order: the sort (a merge sort) only merges them.
            (all.filter { !touched.contains($0.name) } + fresh).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }

        /// The names of every theme, kept generations too.
        var names: Set<String> { Set(positions.keys) }
    }

    public init(index: ThemeIndex, themesDirectory: String, content: ContentStore, shard: Shard? = nil) throws {
        self.index = index
        self.shard = shard
        self.content = content
        self.themesDirectory = themesDirectory
        snapshot = Mutex(Snapshot(themes: try index.reader.themes(), active: try index.reader.setting("active")))
    }

    /// Re-reads the themes folder into the index (only changed sources are parsed; with `only`,
    /// one theme) and swaps the result in for requests at once.
    @discardableResult
    public func reload(only theme: String? = nil) throws -> SyncReport {
        try reloading.withLock { _ in
            // At start-up no catalog is kept from the sync: the files hold the bytes just indexed,
            // and each is opened on first need (a request, or the background warming), so
            // readiness costs nothing per theme (a platform has thousands) and a first index
            // holds one theme's parse at a time. Later, a changed catalog is kept as parsed: the
            // generation built from it is served from it, whatever the file holds next.
            let firstReload = epoch == 0
            // The index as it was, to tell what a theme that turns degraded no longer has.
            let (before, themesBefore) = firstReload ? (nil, current) : (try? index.pinnedReader(), current)
            let report = try index.writer.sync(themesDirectory: themesDirectory, only: theme, keepingCatalogs: !firstReload, shard: shard)
            // A theme's reload that found nothing new (a folder watcher seeing a swap the replica
            // indexed already) leaves what is served as it is: reading every theme's content to
            // collect the blobs would cost a platform of 10,000 themes a tenth of a second for
            // nothing. A whole reload (an operator's) still starts a new snapshot.
            if !firstReload, theme != nil, report.changedNothing { return report }
            let (next, sameThemes) = firstReload ? (Snapshot(themes: try index.reader.themes()), false) : try snapshot(after: report, before: themesBefore)
            let changed = firstReload ? next.all : report.changedThemes.compactMap(next.theme(named:))
            if let before { noteMissingColors(changed, before: before, themesBefore: themesBefore) }
            for (catalog, hash) in report.parsedCatalogs { content.catalogs.keep(catalog, contentHash: hash) }
            // Catalogs of changed themes that this sync did not parse itself are opened now (not
            // at start-up: re-opening every catalog the budget evicted would undo the budget).
            for info in changed where !firstReload {
                for source in info.sources where source.kind == .car { content.catalogs.retain(source) }
            }
            replaceSnapshot { current in
                var swapped = next
                (swapped.epoch, swapped.active) = (current.epoch + 1, current.active)
                return swapped
            }
            if !sameThemes { content.forgetWarming(except: next.names) }
            // Changed content is encoded now, in the background, not by the first request for it.
            for (info, resolutions) in zip(changed, try index.reader.storedContent(of: changed)) {
                content.warm(info.name, resolutions)
            }
            let themes = next.all
            content.collect(keeping: { [index] in try index.reader.storedContent(of: themes).flatMap { $0 } })
            return report
        }
    }

    /// The snapshot after a sync, and whether it holds the same themes as before: of one theme,
    /// those it touched read again and put in place (a platform's 10,000 are not read, copied
    /// twice and placed again at each change of one); of all of them, or of a base most of the
    /// rest inherit from, every theme in one read.
    private func snapshot(after report: SyncReport, before: Snapshot) throws -> (Snapshot, sameThemes: Bool) {
        guard let touched = report.touchedThemes, touched.count * 4 < before.all.count else {
            return (Snapshot(themes: try index.reader.themes()), false)
        }
        let fresh = try index.reader.themes(named: touched)
        if fresh.count == touched.count, let replaced = before.replacing(fresh) { return (replaced, true) }
        return (Snapshot(themes: before.themes(replacing: touched, with: fresh)), false)
    }

    /// For each changed theme: a whole one lacks nothing; a degraded one lacks what it had before
    /// (its own colours, by name) and has not now, and what it lacked before and still lacks.
    private func noteMissingColors(_ changed: [ThemeInfo], before: IndexReader, themesBefore: Snapshot) {
        for info in changed {
            guard !info.error.isEmpty else {
                missingColors.withLock { _ = $0.removeValue(forKey: info.name) }
                continue
            }
            guard let old = themesBefore.theme(named: info.name), let had = try? before.names(.color, in: [old]),
                  let has = try? index.reader.names(.color, in: [info]) else { continue }
            missingColors.withLock { missing in
                missing[info.name] = Set(missing[info.name] ?? []).union(had).subtracting(has).sorted()
            }
        }
    }

    /// The colours the themes of `chain` lack that their last whole generations had, by name.
    public func missingColors(in chain: [ThemeInfo]) -> [String] {
        let missing = missingColors.withLock { missing in chain.flatMap { missing[$0.name] ?? [] } }
        return Array(Set(missing)).sorted()
    }

    public var current: Snapshot { snapshot.withLock { $0 } }
    public var epoch: Int { currentEpoch.load(ordering: .acquiring) }

    private func replaceSnapshot(_ next: (Snapshot) -> Snapshot) {
        snapshot.withLock { snapshot in
            snapshot = next(snapshot)
            currentEpoch.store(snapshot.epoch, ordering: .releasing)
        }
    }
    public var themes: [ThemeInfo] { snapshot.withLock { $0.themes } }

    /// The theme `current` stands for: the one set with `PUT /active` (with a shard, also one
    /// another shard serves: `current` is sent there), else `light` if present, else the first theme.
    public var activeTheme: String? {
        snapshot.withLock { snapshot in
            if let active = snapshot.active, snapshot.theme(named: active) != nil || isElsewhere(active) { return active }
            return snapshot.theme(named: "light")?.name ?? snapshot.themes.first?.name
        }
    }

    /// Whether another shard serves `name`.
    public func isElsewhere(_ name: String) -> Bool {
        shard.map { !$0.owns(name) } ?? false
    }

    /// Makes `name` the active theme, persisted in the index so that it survives restarts.
    public func setActive(_ name: String) throws {
        try index.writer.setSetting("active", to: name)
        replaceSnapshot { snapshot in
            var next = snapshot
            (next.epoch, next.active) = (snapshot.epoch + 1, name)
            return next
        }
    }

    /// The theme and its ancestors, from the snapshot.
    public func chain(of name: String) throws -> [ThemeInfo] {
        let snapshot = current
        return try ThemeInfo.chain(of: name, theme: snapshot.theme(named:))
    }

    /// The loaded theme of that name.
    public func theme(named name: String) -> ThemeInfo? {
        current.theme(named: name)
    }
}
