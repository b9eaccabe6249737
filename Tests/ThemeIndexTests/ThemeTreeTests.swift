import SQLite
import Testing
import TestSupport
@testable import ThemeIndex

/// The index's parent tree, read once a sync and patched with the rows the sync wrote.
@Suite("theme tree")
struct ThemeTreeTests {
    /// Each theme's parent and what `below` finds under each name, as text to compare.
    func described(_ tree: ThemeTree, names: [String]) -> [String] {
        tree.parents.map { "\($0.key) < \($0.value ?? "-")" }.sorted()
            + names.map { "\($0): \(tree.below([$0]).sorted())" }
    }

    @Test("patched with the themes a sync wrote or removed, the tree is the one a whole read gives")
    func rereadMatchesAWholeRead() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let database = try Database(path: fixtures.path("index.sqlite"))
        try Schema.create(in: database)
        for (name, parent) in [("base", nil), ("brand", "base"), ("sub", "brand"), ("other", nil), ("loose", "gone")] as [(String, String?)] {
            _ = try ThemeRecord(name: name, path: "/\(name)", parent: parent, generation: 1).insert(into: database)
        }
        var tree = try ThemeTree(in: database)
        let names = ["base", "brand", "sub", "other", "gone", "loose", "new"]
        #expect(tree.below(["base"]) == ["base", "brand", "sub"])
        #expect(tree.below(["gone"]).isEmpty, "a name no theme has heads nothing")
        #expect(tree.around("gone", ancestors: { _ in nil }) == ["gone", "loose"], "though its folder is gone, what inherits from it is around it")
        #expect(tree.hasChildren("brand") && !tree.hasChildren("sub"))

        // A sync moves sub under other, removes brand and adds new under sub.
        try database.execute("UPDATE theme SET parent = 'other' WHERE name = 'sub'")
        try database.execute("DELETE FROM theme WHERE name = 'brand'")
        _ = try ThemeRecord(name: "new", path: "/new", parent: "sub", generation: 1).insert(into: database)
        try tree.reread(["sub", "brand", "new"], in: database)
        #expect(described(tree, names: names) == described(try ThemeTree(in: database), names: names))
        #expect(tree.below(["other"]) == ["other", "sub", "new"] && !tree.hasChildren("base"))
        #expect(ThemeTree(parents: tree.parents).below(["other"]) == tree.below(["other"]), "a tree of the same parents")
    }
}
