import Foundation
import Testing
import TestSupport
import ThemeVocabulary
@testable import ThemeIndex

/// A resolved palette is one query per theme of the chain, the parents' parts kept: it must pick,
/// for every name, what the one-name lookup picks.
@Suite("resolved palettes")
struct PaletteTests {
    /// A grandchild, child and base with names defined at each level, in light, dark and high
    /// contrast, in sRGB and Display P3.
    static func platform(_ f: ThemeFixtures) {
        f.write("{\"parent\": \"middle\"}", to: "brand/theme.json")
        f.write("{\"parent\": \"base\"}", to: "middle/theme.json")
        let p3: [String: Any] = ["display-gamut": "display-P3"]
        for (theme, level) in [("base", "0"), ("middle", "0.5"), ("brand", "1")] {
            f.colorSet(theme, "everywhere", [(nil, ["red": level, "green": "0", "blue": "0"], [:]), ("dark", ["red": level, "green": "1", "blue": "0"], [:])])
            f.colorSet(theme, "\(theme)-only", [(nil, ["red": level, "green": "0", "blue": "1"], [:])])
        }
        // The brand has it in P3 only; the base in sRGB: which wins depends on the gamut asked.
        f.colorSet("brand", "vivid", [(nil, ["red": "1", "green": "0.2", "blue": "0"], p3)])
        f.colorSet("base", "vivid", [(nil, ["red": "0", "green": "0.2", "blue": "0"], [:]), ("high", ["red": "0", "green": "0.3", "blue": "0"], [:])])
        f.colorSet("middle", "dark-only", [("dark", ["red": "0.5", "green": "0.5", "blue": "0.5"], [:])])
        f.colorSet("base", "dark-only", [(nil, ["red": "0", "green": "0.5", "blue": "0.5"], [:])])
    }

    static func indexedPlatform() throws -> (ThemeIndex, ThemeFixtures) {
        let fixtures = ThemeFixtures()
        platform(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        return (index, fixtures)
    }

    static var requests: [TraitRequest] {
        var requests: [TraitRequest] = []
        for appearance in ["light", "dark", "light+high", "dark+high"] {
            for gamut in [Gamut.sRGB, .displayP3] {
                var request = TraitRequest()
                request.appearance = Appearance(name: appearance)
                request.gamut = gamut
                requests.append(request)
            }
        }
        return requests
    }

    @Test("every name of the palette is what the one-name lookup gives, for every appearance and gamut, cold and with the parents kept")
    func agreesWithSingleLookups() throws {
        let (index, fixtures) = try Self.indexedPlatform()
        defer { fixtures.remove() }
        let chain = try ThemeInfo.chain(of: "brand", in: try index.reader.themes())
        #expect(chain.map(\.name) == ["brand", "middle", "base"])
        for round in ["cold", "kept"] {
            for request in Self.requests {
                let resolutions = try index.reader.resolveAll(.color, in: chain, for: request)
                let palette = try index.reader.palette(in: chain, for: request)
                let names = try index.reader.names(.color, in: chain)
                #expect(resolutions.map(\.variant.name) == names, "\(round): one answer a name, by name")
                #expect(palette.map(\.name) == names, "\(round): the palette's answers are the same names")
                for (resolution, color) in zip(resolutions, palette) {
                    let asked = "\(round) \(request.appearance.label) \(request.gamut.name) \(resolution.variant.name)"
                    let single = try #require(try index.reader.resolve(.color, named: resolution.variant.name, in: chain, for: request))
                    #expect(resolution.variant.id == single.variant.id && resolution.theme == single.theme && resolution.fallbacks == single.fallbacks,
                            "\(asked): \(resolution.theme) vs \(single.theme)")
                    #expect(color.members == ColorJSON.shown(single.variant) && color.theme == single.theme && color.fallbacks == single.fallbacks
                            && color.sourcePath == single.source.path && color.localization == single.localization && color.gamut == single.variant.traits.gamut,
                            "\(asked): the palette's \(String(decoding: color.members, as: UTF8.self)) from \(color.theme)")
                }
            }
        }
        #expect(index.reader.parentPalettes.statistics.hits > 0, "the second round used the parents' kept parts")
    }

    @Test("every colour variant keeps the bytes a palette shows of it, as its stored value writes them: the sample themes' catalogs, folders and tokens, a system colour, and the corpus's catalogs when present")
    func keptShownBytes() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(at: repository.appendingPathComponent("themes"), to: URL(fileURLWithPath: fixtures.path("themes")))
        for name in Corpus.catalogNames {
            let theme = fixtures.path("themes/corpus-\(name.dropLast(4))")
            try FileManager.default.createDirectory(atPath: theme, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Corpus.path(name), toPath: theme + "/Assets.car")
        }
        fixtures.writeJSON(["colors": [["idiom": "universal", "color": ["reference": "systemBlueColor"]]], "info": ["author": "xcode", "version": 1]],
                           to: "themes/system/Theme.xcassets/accent.colorset")
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.path("themes"))
        let rows = try index.reader.pool.read { try $0.prepare("SELECT * FROM variant").rows() }
        var colors = 0, tokens = 0, systemColors = 0
        for row in rows {
            let record = try VariantRecord(row: row)
            let shown = try row.blob(VariantRecord.Columns.shown)
            guard record.variant.kind == .color else {
                #expect(shown.isEmpty, "\(record.variant.name): a \(record.variant.kind.rawValue) keeps no colour")
                continue
            }
            colors += 1
            if !record.variant.tokenColor.isEmpty { tokens += 1 }
            if record.variant.systemColor != nil { systemColors += 1 }
            #expect(shown == ColorJSON.shown(record.variant), "\(record.variant.name): \(String(decoding: shown, as: UTF8.self))")
        }
        #expect(colors > 0 && tokens > 0 && systemColors == 1, "catalog colours, converted token colours and a system colour (\(colors), \(tokens), \(systemColors))")
    }

    @Test("a chain's palettes merge in SQLite's byte order, each name once: the nearest theme's, unless only a farther one has the requested gamut")
    func merged() {
        func palette(_ theme: String, depth: Int, _ names: [String], p3: Set<String> = []) -> [Resolution] {
            names.map { name in
                var traits = VariantTraits()
                traits.gamut = p3.contains(name) ? .displayP3 : .sRGB
                return Resolution(variant: Variant(kind: .color, name: name, traits: traits), theme: theme, depth: depth,
                                  source: SourceReference(path: "\(theme)/Assets.car", kind: .car, contentHash: ""), localization: nil,
                                  fallbacks: [], requestedDirection: .neutral)
            }
        }
        let brand = palette("brand", depth: 0, ["Accent", "link", "primary", "\u{E9}clair"], p3: ["primary"])
        let base = palette("base", depth: 1, ["Accent", "banner", "primary", "surface", "zebra"])
        var sRGB = TraitRequest(), p3 = TraitRequest()
        (sRGB.gamut, p3.gamut) = (.sRGB, .displayP3)
        let merged = IndexReader.merged([brand, base], for: p3)
        #expect(merged.map(\.variant.name) == ["Accent", "banner", "link", "primary", "surface", "zebra", "\u{E9}clair"])
        #expect(merged.map(\.variant.name) == Array(Set((brand + base).map(\.variant.name))).sorted { IndexReader.bytewiseLess($0, $1) })
        #expect(merged.map(\.theme) == ["brand", "base", "brand", "brand", "base", "base", "brand"])
        // An sRGB request: the brand's primary is for P3 only, the base's sRGB one answers.
        #expect(IndexReader.merged([brand, base], for: sRGB).map(\.theme) == ["brand", "base", "brand", "base", "base", "base", "brand"])
        #expect(IndexReader.merged([[], base, []], for: sRGB).map(\.variant.name) == base.map(\.variant.name))
        #expect(IndexReader.merged([[Resolution]](), for: sRGB).isEmpty)
        #expect(IndexReader.bytewiseLess("a", "ab") && !IndexReader.bytewiseLess("ab", "a") && !IndexReader.bytewiseLess("", ""))
    }

    @Test("a parent changed on disk is read again: its kept part belongs to its old generation")
    func parentChanges() throws {
        let (index, fixtures) = try Self.indexedPlatform()
        defer { fixtures.remove() }
        /// The blue of `base-only`, which only the base defines.
        func baseOnly() throws -> Double? {
            let chain = try ThemeInfo.chain(of: "brand", in: try index.reader.themes())
            return try index.reader.resolveAll(.color, in: chain, for: TraitRequest()).first { $0.variant.name == "base-only" }?.variant.color?.components.dropFirst(2).first
        }
        /// The same colour as the kept palette's part of the base writes it.
        func keptBaseOnly() throws -> String? {
            let chain = try ThemeInfo.chain(of: "brand", in: try index.reader.themes())
            return try index.reader.palette(in: chain, for: TraitRequest()).first { $0.name == "base-only" }.map { String(decoding: $0.members, as: UTF8.self) }
        }
        #expect(try baseOnly() == 1)
        #expect(try keptBaseOnly()?.contains("[0,0,1,1]") == true)
        fixtures.colorSet("base", "base-only", [(nil, ["red": "0", "green": "0", "blue": "0.25"], [:])])
        let report = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(report.reindexedSources.count == 1)
        #expect(try baseOnly() == 0.25)
        #expect(try keptBaseOnly()?.contains("[0,0,0.25,1]") == true, "the palette's kept part of the base is of its new generation")
    }
}
