import SQLite

/// Each indexed theme's parent, and the themes that inherit from each: read once a sync (a
/// platform has 10,000) and brought up to date with the themes the sync wrote, instead of read
/// and grouped again by each step that walks the tree.
struct ThemeTree: Sendable {
    /// Each indexed theme's parent, by name.
    private(set) var parents: [String: String?] = [:]
    /// The indexed themes naming each name as their parent.
    private var children: [String: Set<String>] = [:]

    init(in database: Database) throws {
        try database.prepare("SELECT name, parent FROM theme").forEachRow { row in
            place(try row.string("name"), parent: try row.optionalString("parent"))
        }
    }

    /// The tree of these themes' parents.
    init(parents: [String: String?]) {
        for (name, parent) in parents { place(name, parent: parent) }
    }

    /// Reads again the rows of `themes`: a sync changed or removed them.
    mutating func reread(_ themes: some Sequence<String>, in database: Database) throws {
        let row = try database.cachedStatement("SELECT parent FROM theme WHERE name = ?1")
        for name in themes {
            if let parent = parents.removeValue(forKey: name), let parent { children[parent]?.remove(name) }
            guard let found = try row.rows([.text(name)]).first else { continue }
            place(name, parent: try found.optionalString("parent"))
        }
    }

    /// A name met twice (the index's names are unique) keeps its first parent.
    private mutating func place(_ name: String, parent: String?) {
        guard parents[name] == nil else { return }
        parents[name] = .some(parent)
        if let parent { children[parent, default: []].insert(name) }
    }

    /// Whether an indexed theme inherits from `name`.
    func hasChildren(_ name: String) -> Bool {
        children[name]?.isEmpty == false
    }

    /// Those of `themes` that are indexed, and every theme that inherits from one of them, however far below.
    func below(_ themes: some Sequence<String>) -> Set<String> {
        withDescendants(of: themes.filter { parents[$0] != nil })
    }

    /// `theme` (indexed or not), every theme below it, and the themes `ancestors` names above it.
    func around(_ theme: String, ancestors parent: (String) -> String?) -> Set<String> {
        var themes = withDescendants(of: [theme])
        var next = parent(theme)
        while let name = next, themes.insert(name).inserted { next = parent(name) }
        return themes
    }

    private func withDescendants(of themes: [String]) -> Set<String> {
        var found = Set<String>()
        var next = themes
        while let theme = next.popLast() {
            guard found.insert(theme).inserted else { continue }
            next += children[theme] ?? []
        }
        return found
    }
}
