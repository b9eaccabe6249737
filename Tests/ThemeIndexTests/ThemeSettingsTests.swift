import Foundation
import Testing
import TestSupport
import ThemeVocabulary
@testable import ThemeIndex

/// theme.json is read strictly, and a change to it that would break a theme's parent chain is not
/// taken: the theme keeps the parent it had and says why, once (issue 42).
@Suite("theme settings and parent chains")
struct ThemeSettingsTests {
    /// A themes folder with `light` (a colour), `brand` inheriting from it, and an index of both.
    func platform() throws -> (ThemeIndex, ThemeFixtures) {
        let fixtures = ThemeFixtures()
        fixtures.colorSet("light", "primary", [(nil, ["red": "0.25", "green": "0", "blue": "0"], [:])])
        fixtures.colorSet("brand", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        fixtures.write("{\"parent\": \"light\"}", to: "brand/theme.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        return (index, fixtures)
    }

    func theme(_ name: String, in index: ThemeIndex) throws -> ThemeInfo? {
        try index.reader.themes().first { $0.name == name }
    }

    @Test("material: a seed as #RRGGBB or a token's alias, a variant by name, spec 2021, a high-contrast level; anything else names its key")
    func materialSettings() throws {
        let settings = try ThemeSettings(json: Data(##"{"material": {"seed": "#6750a4", "variant": "fruitSalad", "spec": "2021", "highContrastLevel": 0.5}}"##.utf8))
        #expect(settings.material == MaterialSettings(seed: .rgb(0xFF67_50A4), variant: .fruitSalad, highContrastLevel: 0.5))
        #expect(try ThemeSettings(json: Data(#"{"material": {"seed": "{color.brand}"}}"#.utf8)).material == MaterialSettings(seed: .alias("color.brand")))
        #expect(try ThemeSettings(json: Data(##"{"material": {"seed": "#FA0"}}"##.utf8)).material?.seed == .rgb(0xFFFF_AA00))
        for (text, named) in [(##"{"material": "#6750A4"}"##, "\"material\" is {"), (#"{"material": {"variant": "neutral"}}"#, "material.seed\" is missing"),
                              (#"{"material": {"seed": "purple"}}"#, "neither a colour"), (#"{"material": {"seed": "{a}{b}"}}"#, "neither a colour"),
                              (##"{"material": {"seed": "#6750A4", "variant": "vibrent"}}"##, "did you mean \"vibrant\""),
                              (##"{"material": {"seed": "#6750A4", "spec": "2025"}}"##, "computes the roles of \"2021\""),
                              (##"{"material": {"seed": "#6750A4", "highContrastLevel": 2}}"##, "highContrastLevel"),
                              (##"{"material": {"seed": "#6750A4", "variants": "neutral"}}"##, "did you mean \"variant\""),
                              (#"{"materials": {}}"#, "did you mean \"material\"")] {
            do {
                _ = try ThemeSettings(json: Data(text.utf8))
                Issue.record("\(text) was taken")
            } catch {
                #expect(error.description.contains(named), "\(text): \(error)")
            }
        }
    }

    @Test("an unknown key is refused with the nearest known one; a wrong value names its key")
    func strictKeys() throws {
        #expect(throws: ThemeSettings.Invalid.self) { try ThemeSettings(json: Data("{\"parnet\": \"light\"}".utf8)) }
        do {
            _ = try ThemeSettings(json: Data("{\"parnet\": \"light\"}".utf8))
        } catch {
            #expect(error.description.contains("unknown key \"parnet\" (did you mean \"parent\"?)"), "\(error)")
        }
        for (json, words) in [("{\"parent\": 5}", "\"parent\" must be a theme's name"), ("{\"parent\": \"../x\"}", "not a theme name"),
                              ("[1]", "not a JSON object"), ("{", "not valid JSON")] {
            do {
                _ = try ThemeSettings(json: Data(json.utf8))
                Issue.record("\(json) was accepted")
            } catch {
                #expect(error.description.contains(words), "\(json): \(error)")
            }
        }
        #expect(try ThemeSettings(json: Data("{\"parent\": \"light\"}".utf8)).parent == "light")
        #expect(try ThemeSettings(json: Data("{\"parent\": null}".utf8)).parent == nil)
    }

    @Test("a misspelt key keeps the parent the index had, and is reported once")
    func misspeltKeyKeepsParent() throws {
        let (index, fixtures) = try platform()
        defer { fixtures.remove() }
        fixtures.write("{\"parnet\": \"light\"}", to: "brand/theme.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        let brand = try #require(try theme("brand", in: index))
        #expect(brand.parent == "light")
        #expect(brand.error.contains("did you mean \"parent\"?") && brand.error.contains("keeps inheriting from \"light\""), "\(brand.error)")
        #expect(report.themeErrors.map(\.theme) == ["brand"])
        #expect(!report.changedThemes.contains("brand"))
        // Told once: the next sync finds nothing new.
        #expect(try index.writer.sync(themesDirectory: fixtures.root).themeErrors.isEmpty)
        // Fixed: taken, and the error goes.
        fixtures.write("{\"parent\": \"light\"}", to: "brand/theme.json")
        try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try theme("brand", in: index)?.error == "")
    }

    @Test("a parent that does not exist is not taken: the brand keeps serving from its old parent")
    func missingParent() throws {
        let (index, fixtures) = try platform()
        defer { fixtures.remove() }
        fixtures.write("{\"parent\": \"ligth\"}", to: "brand/theme.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        let brand = try #require(try theme("brand", in: index))
        #expect(brand.parent == "light")
        #expect(report.themeErrors.first?.message.contains("parent \"ligth\" (theme.json) is not a theme; did you mean \"light\"?") == true,
                "\(report.themeErrors)")
        // The chain still resolves: every route keeps answering.
        let chain = try ThemeInfo.chain(of: "brand", in: try index.reader.themes())
        #expect(chain.map(\.name) == ["brand", "light"])
    }

    @Test("a loop is not taken, and names every theme in it")
    func loop() throws {
        let (index, fixtures) = try platform()
        defer { fixtures.remove() }
        fixtures.write("{\"parent\": \"brand\"}", to: "light/theme.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try theme("light", in: index)?.parent == nil)
        #expect(try theme("brand", in: index)?.parent == "light")
        #expect(report.themeErrors.map(\.message).contains { $0.contains("parent chain loops: light → brand → light") }, "\(report.themeErrors)")
        #expect(try ThemeInfo.chain(of: "brand", in: try index.reader.themes()).map(\.name) == ["brand", "light"])
    }

    @Test("a new theme with a broken chain is indexed with its error (it has nothing better to keep)")
    func newThemeWithMissingParent() throws {
        let (index, fixtures) = try platform()
        defer { fixtures.remove() }
        fixtures.colorSet("newcomer", "accent", [(nil, ["red": "1", "green": "1", "blue": "0"], [:])])
        fixtures.write("{\"parent\": \"nowhere\"}", to: "newcomer/theme.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        let newcomer = try #require(try theme("newcomer", in: index))
        #expect(newcomer.parent == "nowhere" && newcomer.error.contains("parent \"nowhere\" (theme.json) is not a theme"))
        #expect(report.themeErrors.map(\.theme) == ["newcomer"])
        #expect(throws: ThemeError.self) { try ThemeInfo.chain(of: "newcomer", in: try index.reader.themes()) }
    }

    @Test("removing a parent that children use keeps it, reported, until none does")
    func removedParentKept() throws {
        let (index, fixtures) = try platform()
        defer { fixtures.remove() }
        try FileManager.default.removeItem(atPath: fixtures.path("light"))
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(report.removedThemes.isEmpty)
        let light = try #require(try theme("light", in: index))
        #expect(light.error.contains("brand inherits from it"), "\(light.error)")
        #expect(report.themeErrors.map(\.theme) == ["light"])
        #expect(try ThemeInfo.chain(of: "brand", in: try index.reader.themes()).map(\.name) == ["brand", "light"])
        // Once the brand no longer inherits from it, it goes.
        try FileManager.default.removeItem(atPath: fixtures.path("brand/theme.json"))
        let after = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(after.removedThemes == ["light"])
    }

    @Test("a release checked alone finds its parent among the store's themes, or is refused naming it")
    func scopes() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.colorSet("brand", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        fixtures.write("{\"parent\": \"base\"}", to: "brand/theme.json")
        let folder = [ThemeFolder.folderTheme(name: "brand", path: fixtures.path("brand"))]
        #expect(ParentChains.settle(folder, stored: [:], scope: .alsoAmong(["base": nil]))["brand"] == .init(parent: "base"))
        #expect(ParentChains.settle(folder, stored: [:], scope: .unchecked)["brand"] == .init(parent: "base"))
        #expect(ParentChains.settle(folder, stored: [:], scope: .folder)["brand"]?.problem?.contains("parent \"base\" (theme.json) is not a theme") == true)
        let loop = ParentChains.settle(folder, stored: [:], scope: .alsoAmong(["base": "brand"]))["brand"]
        #expect(loop?.problem == "parent chain loops: brand → base → brand")
        let deep = Dictionary(uniqueKeysWithValues: (0..<9).map { ("base\($0 == 0 ? "" : "\($0)")", $0 == 8 ? nil : "base\($0 + 1)") })
        #expect(ParentChains.settle(folder, stored: [:], scope: .alsoAmong(deep))["brand"]?.problem?.hasPrefix("parent chain is deeper than 8") == true)
    }

    @Test("names sort as people read them")
    func naturalOrder() {
        let names = ["brand-11", "brand-4", "Brand-2", "alpha", "brand-04", "brand-100"]
        #expect(names.sorted(by: ThemeName.naturalOrder) == ["alpha", "Brand-2", "brand-04", "brand-4", "brand-11", "brand-100"])
    }
}
