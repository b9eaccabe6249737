import Foundation
import Testing
import TestSupport
import ThemeVocabulary
@testable import ThemeBundle
@testable import ThemeIndex

@Suite("indexing")
struct IndexingTests {
    @Test("colour components in every notation Xcode writes", arguments: [
        ("0.5", 0.5), ("1.000", 1.0), ("0x80", 128.0 / 255), ("0XFF", 1.0), ("128", 128.0 / 255), ("0", 0.0), ("1", 1.0), ("-0.032", -0.032),
    ])
    func componentNotations(_ text: String, _ value: Double) throws {
        let parsed = try #require(XCAssets.component(text))
        #expect(abs(parsed - value) < 1e-9)
    }

    @Test("components that are not numbers are rejected", arguments: ["abc", "256", "0xZZ", ""])
    func badComponents(_ text: String) {
        #expect(XCAssets.component(text) == nil)
    }

    @Test("a sync for one theme's line holds that theme and its parents, nothing else of the folder (what an export reads)")
    func lineOfOneTheme() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        for name in ["base", "brand", "other", "sibling"] {
            fixtures.colorSet(name, "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        }
        fixtures.write(#"{"parent": "base"}"#, to: "brand/theme.json")
        fixtures.write(#"{"parent": "base"}"#, to: "sibling/theme.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        let report = try index.writer.sync(themesDirectory: fixtures.root, lineOf: "brand")
        #expect(Set(try index.reader.themes().map(\.name)) == ["base", "brand"])
        #expect(report.reindexedSources.count == 2)
        #expect(ThemeFolder.discover(in: fixtures.root, lineOf: "nowhere").isEmpty)
    }

    @Test("a second sync re-parses nothing; a changed source is re-parsed and bumps the generation")
    func incrementalSync() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.colorSet("light", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        fixtures.colorSet("dark", "primary", [(nil, ["red": "0", "green": "0", "blue": "1"], [:])])
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        let first = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(first.reindexedSources.count == 2)
        let generation = try index.reader.themes().first { $0.name == "light" }?.generation

        let second = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(second.reindexedSources.isEmpty)
        #expect(second.unchangedSources == 2)

        // A reopened index (a restart) also sees nothing to do.
        let reopened = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        #expect(try reopened.writer.sync(themesDirectory: fixtures.root).reindexedSources.isEmpty)

        // A longer value: the file's size changes, so the change is seen however coarse the file
        // system's timestamps are.
        fixtures.colorSet("light", "primary", [(nil, ["red": "0.5", "green": "0", "blue": "0"], [:])])
        let third = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(third.reindexedSources == [fixtures.path("light/Theme.xcassets")])
        #expect(try index.reader.themes().first { $0.name == "light" }?.generation == (generation ?? 0) + 1)
    }

    @Test("a malformed Contents.json skips that set, names the file and field, and the rest still loads")
    func malformedSet() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.colorSet("light", "good", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        fixtures.write("{ not json", to: "light/Theme.xcassets/broken.colorset/Contents.json")
        fixtures.colorSet("light", "badValue", [(nil, ["red": "lots", "green": "0", "blue": "0"], [:])])
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let theme = try #require(try index.reader.themes().first)
        #expect(theme.colorCount == 1)
        #expect(theme.error.contains("broken.colorset/Contents.json: not valid JSON"))
        #expect(theme.error.contains("badValue.colorset/Contents.json: colors[0]: field \"color.components.red\""))
    }

    @Test("a corrupt catalog never replaces the indexed one", .needsCorpus)
    func corruptCatalogKeepsOldRows() throws {
        let corpus = try #require(Corpus.carDirectory)
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        try FileManager.default.createDirectory(atPath: fixtures.path("app"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus.appendingPathComponent("SMzig__balador-ios__Assets.car").path, toPath: fixtures.path("app/Assets.car"))
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let before = try #require(try index.reader.themes().first)
        #expect(before.colorCount == 15)

        let truncated = try Data(contentsOf: URL(fileURLWithPath: fixtures.path("app/Assets.car"))).prefix(1000)
        try Data(truncated).write(to: URL(fileURLWithPath: fixtures.path("app/Assets.car")))
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(report.errors.count == 1)
        let after = try #require(try index.reader.themes().first)
        #expect(after.colorCount == 15)
        #expect(after.generation == before.generation)
        #expect(after.error.contains("Assets.car"))
    }

    @Test("a sync of one theme reads its ancestors from disk and the themes below it by the index's parents, no other folder")
    func oneThemeReadsItsNeighbourhood() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        for (theme, parent) in [("base", nil), ("brand", "base"), ("sub", "brand"), ("other", nil), ("new-base", nil)] as [(String, String?)] {
            if let parent { fixtures.write("{\"parent\": \"\(parent)\"}", to: "\(theme)/theme.json") }
            fixtures.colorSet(theme, "c", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        }
        let indexed: [String: String?] = ["base": nil, "brand": "base", "sub": "brand", "other": nil]
        let read = { (theme: String) in
            ThemeFolder.discover(in: fixtures.root, around: .init(theme: theme, parents: indexed)).map(\.name)
        }
        #expect(read("brand") == ["base", "brand", "sub"])
        #expect(read("base") == ["base", "brand", "sub"])
        #expect(read("other") == ["other"])
        #expect(read("gone").isEmpty, "a theme whose folder went reads nothing")

        // The theme's own parent is what its folder says now; below it, what the index holds.
        fixtures.write("{\"parent\": \"new-base\"}", to: "brand/theme.json")
        #expect(read("brand") == ["brand", "new-base", "sub"])
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try index.reader.themes().first { $0.name == "brand" }?.parent == "new-base")
        fixtures.write("{\"parent\": \"base\"}", to: "brand/theme.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root, only: "brand")
        #expect(report.changedThemes == ["brand"] && report.errors.isEmpty, "\(report)")
        #expect(try index.reader.themes().first { $0.name == "brand" }?.parent == "base")
    }

    @Test("a name's first entry that is what it says is the theme: a folder before its .car, a .car after a file of the same name")
    func entriesOfOneName() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.colorSet("both", "c", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        for entry in ["both.car", "plain", "plain.car", "folder.car/Contents.json"] { fixtures.write("x", to: entry) }
        let everything = ThemeFolder.discover(in: fixtures.root)
        #expect(everything.map(\.name) == ["both", "plain"])
        #expect(everything.map(\.path) == [fixtures.path("both"), fixtures.path("plain.car")])
        let alone = ThemeFolder.discover(in: fixtures.root, around: .init(theme: "plain", parents: [:]))
        #expect(alone.map(\.path) == [fixtures.path("plain.car")])
    }
}

/// A multisize member's size in points comes from the set of its own idiom, by its index.
@Suite("multisize member sizes")
struct MultisizeMemberSizeTests {
    /// Sets of one icon by idiom (raw values: 0 universal, 1 phone, 2 pad) and index.
    static let sets: [Int: [Int: Int]] = [1: [0: 20, 1: 60], 2: [0: 20, 1: 76, 2: 83], 0: [0: 1024]]

    @Test("the member's own idiom first, then the universal set, then the lowest idiom with the index; 0 when none has it")
    func rule() {
        #expect(CatalogVariants.memberSize(Self.sets, idiom: 1, index: 1) == 60)
        #expect(CatalogVariants.memberSize(Self.sets, idiom: 2, index: 1) == 76)
        #expect(CatalogVariants.memberSize(Self.sets, idiom: 5, index: 0) == 1024, "no set of its own: the universal one")
        #expect(CatalogVariants.memberSize(Self.sets, idiom: 5, index: 2) == 83, "only the pad set has index 2")
        #expect(CatalogVariants.memberSize(Self.sets, idiom: 5, index: 9) == 0)
        // The same answer however the dictionary happens to be ordered.
        let reordered = Dictionary(uniqueKeysWithValues: Self.sets.reversed().map { ($0.key, $0.value) })
        #expect(CatalogVariants.memberSize(reordered, idiom: 7, index: 1) == CatalogVariants.memberSize(Self.sets, idiom: 7, index: 1))
        #expect(CatalogVariants.memberSize([2: [1: 76], 1: [1: 60]], idiom: 7, index: 1) == 60, "the lowest idiom, not the first found")
    }
}

@Suite("indexing while serving")
struct IndexingWhileServingTests {
    @Test("a lookup with the theme chain taken before a re-read finds the new rows (the chain's source ids still hold)")
    func chainTakenBeforeReread() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.colorSet("light", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        // Indexed after light: its source's row id is the highest, so light's next row would not reuse its id by chance.
        fixtures.colorSet("night", "primary", [(nil, ["red": "0", "green": "0", "blue": "1"], [:])])
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let chainBefore = try ThemeInfo.chain(of: "light", in: try index.reader.themes())

        fixtures.colorSet("light", "primary", [(nil, ["red": "0.25", "green": "0", "blue": "0"], [:])])
        #expect(try index.writer.sync(themesDirectory: fixtures.root).reindexedSources == [fixtures.path("light/Theme.xcassets")])

        let resolution = try #require(try index.reader.resolve(.color, named: "primary", in: chainBefore, for: TraitRequest()))
        #expect(resolution.variant.color?.components.first == 0.25)
        #expect(try index.reader.themes().first { $0.name == "light" }?.sources.map(\.id) == chainBefore.first?.sources.map(\.id))
    }
}

/// The counts a theme's detail shows: the names it answers, its own and its ancestors', each once.
@Suite("served counts")
struct ServedCountTests {
    @Test("counts over chains of every shape: three levels, a parent with no names, a missing parent, a loop, shared names once")
    func chains() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        let names: [String: (colors: [String], images: [String], parent: String?)] = [
            "root": (["a", "b"], ["logo"], nil),
            "middle": (["b", "c"], [], "root"),
            "leaf": (["c", "d", "a"], ["logo", "hero"], "middle"),
            "sibling": (["e"], [], "root"),
            "empty-parent": ([], [], nil),
            "child-of-empty": (["x"], ["y"], "empty-parent"),
            "orphan": (["o"], [], "gone"),
            "loop-a": (["p"], [], "loop-b"),
            "loop-b": (["q", "p"], [], "loop-a"),
        ]
        for (theme, own) in names {
            if let parent = own.parent { f.write("{\"parent\": \"\(parent)\"}", to: "\(theme)/theme.json") }
            for color in own.colors { f.colorSet(theme, color, [(nil, ["red": "0", "green": "0", "blue": "0"], [:])]) }
            for image in own.images { f.imageSet(theme, image, [["scale": "1x"]]) }
            if own.colors.isEmpty && own.images.isEmpty { f.write("{}", to: "\(theme)/theme.json") }
        }
        let index = try ThemeIndex(databasePath: f.path("index.sqlite"))
        try index.writer.sync(themesDirectory: f.root)
        let served = Dictionary(try index.reader.themes().map { ($0.name, ($0.colorCount, $0.imageCount)) }, uniquingKeysWith: { first, _ in first })
        /// What the theme answers, worked out the long way: the union of the chain's names.
        func expected(_ theme: String) -> (Int, Int) {
            var (colors, images, visited) = (Set<String>(), Set<String>(), Set<String>())
            var next: String? = theme
            while let current = next, let own = names[current], !visited.contains(current) {
                visited.insert(current)
                colors.formUnion(own.colors)
                images.formUnion(own.images)
                next = own.parent
            }
            return (colors.count, images.count)
        }
        for theme in names.keys {
            let counts = try #require(served[theme], "\(theme) is indexed")
            #expect(counts == expected(theme), "\(theme)")
        }
        let leaf = try #require(served["leaf"])
        #expect(leaf == (4, 2), "a, b, c, d and logo, hero: a name defined at two levels counts once")
    }

    @Test("counts are stored when the index changes: a name added at the root reaches every theme below it, a theme that moves, comes without names of its own or gets its missing parent counts its new chain, and a restart reads them as stored")
    func storedCounts() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.colorSet("root", "a", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        f.colorSet("other-root", "z", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        for (theme, parent, own) in [("middle", "root", "b"), ("leaf", "middle", "c"), ("mover", "root", "d")] {
            f.write("{\"parent\": \"\(parent)\"}", to: "\(theme)/theme.json")
            f.colorSet(theme, own, [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        }
        var index = try ThemeIndex(databasePath: f.path("index.sqlite"))
        func colors() throws -> [String: Int] {
            Dictionary(try index.reader.themes().map { ($0.name, $0.colorCount) }, uniquingKeysWith: { first, _ in first })
        }
        try index.writer.sync(themesDirectory: f.root)
        #expect(try colors() == ["root": 1, "other-root": 1, "middle": 2, "leaf": 3, "mover": 2])

        f.colorSet("root", "e", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        f.write("{\"parent\": \"other-root\"}", to: "mover/theme.json")
        f.write("{\"parent\": \"leaf\"}", to: "bare/theme.json")
        let report = try index.writer.sync(themesDirectory: f.root)
        #expect(Set(report.changedThemes + report.addedThemes) == ["bare", "mover", "root"], "leaf and middle did not change, yet count anew")
        let expected = ["root": 2, "other-root": 1, "middle": 3, "leaf": 4, "mover": 2, "bare": 4]
        #expect(try colors() == expected)

        index = try ThemeIndex(databasePath: f.path("index.sqlite"))
        #expect(try colors() == expected, "a start reads what the sync stored")
        try index.writer.sync(themesDirectory: f.root, only: "leaf")
        #expect(try colors() == expected, "a sync that changes nothing keeps them")

        // A parent that comes later: the theme waiting for it counts its names once it is there,
        // though its own files did not change. One whose folder goes while others inherit from
        // it is kept as indexed, and so are the counts below it.
        f.write("{\"parent\": \"late\"}", to: "orphan/theme.json")
        f.colorSet("orphan", "f", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        try index.writer.sync(themesDirectory: f.root)
        #expect(try colors()["orphan"] == 1)
        f.colorSet("late", "g", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        let arrival = try index.writer.sync(themesDirectory: f.root)
        #expect(arrival.addedThemes == ["late"] && !arrival.changedThemes.contains("orphan"), "\(arrival)")
        #expect(try colors()["orphan"] == 2)
        try FileManager.default.removeItem(atPath: f.path("root"))
        #expect(try index.writer.sync(themesDirectory: f.root).removedThemes.isEmpty)
        #expect(try colors().filter { $0.key != "orphan" && $0.key != "late" } == expected)
    }
}
