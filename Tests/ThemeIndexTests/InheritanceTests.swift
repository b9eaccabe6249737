import Foundation
import Testing
import TestSupport
import ThemeVocabulary
@testable import ThemeIndex

/// Themes and inheritance (lookup-rules.md 7.4): the nearest theme with an acceptable variant wins.
@Suite("theme inheritance")
struct InheritanceTests {
    func index(_ build: (ThemeFixtures) -> Void) throws -> (ThemeIndex, ThemeFixtures) {
        let fixtures = ThemeFixtures()
        build(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        return (index, fixtures)
    }

    func resolveColor(_ index: ThemeIndex, _ name: String, appearance: String = "light") throws -> (theme: String, red: Double)? {
        let chain = try ThemeInfo.chain(of: "child", in: try index.reader.themes())
        var request = TraitRequest()
        request.appearance = Appearance(name: appearance)
        return try index.reader.resolve(.color, named: name, in: chain, for: request).map { ($0.theme, $0.variant.color?.components.first ?? -1) }
    }

    @Test("T1 the child owns a name it defines; T3 a miss falls through to the parent")
    func childOwnsName() throws {
        let (index, fixtures) = try index { f in
            f.write("{\"parent\": \"base\"}", to: "child/theme.json")
            f.colorSet("child", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
            f.colorSet("base", "primary", [(nil, ["red": "0", "green": "0", "blue": "0"], [:]), ("dark", ["red": "0.5", "green": "0", "blue": "0"], [:])])
            f.colorSet("base", "accent", [(nil, ["red": "0.25", "green": "0", "blue": "0"], [:])])
        }
        defer { fixtures.remove() }
        #expect(try resolveColor(index, "primary")?.theme == "child")
        #expect(try resolveColor(index, "accent")?.theme == "base")
        #expect(try resolveColor(index, "missing") == nil)
    }

    @Test("T2 a child with only dark variants still inherits the light answer")
    func darkOnlyChild() throws {
        let (index, fixtures) = try index { f in
            f.write("{\"parent\": \"base\"}", to: "child/theme.json")
            f.colorSet("child", "primary", [("dark", ["red": "1", "green": "0", "blue": "0"], [:])])
            f.colorSet("base", "primary", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        }
        defer { fixtures.remove() }
        #expect(try resolveColor(index, "primary")?.theme == "base")
        #expect(try resolveColor(index, "primary", appearance: "dark")?.theme == "child")
    }

    @Test("T4 the nearest theme wins even with a worse scale")
    func nearestThemeWins() throws {
        let (index, fixtures) = try index { f in
            f.write("{\"parent\": \"base\"}", to: "child/theme.json")
            f.imageSet("child", "icon", [["scale": "1x"]])
            f.imageSet("base", "icon", [["scale": "2x"]])
        }
        defer { fixtures.remove() }
        let chain = try ThemeInfo.chain(of: "child", in: try index.reader.themes())
        var request = TraitRequest()
        request.scale = 2
        let resolution = try #require(try index.reader.resolve(.image, named: "icon", in: chain, for: request))
        #expect(resolution.theme == "child")
        #expect(resolution.fallbacks == ["appearance:any", "scale:1"])
    }

    @Test("T7 a parent cycle or a missing parent is an error for that theme only")
    func brokenChains() throws {
        let (index, fixtures) = try index { f in
            f.write("{\"parent\": \"base\"}", to: "child/theme.json")
            f.write("{\"parent\": \"child\"}", to: "base/theme.json")
            f.write("{\"parent\": \"nowhere\"}", to: "orphan/theme.json")
            f.colorSet("fine", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        }
        defer { fixtures.remove() }
        let themes = try index.reader.themes()
        #expect(throws: ThemeError.self) { try ThemeInfo.chain(of: "child", in: themes) }
        #expect(throws: ThemeError.self) { try ThemeInfo.chain(of: "orphan", in: themes) }
        #expect(try ThemeInfo.chain(of: "fine", in: themes).map(\.name) == ["fine"])
    }
}
