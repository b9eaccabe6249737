import Foundation
import Hashing
import Testing
import TestSupport
import ThemeVocabulary
@testable import ThemeIndex

/// Token files as a theme's source in the index: read like a catalog, kept like one when a file
/// breaks, and inherited across themes of both kinds.
@Suite("token sources")
struct TokenSourceTests {
    static let tokens = #"{"color": {"$type": "color", "accent": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0]}}}}"#

    func theme(_ name: String, in index: ThemeIndex) throws -> ThemeInfo? { try index.reader.themes().first { $0.name == name } }

    @Test("a file that is not JSON, or a resolver that cannot be used, keeps the previous generation serving, reported once")
    func brokenFilesKeepThePrevious() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(Self.tokens, to: "ds/base.tokens.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let before = try #require(try theme("ds", in: index))
        #expect(before.sources.map(\.kind) == [.tokens] && before.colorCount == 1)

        fixtures.write(##"{"color": {"accent": "#}"##, to: "ds/base.tokens.json")
        let broken = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(broken.themeErrors.count == 1 && broken.themeErrors[0].message.contains("base.tokens.json is not JSON: line 1, column"),
                "\(broken.themeErrors)")
        let kept = try #require(try theme("ds", in: index))
        #expect(kept.generation == before.generation && kept.colorCount == 1, "the previous generation still serves")
        let owner = try #require(index.reader.tokenOwner(in: [kept]))
        #expect(try index.reader.token(of: owner, resolution: "", path: "color.accent") != nil)

        fixtures.write(#"{"version": "2024.01", "resolutionOrder": []}"#, to: "ds/ds.resolver.json")
        fixtures.write(Self.tokens, to: "ds/base.tokens.json")
        let badResolver = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(badResolver.themeErrors.first?.message.contains("ds.resolver.json#/version: version must be \"2025.10\"") == true, "\(badResolver.themeErrors)")
        #expect(try theme("ds", in: index)?.colorCount == 1)
    }

    @Test("a resolver's $ref that leaves the theme folder is refused, naming it; the theme keeps what it served")
    func referenceLeavingTheFolder() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(Self.tokens, to: "outside.json")
        fixtures.write(Self.tokens, to: "ds/base.tokens.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        fixtures.write(##"{"version": "2025.10", "sets": {"s": {"sources": [{"$ref": "../outside.json"}]}}, "resolutionOrder": [{"$ref": "#/sets/s"}]}"##,
                       to: "ds/ds.resolver.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(report.themeErrors.first?.message.contains("ds.resolver.json#/sets/s/sources/0: $ref \"../outside.json\"") == true
                && report.themeErrors.first?.message.contains("leaves the theme folder") == true, "\(report.themeErrors)")
        #expect(try theme("ds", in: index)?.colorCount == 1)
    }

    @Test("a token theme can be a catalog theme's parent, and the child of one")
    func inheritance() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(Self.tokens, to: "tokens/base.tokens.json")
        fixtures.colorSet("brand", "primary", [(nil, ["red": "0", "green": "0", "blue": "1"], [:])])
        fixtures.write(#"{"parent": "tokens"}"#, to: "brand/theme.json")
        fixtures.colorSet("catalog", "primary", [(nil, ["red": "0", "green": "1", "blue": "0"], [:])])
        fixtures.write(#"{"color": {"$type": "color", "own": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}}}"#, to: "overlay/a.tokens.json")
        fixtures.write(#"{"parent": "catalog"}"#, to: "overlay/theme.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let themes = try index.reader.themes()
        let brand = try ThemeInfo.chain(of: "brand", in: themes)
        #expect(try index.reader.names(.color, in: brand) == ["color.accent", "primary"])
        let overlay = try ThemeInfo.chain(of: "overlay", in: themes)
        #expect(try index.reader.names(.color, in: overlay) == ["color.own", "primary"])
        #expect(try theme("overlay", in: index)?.colorCount == 2, "/themes counts the inherited colour too")
    }
}

@Suite("an edit that refuses tokens")
struct RefusedTokenEditTests {
    static let good = ##"{"color": {"$type": "color", "brand": {"$value": "#3366cc"}, "accent": {"$value": "{color.brand}"}, "ink": {"$value": "#111111"}}}"##
    static let broken = ##"{"color": {"$type": "color", "brand": {"$value": "bluish"}, "accent": {"$value": "{color.brand}"}, "ink": {"$value": "#111111"}}}"##

    @Test("is told once as a theme error naming its root cause; what still resolves serves")
    func toldOnce() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(Self.good, to: "ds/base.tokens.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        #expect(try index.writer.sync(themesDirectory: fixtures.root).themeErrors.isEmpty)
        fixtures.write(Self.broken, to: "ds/base.tokens.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(report.themeErrors.map(\.message) == ["tokens refused: base.tokens.json#/color/brand: color value: must be an object with colorSpace and components, and 1 alias of it"],
                "\(report.themeErrors)")
        let theme = try #require(try index.reader.themes().first)
        #expect(theme.colorCount == 1, "ink still serves")
        fixtures.write(Self.broken + " ", to: "ds/base.tokens.json")
        #expect(try index.writer.sync(themesDirectory: fixtures.root).themeErrors.isEmpty, "the same refusals again are no news")
    }

    @Test("with tokens.onError keep, the last good generation keeps serving")
    func keep() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(Self.good, to: "ds/base.tokens.json")
        fixtures.write(#"{"tokens": {"onError": "keep"}}"#, to: "ds/theme.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let before = try #require(try index.reader.themes().first)
        fixtures.write(Self.broken, to: "ds/base.tokens.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(report.themeErrors.first?.message.contains("the last good generation kept (tokens.onError \"keep\")") == true, "\(report.themeErrors)")
        let after = try #require(try index.reader.themes().first)
        #expect(after.generation == before.generation && after.colorCount == 3, "brand and accent still serve")
        let owner = try #require(index.reader.tokenOwner(in: [after]))
        #expect(try index.reader.token(of: owner, resolution: "", path: "color.accent") != nil)
    }

    @Test("onError and tokens.onError take keep or serve, nothing else",
          arguments: [#"{"tokens": {"onError": "drop"}}"#, #"{"tokens": {"onErr": "keep"}}"#, #"{"tokens": true}"#, #"{"onError": "ignore"}"#, #"{"onError": true}"#])
    func settings(_ text: String) {
        #expect(throws: ThemeSettings.Invalid.self) { try ThemeSettings(json: Data(text.utf8)) }
    }
}

/// theme.json's `onError: "keep"`: an edit of any kind of source that brings new problems leaves
/// its last good read serving, and the theme `stale` rather than `degraded`.
@Suite("onError keep")
struct KeepLastGoodTests {
    static let red = ["red": "1", "green": "0", "blue": "0", "alpha": "1"]

    func theme(_ index: ThemeIndex) throws -> ThemeInfo { try #require(try index.reader.themes().first { $0.name == "brand" }) }

    func hex(_ index: ThemeIndex, _ name: String) throws -> String? {
        try index.reader.resolve(.color, named: name, in: [try theme(index)], for: TraitRequest())?.variant.color.map { String($0.hex.prefix(7)) }
    }

    @Test("a colour file that breaks: with keep, the colour keeps its last good value and the theme is stale; mended, it is ok", arguments: [true, false])
    func brokenColorFile(keeping: Bool) throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        if keeping { fixtures.write(#"{"onError": "keep"}"#, to: "brand/theme.json") }
        fixtures.colorSet("brand", "primary", [(nil, Self.red, [:])])
        fixtures.colorSet("brand", "secondary", [(nil, Self.red, [:])])
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try theme(index).servingStatus == .ok)

        fixtures.write("{\"colors\": [", to: "brand/Theme.xcassets/primary.colorset/Contents.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        let broken = try theme(index)
        if keeping {
            #expect(report.themeErrors.first?.message.contains("the edit is refused, the last good generation kept (onError \"keep\")") == true, "\(report.themeErrors)")
            #expect(try hex(index, "primary") == "#FF0000", "the last good read serves")
            #expect(broken.servingStatus == .stale && broken.sources.contains(where: \.kept))
            #expect(try index.writer.sync(themesDirectory: fixtures.root).themeErrors.isEmpty, "told once")
        } else {
            #expect(try hex(index, "primary") == nil, "served as read: without the broken colour")
            #expect(broken.servingStatus == .degraded)
        }
        #expect(try hex(index, "secondary") == "#FF0000")

        fixtures.colorSet("brand", "primary", [(nil, ["red": "0", "green": "0", "blue": "1", "alpha": "1"], [:])])
        try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try hex(index, "primary") == "#0000FF")
        #expect(try theme(index).servingStatus == .ok && !(try theme(index)).sources.contains(where: \.kept))
    }

    @Test("a first read has nothing to keep: served as read, degraded")
    func firstRead() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(#"{"onError": "keep"}"#, to: "brand/theme.json")
        fixtures.colorSet("brand", "secondary", [(nil, Self.red, [:])])
        fixtures.write("{\"colors\": [", to: "brand/Theme.xcassets/primary.colorset/Contents.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try theme(index).servingStatus == .degraded)
        #expect(try hex(index, "secondary") == "#FF0000")
    }

    @Test("problems a source had before the edit are no reason to keep: the edit serves")
    func oldProblemsServe() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(#"{"onError": "keep"}"#, to: "brand/theme.json")
        fixtures.write("{\"colors\": [", to: "brand/Theme.xcassets/primary.colorset/Contents.json")
        fixtures.colorSet("brand", "secondary", [(nil, Self.red, [:])])
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        fixtures.colorSet("brand", "secondary", [(nil, ["red": "0", "green": "1", "blue": "0", "alpha": "1"], [:])])
        try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try hex(index, "secondary") == "#00FF00", "the same broken file as before does not hold the edit back")
    }
}

@Suite("brands over a shared base")
struct SharedBaseTests {
    /// A base whose semantic layer refers to primitives each brand sets (with defaults of its own),
    /// and two brands that set only primitives.
    static func platform(_ fixtures: ThemeFixtures) {
        fixtures.write(##"""
        {"primitive": {"$type": "color", "brand": {"$value": "#777777"}, "ink": {"$value": "#111111"}},
         "semantic": {"$type": "color", "accent": {"$value": "{primitive.brand}"}, "link": {"$value": "{semantic.accent}"}, "text": {"$value": "{primitive.ink}"}}}
        """##, to: "base/base.tokens.json")
        fixtures.write(##"{"primitive": {"brand": {"$type": "color", "$value": "#ff6600"}}}"##, to: "acme/acme.tokens.json")
        fixtures.write(#"{"parent": "base"}"#, to: "acme/theme.json")
        fixtures.write(##"{"primitive": {"brand": {"$type": "color", "$value": "#0066ff"}}}"##, to: "globex/globex.tokens.json")
        fixtures.write(#"{"parent": "base"}"#, to: "globex/theme.json")
    }

    static func hex(_ index: ThemeIndex, _ theme: String, _ name: String, dark: Bool = false) throws -> String? {
        let chain = try ThemeInfo.chain(of: theme, in: try index.reader.themes())
        var request = TraitRequest()
        if dark { request.appearance = Appearance(.dark) }
        return try index.reader.resolve(.color, named: name, in: chain, for: request)?.variant.color.map { String($0.hex.prefix(7)).lowercased() }
    }

    @Test("the base's aliases resolve to each brand's primitives; the base keeps its own")
    func brandsResolveTheBase() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.platform(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try Self.hex(index, "acme", "semantic.link") == "#ff6600")
        #expect(try Self.hex(index, "globex", "semantic.link") == "#0066ff")
        #expect(try Self.hex(index, "base", "semantic.link") == "#777777")
        #expect(try Self.hex(index, "acme", "semantic.text") == "#111111", "what the brand does not set comes from the base")
        let acme = try #require(try index.reader.themes().first { $0.name == "acme" })
        let owner = try #require(index.reader.tokenOwner(in: [acme]))
        #expect(try index.reader.token(of: owner, resolution: "", path: "semantic.accent")?.contains("primitive.brand") == true, "the alias chain is served")
        #expect(acme.error.isEmpty, "\(acme.error)")
    }

    /// A Tokens Studio base (a `core` set read for aliases only, a Mode group of Light and Dark)
    /// with a DTCG brand and a Tokens Studio brand over it.
    static func studioPlatform(_ fixtures: ThemeFixtures) {
        fixtures.write(#"{"tokenSetOrder": ["core", "light", "dark"]}"#, to: "base/$metadata.json")
        fixtures.write(##"""
        [{"name": "Light", "group": "Mode", "selectedTokenSets": {"core": "source", "light": "enabled"}},
         {"name": "Dark", "group": "Mode", "selectedTokenSets": {"core": "source", "dark": "enabled"}}]
        """##, to: "base/$themes.json")
        fixtures.write(##"{"brand": {"value": "#777777", "type": "color"}, "gray": {"900": {"value": "#111111", "type": "color"}, "50": {"value": "#fafafa", "type": "color"}}}"##, to: "base/core.json")
        fixtures.write(##"{"accent": {"value": "{brand}", "type": "color"}, "text": {"value": "{gray.900}", "type": "color"}}"##, to: "base/light.json")
        fixtures.write(##"{"accent": {"value": "{brand}", "type": "color"}, "text": {"value": "{gray.50}", "type": "color"}}"##, to: "base/dark.json")
        fixtures.write(##"{"brand": {"$type": "color", "$value": "#ff6600"}}"##, to: "acme/acme.tokens.json")
        fixtures.write(#"{"parent": "base"}"#, to: "acme/theme.json")
        fixtures.write(#"{"tokenSetOrder": ["globex"]}"#, to: "globex/$metadata.json")
        fixtures.write(##"{"brand": {"value": "#0066ff", "type": "color"}}"##, to: "globex/globex.json")
        fixtures.write(#"{"parent": "base"}"#, to: "globex/theme.json")
    }

    @Test("a Tokens Studio folder is a parent: its themes are the brand's modifier, its source sets resolve the brand's aliases and answer nothing")
    func studioBase() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.studioPlatform(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try Self.hex(index, "acme", "accent") == "#ff6600", "the base's semantic layer answers the DTCG brand's primitive")
        #expect(try Self.hex(index, "globex", "accent") == "#0066ff", "and the Tokens Studio brand's")
        #expect(try Self.hex(index, "base", "accent") == "#777777")
        #expect(try Self.hex(index, "acme", "text") == "#111111", "what the brand does not set comes from the base")
        #expect(try Self.hex(index, "acme", "gray.900") == nil, "a source set answers no request, in the brand either")
        let themes = try index.reader.themes()
        for name in ["acme", "globex"] {
            let brand = try #require(themes.first { $0.name == name })
            #expect(brand.error.isEmpty, "\(name): \(brand.error)")
            let owner = try #require(index.reader.tokenOwner(in: ThemeInfo.chain(of: name, in: themes)))
            #expect(owner.source.modifiers.map(\.name) == ["Mode"], "the base's group is the brand's modifier")
            let dark = try TokenModifier.requested([("Mode", "Dark")], of: owner.source.modifiers).get()
            let text = try index.reader.token(of: owner, resolution: dark, path: "text")
            #expect(text?.contains("fafafa") == true, "Mode=Dark through the brand: \(text ?? "nil")")
        }
    }

    @Test("an edit of the base re-reads the brands over it, also when only the base is reloaded")
    func baseEdit() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.platform(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        fixtures.write(##"""
        {"primitive": {"$type": "color", "brand": {"$value": "#777777"}, "ink": {"$value": "#111111"}},
         "semantic": {"$type": "color", "accent": {"$value": "{primitive.ink}"}, "link": {"$value": "{semantic.accent}"}, "text": {"$value": "{primitive.ink}"}}}
        """##, to: "base/base.tokens.json")
        let report = try index.writer.sync(themesDirectory: fixtures.root, only: "base")
        #expect(Set(report.changedThemes) == ["base", "acme", "globex"], "\(report.changedThemes)")
        #expect(try Self.hex(index, "acme", "semantic.link") == "#111111")
    }

    @Test("a brand's alias that loops through the base is reported in the brand, with the base's file named")
    func loopAcrossTheChain() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.platform(fixtures)
        fixtures.write(##"{"primitive": {"brand": {"$type": "color", "$value": "{semantic.link}"}}}"##, to: "acme/acme.tokens.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let acme = try #require(try index.reader.themes().first { $0.name == "acme" })
        #expect(acme.error.contains("acme.tokens.json#/primitive/brand: aliases loop"), "\(acme.error)")
        #expect(acme.error.contains("../base/base.tokens.json#/semantic/accent"), "\(acme.error)")
        #expect(try Self.hex(index, "globex", "semantic.link") == "#0066ff", "the other brand is untouched")
    }
}

/// A brand of design tokens over a base of catalogs: the brand's aliases name the base's colours
/// (`{Brand.primary}` for the namespaced colour `Brand/primary`), each at the traits the brand's
/// theme.json gives its contexts.
@Suite("a token theme over a catalog theme")
struct CatalogBaseTests {
    static func platform(_ fixtures: ThemeFixtures, primary: [String: String] = ["red": "0", "green": "0.4", "blue": "0.8"]) {
        fixtures.writeJSON(["properties": ["provides-namespace": true], "info": ["author": "xcode", "version": 1]], to: "base/Theme.xcassets/Brand")
        fixtures.colorSet("base", "Brand/primary", [(nil, primary, [:]), ("dark", ["red": "0.4", "green": "0.6", "blue": "1"], [:])])
        fixtures.colorSet("base", "ink", [(nil, ["red": "0.1", "green": "0.1", "blue": "0.1"], [:])])
        fixtures.write(#"{"parent": "base", "traits": {"scheme": {"light": {"appearance": "light"}, "dark": {"appearance": "dark"}}}}"#, to: "brand/theme.json")
        fixtures.write(##"{"semantic": {"$type": "color", "accent": {"$value": "{Brand.primary}"}, "text": {"$value": "{ink}"}}}"##, to: "brand/semantic.tokens.json")
        fixtures.write(##"""
        {"version": "2025.10", "sets": {"semantic": {"sources": [{"$ref": "semantic.tokens.json"}]}},
         "modifiers": {"scheme": {"contexts": {"light": [], "dark": []}, "default": "light"}},
         "resolutionOrder": [{"$ref": "#/sets/semantic"}, {"$ref": "#/modifiers/scheme"}]}
        """##, to: "brand/brand.resolver.json")
    }

    static func hex(_ index: ThemeIndex, _ name: String, dark: Bool = false) throws -> String? {
        try SharedBaseTests.hex(index, "brand", name, dark: dark)
    }

    @Test("the brand's aliases resolve to the base's colours, in light and in dark")
    func aliasesIntoTheCatalog() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.platform(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let brand = try #require(try index.reader.themes().first { $0.name == "brand" })
        #expect(brand.error.isEmpty, "\(brand.error)")
        #expect(try Self.hex(index, "semantic.accent") == "#0066cc")
        #expect(try Self.hex(index, "semantic.accent", dark: true) == "#6699ff", "the base's dark variant, chosen by the brand's dark context")
        #expect(try Self.hex(index, "semantic.text", dark: true) == "#1a1a1a", "a colour with no dark variant is its any one in dark too")
        #expect(try Self.hex(index, "Brand/primary", dark: true) == "#6699ff", "the base's own colours still answer through the chain")
        let owner = try #require(index.reader.tokenOwner(in: [brand]))
        #expect(try index.reader.token(of: owner, resolution: "scheme=dark", path: "semantic.accent")?.contains("Brand.primary") == true, "the alias is served")
    }

    @Test("an edit of the base's catalog re-reads the brand over it, also when only the base is reloaded")
    func baseEdit() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.platform(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        Self.platform(fixtures, primary: ["red": "1", "green": "0", "blue": "0"])
        // The edit keeps the file's size: its time tells it, set apart from the first write's.
        fixtures.dateLater("base")
        let report = try index.writer.sync(themesDirectory: fixtures.root, only: "base")
        #expect(Set(report.changedThemes) == ["base", "brand"], "\(report.changedThemes)")
        #expect(try Self.hex(index, "semantic.accent") == "#ff0000")
    }

    @Test("a sync stamps the base's files once for every brand over it; a brand's fingerprint is still its JSON files' and the base's size and time, by path, as indexes hold it")
    func fingerprintOverTheBase() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.platform(fixtures)
        // Read: JSON files in folders below. Not read: hidden folders, and a link to a folder.
        fixtures.write(##"{"note": {"$type": "color", "$value": "#123456"}}"##, to: "brand/tokens/extra/more.tokens.json")
        fixtures.write("{}", to: "brand/.drafts/draft.tokens.json")
        try FileManager.default.createSymbolicLink(atPath: fixtures.path("brand/linked"), withDestinationPath: fixtures.path("base/Theme.xcassets/Brand"))
        let brand = try #require(ThemeFolder.discover(in: fixtures.root).first { $0.name == "brand" })
        let source = try #require(brand.sources.first { $0.kind == .tokens })
        let thisSync = FileStamps()
        let fingerprint = ParsedSource.fingerprint(source, stamps: thisSync)

        let catalog = fixtures.path("base/Theme.xcassets")
        let catalogFiles = [catalog] + (FileManager.default.enumerator(atPath: catalog)?.allObjects as? [String] ?? []).map { "\(catalog)/\($0)" }
        let brandFiles = ["theme.json", "semantic.tokens.json", "brand.resolver.json", "tokens/extra/more.tokens.json"].map { fixtures.path("brand/\($0)") }
        var expected = ContentHash()
        for path in (catalogFiles + brandFiles).sorted() {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let modified = try #require(attributes[.modificationDate] as? Date).timeIntervalSince1970
            expected.add("\(path)\0\(try #require(attributes[.size] as? NSNumber).int64Value)\0\(modified)\n")
        }
        #expect(fingerprint == expected.hex)

        fixtures.dateLater("base")
        #expect(ParsedSource.fingerprint(source, stamps: thisSync) == fingerprint, "the base as this sync first found it")
        #expect(ParsedSource.fingerprint(source, stamps: FileStamps()) != fingerprint, "the next sync sees the base's edit")
    }

    @Test("an alias to a colour the base does not have is the brand's problem, naming it")
    func missingColour() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.platform(fixtures)
        fixtures.write(##"{"semantic": {"$type": "color", "accent": {"$value": "{Brand.secondary}"}, "text": {"$value": "{ink}"}}}"##, to: "brand/semantic.tokens.json")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let brand = try #require(try index.reader.themes().first { $0.name == "brand" })
        #expect(brand.error.contains("semantic.tokens.json#/semantic/accent") && brand.error.contains("Brand.secondary"), "\(brand.error)")
        #expect(try Self.hex(index, "semantic.text") == "#1a1a1a", "the rest serves")
    }
}
