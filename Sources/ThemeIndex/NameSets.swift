import SQLite

/// How many colour, image and file names a theme answers.
struct NameCounts: Equatable {
    var colors = 0, images = 0, files = 0

    mutating func add(_ kind: AssetKind) {
        switch kind {
        case .color: colors += 1
        case .image: images += 1
        case .file: files += 1
        case .data: break
        }
    }

    static func + (left: NameCounts, right: NameCounts) -> NameCounts {
        NameCounts(colors: left.colors + right.colors, images: left.images + right.images, files: left.files + right.files)
    }
}

/// A theme's own colour, image and file names; counted over its parent chain, what its detail
/// lists (a name the theme and its parent both define counts once).
struct NameSets {
    var colors = Set<String>(), images = Set<String>(), files = Set<String>()

    mutating func insert(_ name: String, _ kind: AssetKind) {
        switch kind {
        case .color: colors.insert(name)
        case .image: images.insert(name)
        case .file: files.insert(name)
        case .data: break
        }
    }

    func contains(_ name: String, _ kind: AssetKind) -> Bool {
        switch kind {
        case .color: colors.contains(name)
        case .image: images.contains(name)
        case .file: files.contains(name)
        case .data: false
        }
    }

    mutating func formUnion(_ other: NameSets) {
        colors.formUnion(other.colors)
        images.formUnion(other.images)
        files.formUnion(other.files)
    }

    var counts: NameCounts { NameCounts(colors: colors.count, images: images.count, files: files.count) }
}

extension IndexWriter {
    /// Stores in each theme's row the count of the names it answers, own and inherited (what its
    /// detail shows), for the themes a sync changed and every theme below them. Worked out when
    /// the index changes, a start reads them: counting every theme's names at each start grew
    /// with the platform (docs/PERFORMANCE.md, issue 78.5).
    func storeServedCounts(changed: [String], tree: ThemeTree, in database: Database) throws {
        guard !changed.isEmpty else { return }
        let affected = tree.below(changed)
        // The chains above the affected themes are held as sets of names: each theme on one that
        // is a parent (a platform's base, once).
        var chainMembers = Set<String>()
        for theme in affected {
            var next: String? = theme
            while let current = next, tree.parents[current] != nil, chainMembers.insert(current).inserted { next = tree.parents[current] ?? nil }
        }
        var parentsOwn: [String: NameSets] = [:]
        for parent in chainMembers where tree.hasChildren(parent) {
            var own = NameSets()
            try forEachOwnName(of: parent, in: database) { kind, name in own.insert(name, kind) }
            parentsOwn[parent] = own
        }
        var counts = ServedCounts(parents: tree.parents, parentsOwn: parentsOwn)
        for theme in affected.sorted() {
            if !tree.hasChildren(theme) {
                try forEachOwnName(of: theme, in: database) { kind, name in counts.addLeafName(name, kind, of: theme) }
            }
            let served = counts.counts(of: theme)
            try database.cachedStatement("UPDATE theme SET served_colors = ?1, served_images = ?2, served_files = ?3 WHERE name = ?4")
                .run([.int(served.colors), .int(served.images), .int(served.files), .text(theme)])
        }
    }

    /// Each colour, image and file name the theme `theme` defines itself, once.
    private func forEachOwnName(of theme: String, in database: Database, _ body: (AssetKind, String) throws -> Void) throws {
        try database.cachedStatement("""
            SELECT DISTINCT kind, name FROM variant WHERE theme_id = (SELECT id FROM theme WHERE name = ?1) AND kind IN ('color', 'image', 'file')
            """)
            .forEachRow([.text(theme)]) { row in
                guard let kind = AssetKind(rawValue: try row.string("kind")) else { return }
                try body(kind, try row.string("name"))
            }
    }
}

/// Each theme's count of the names it answers, own and inherited. Only the themes that are
/// parents are held as sets of names (a platform's base is every brand's parent); every other
/// theme's names are counted as they pass (`addLeafName`): its count is what its parent's chain
/// answers plus its own names that chain lacks. A platform of 10,000 brands kept each brand's
/// names, and every row they were read from, at once: 80 MB more at start-up.
struct ServedCounts {
    private let parents: [String: String?]
    private var chains: [String: NameSets] = [:]
    private var added: [String: NameCounts] = [:]

    /// `parents`: every theme's parent; `parentsOwn`: the own names of each theme that is a parent.
    init(parents: [String: String?], parentsOwn: [String: NameSets]) {
        self.parents = parents
        var chains: [String: NameSets] = [:]
        /// The names of `theme` and its ancestors (a missing parent or a loop ends the chain).
        func served(_ theme: String, visited: Set<String>) -> NameSets {
            if let known = chains[theme] { return known }
            var names = parentsOwn[theme] ?? NameSets()
            if let parent = parents[theme] ?? nil, parents[parent] != nil, !visited.contains(parent), visited.count < 8 {
                names.formUnion(served(parent, visited: visited.union([theme])))
            }
            // Kept only when whole: inside another's walk, a loop is cut where that walk began.
            if visited.isEmpty { chains[theme] = names }
            return names
        }
        for theme in parentsOwn.keys { _ = served(theme, visited: []) }
        self.chains = chains
    }

    /// One of the own names of a theme that is no parent (each once).
    mutating func addLeafName(_ name: String, _ kind: AssetKind, of theme: String) {
        if let inherited = inherited(by: theme), inherited.contains(name, kind) { return }
        added[theme, default: NameCounts()].add(kind)
    }

    /// The count of `theme`'s names, own and inherited.
    func counts(of theme: String) -> NameCounts {
        if let chain = chains[theme] { return chain.counts }
        return (inherited(by: theme)?.counts ?? NameCounts()) + (added[theme] ?? NameCounts())
    }

    private func inherited(by theme: String) -> NameSets? {
        guard let parent = parents[theme] ?? nil else { return nil }
        return chains[parent]
    }
}
