import DesignTokens
import Foundation
import JSON
import SQLite
import Testing
import TestSupport
import ThemeVocabulary
@testable import ThemeIndex

/// A token theme's combinations share most colours with its defaults: a sync stores a name at a
/// combination only where it differs there, and every lookup answers as if each were stored whole.
@Suite("combinations that share colours with the defaults")
struct SharedCombinationsTests {
    /// appearance (light, dark: mapped to traits) x brand (main, portal) x density (regular,
    /// compact). Portal changes the accent everywhere and the background only in light (dark.json
    /// comes after the brand and sets its own); compact changes no colour at all.
    static func system(_ fixtures: ThemeFixtures, theme: String = "ds") {
        fixtures.write(##"""
        {"color": {"$type": "color", "accent": {"$value": "#0066ff"}, "text": {"$value": "{color.accent}"},
                   "background": {"$value": "#ffffff"}, "border": {"$value": "#cccccc"}},
         "space": {"$type": "dimension", "s": {"$value": "4px"}}}
        """##, to: "\(theme)/base.tokens.json")
        fixtures.write(##"{"color": {"background": {"$value": "#000000"}}}"##, to: "\(theme)/dark.tokens.json")
        fixtures.write(##"{"color": {"accent": {"$value": "#ff6600"}, "background": {"$value": "#eeeeee"}}}"##, to: "\(theme)/portal.tokens.json")
        fixtures.write(##"{"space": {"s": {"$value": "2px"}}}"##, to: "\(theme)/compact.tokens.json")
        fixtures.write(##"""
        {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
         "modifiers": {
           "appearance": {"contexts": {"light": [], "dark": [{"$ref": "dark.tokens.json"}]}, "default": "light"},
           "brand": {"contexts": {"main": [], "portal": [{"$ref": "portal.tokens.json"}]}, "default": "main"},
           "density": {"contexts": {"regular": [], "compact": [{"$ref": "compact.tokens.json"}]}, "default": "regular"}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/brand"}, {"$ref": "#/modifiers/appearance"}, {"$ref": "#/modifiers/density"}]}
        """##, to: "\(theme)/ds.resolver.json")
        fixtures.write(##"{"traits": {"appearance": {"light": {"appearance": "light"}, "dark": {"appearance": "dark"}}}}"##, to: "\(theme)/theme.json")
    }

    /// The colours of one combination as the resolver itself gives them, by name (the oracle).
    static func resolved(_ fixtures: ThemeFixtures, _ inputs: [String: String]) throws -> [String: String] {
        let folder = fixtures.path("ds")
        func load(_ file: String) throws -> JSONValue { try JSONParser.parse(Array(FileManager.default.contents(atPath: "\(folder)/\(file)") ?? Data())) }
        let resolver = try TokenResolver(document: try load("ds.resolver.json"), path: "ds.resolver.json") { try load($0) }
        return Dictionary(uniqueKeysWithValues: resolver.tokens(for: inputs).tokens.compactMap { token in
            token.color?.asWritten.map { (token.path.dotted, $0.hex) }
        })
    }

    @Test("a density that changes no colour stores none; a brand stores only the names it changes; every combination answers what the resolver gives")
    func storedOnceAnsweredEverywhere() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.system(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let database = try Database(path: fixtures.path("index.sqlite"))
        let stored = try database.prepare("SELECT contexts, name, luminosity FROM variant WHERE kind = 'color' ORDER BY contexts, name, luminosity").rows()
            .map { row in "\(try row.string("contexts")) \(try row.string("name")) \(try row.int("luminosity"))" }
        // Portal's background differs in light only; its dark variant is kept beside it, so that
        // no trait of a name falls back alone.
        let portal = stored.filter { $0.hasPrefix("brand=portal ") }
        #expect(portal.map { $0.split(separator: " ")[1] } == ["color.accent", "color.accent", "color.background", "color.background", "color.text", "color.text"],
                "\(portal)")
        #expect(!stored.contains { $0.hasPrefix("density=compact ") }, "compact changes no colour: \(stored)")
        #expect(stored.filter { $0.hasPrefix("brand=portal&density=compact ") }.count == portal.count)
        #expect(stored.filter { $0.hasPrefix(" ") }.count == 8, "the defaults: 4 colours in light and dark")

        let chain = try ThemeInfo.chain(of: "ds", in: try index.reader.themes())
        let modifiers = index.reader.tokenOwner(in: chain)?.source.modifiers ?? []
        #expect(modifiers.map(\.name) == ["brand", "appearance", "density"], "in the resolution order")
        for brand in ["main", "portal"] {
            for density in ["regular", "compact"] {
                for appearance in ["light", "dark"] {
                    var request = TraitRequest()
                    request.appearance = Appearance(name: appearance)
                    request.contexts = TokenModifier.contexts(["brand": brand, "density": density], of: modifiers)
                    let answered = Dictionary(uniqueKeysWithValues: try index.reader.resolveAll(.color, in: chain, for: request)
                        .compactMap { resolution in resolution.variant.color.map { (resolution.variant.name, $0.hex) } })
                    let expected = try Self.resolved(fixtures, ["appearance": appearance, "brand": brand, "density": density])
                    #expect(answered == expected, "\(brand) \(density) \(appearance)")
                    let own = try index.reader.resolveOwnAtContexts(.color, in: chain, for: request).map(\.variant.name)
                    #expect(own == (brand == "portal" ? ["color.accent", "color.background", "color.text"] : []), "\(brand) \(density) \(appearance)")
                }
            }
        }
    }

    @Test("a combination that differs nowhere but in one trait keeps the name whole, and a request of the other trait still answers from it")
    func wholeNames() {
        var light = Variant(kind: .color, name: "bg", traits: VariantTraits())
        light.traits.appearance = Appearance(.light)
        light.color = ColorValue(colorSpace: .sRGB, components: [1, 1, 1, 1])
        var dark = light
        dark.traits.appearance = Appearance(.dark)
        dark.color = ColorValue(colorSpace: .sRGB, components: [0, 0, 0, 1])
        var portalLight = light
        portalLight.contexts = "brand=portal"
        portalLight.color = ColorValue(colorSpace: .sRGB, components: [0.9, 0.9, 0.9, 1])
        var portalDark = dark
        portalDark.contexts = "brand=portal"
        var compactLight = light, compactDark = dark
        (compactLight.contexts, compactDark.contexts) = ("density=compact", "density=compact")
        let kept = TokenVariants.sharingDefaults([light, dark, portalLight, portalDark, compactLight, compactDark])
        #expect(kept.map { "\($0.contexts)/\($0.traits.appearance.luminosity)" } == ["/light", "/dark", "brand=portal/light", "brand=portal/dark"])
        // A context with fewer traits than the defaults is not theirs: kept.
        #expect(TokenVariants.sharingDefaults([light, dark, compactLight]).count == 3)
    }
}
