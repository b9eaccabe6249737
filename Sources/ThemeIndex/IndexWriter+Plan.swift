import SQLite

extension IndexWriter {
    /// What a sync works through: the theme folders it reads, each with its parent settled
    /// (`ParentChains`), and what the index holds of them.
    struct Plan {
        var discovered: [ThemeFolder]
        /// The theme the sync is of; nil for every theme.
        var only: String?
        /// The index's themes before the sync: what chains are settled against.
        var tree: ThemeTree
        /// The index's records of the themes the sync reads (of every theme, without `only`).
        var stored: [ThemeRecord]
        var storedByName: [String: ThemeRecord]
        var settled: [String: ParentChains.Settled]
        var folders: [ThemeFolder]
        /// The reading thread has no connection: what it compares with is read for it first.
        var storedSources: [Int64: [SourceRecord]] = [:]
        /// The ancestors' files as this sync found them, for every theme over them.
        let stamps = FileStamps()

        init(of discovered: [ThemeFolder], only: String? = nil, parents scope: ParentScope, tree: ThemeTree, in database: Database) throws {
            (self.discovered, self.only, self.tree) = (discovered, only, tree)
            settled = ParentChains.settle(discovered, stored: tree.parents, scope: scope)
            // With `only`, also the themes whose tokens are read with its (a base's edit is each brand's).
            folders = discovered.filter { folder in
                only == nil || folder.name == only
                    || folder.sources.contains { $0.tokens?.ancestors.contains { $0.theme == only } ?? false }
            }.map { [settled] folder in
                var folder = folder
                (folder.parent, folder.error) = (settled[folder.name]?.parent, settled[folder.name]?.problem)
                return folder
            }
            // One theme among a platform's thousands reads the records it compares with, not all.
            if let only {
                let named = try database.cachedStatement("SELECT * FROM theme WHERE name = ?1")
                stored = try Set(folders.map(\.name) + [only]).sorted().compactMap { name in try named.rows([.text(name)]).first.map(ThemeRecord.init(row:)) }
            } else {
                stored = try database.prepare("SELECT * FROM theme").rows().map(ThemeRecord.init(row:))
            }
            storedByName = Dictionary(stored.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for theme in folders.compactMap({ storedByName[$0.name] }) {
                storedSources[theme.id] = try database.cachedStatement("SELECT * FROM source WHERE theme_id = ?1").rows([.integer(theme.id)])
                    .map(SourceRecord.init(row:))
            }
        }

        /// The folder at `position` against what the index holds of it.
        func changes(at position: Int) -> ThemeChanges {
            let theme = storedByName[folders[position].name]
            return IndexWriter.diff(folders[position], theme: theme, sources: theme.flatMap { storedSources[$0.id] } ?? [], stamps: stamps)
        }

        /// The themes whose records a sync of `only` may change: those it compares with their
        /// folders (the ancestors it reads are not written) or may remove, and every theme below
        /// them, whose served counts follow theirs. Nil for a sync of all.
        var touchedThemes: Set<String>? {
            guard only != nil else { return nil }
            let written = folders.map(\.name) + stored.map(\.name)
            return Set(written).union(tree.below(written))
        }
    }
}
