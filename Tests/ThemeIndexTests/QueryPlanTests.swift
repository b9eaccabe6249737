import Foundation
import SQLite
import Testing
import TestSupport
import ThemeVocabulary
@testable import ThemeIndex

/// Lookups must not grow with the index (a platform has a theme per brand): every query a request
/// makes finds its rows through an index, never by scanning the variant or string tables.
@Suite("query plans")
struct QueryPlanTests {
    /// A base theme and `brands` children, each with colours, an image and strings of its own.
    static func platform(brands: Int) throws -> (ThemeIndex, ThemeFixtures) {
        let f = ThemeFixtures()
        f.colorSet("base", "primary", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        f.colorSet("base", "surface", [(nil, ["red": "1", "green": "1", "blue": "1"], [:])])
        f.imageSet("base", "logo", [["scale": "1x"], ["scale": "2x"]])
        for brand in 0..<brands {
            f.write("{\"parent\": \"base\"}", to: "brand\(brand)/theme.json")
            for name in ["primary", "accent", "link", "banner\(brand)"] {
                f.colorSet("brand\(brand)", name, [(nil, ["red": "0.\(brand % 10)", "green": "0", "blue": "0"], [:]),
                                                   ("dark", ["red": "0", "green": "0.\(brand % 10)", "blue": "0"], [:])])
            }
            f.imageSet("brand\(brand)", "logo", [["scale": "2x"], ["scale": "3x"]])
            f.write("\"hello\" = \"Hello \(brand)\";\n", to: "brand\(brand)/Brand.bundle/en.lproj/Localizable.strings")
        }
        let index = try ThemeIndex(databasePath: f.path("index.sqlite"))
        try index.writer.sync(themesDirectory: f.root)
        return (index, f)
    }

    /// What serving one brand's requests costs in full-scan steps: a colour, an image, a palette
    /// (its names, then each resolved), a theme's listing and stored content, a string and a table.
    static func fullScanSteps(serving brand: String, _ index: ThemeIndex) throws -> Int {
        let reader = index.reader
        let themes = try reader.themes()
        let chain = try ThemeInfo.chain(of: brand, in: themes)
        let before = reader.fullScanSteps
        var request = TraitRequest()
        request.scale = 2
        #expect(try reader.resolve(.color, named: "primary", in: chain, for: request) != nil)
        #expect(try reader.resolveImage(named: "logo", in: chain, for: request) != nil)
        for name in try reader.names(.color, in: chain) { _ = try reader.resolve(.color, named: name, in: chain, for: request) }
        #expect(try reader.resolveAll(.color, in: chain, for: request).map(\.variant.name) == reader.names(.color, in: chain))
        _ = try reader.variants(.color, in: chain[0])
        _ = try reader.storedContent(of: chain[0])
        _ = try reader.localizedString("hello", table: "Localizable", in: chain, languages: ["en"])
        _ = try reader.localizedTable("Localizable", in: chain, languages: ["en"])
        _ = try reader.stringTables(in: chain)
        return reader.fullScanSteps - before
    }

    @Test("a brand's requests step through as many full-scan rows with 80 brands as with 4: none grows with the platform")
    func doesNotGrow() throws {
        let (small, smallFixtures) = try Self.platform(brands: 4)
        defer { smallFixtures.remove() }
        let (large, largeFixtures) = try Self.platform(brands: 80)
        defer { largeFixtures.remove() }
        let few = try Self.fullScanSteps(serving: "brand2", small)
        let many = try Self.fullScanSteps(serving: "brand2", large)
        #expect(many == few, "full-scan steps: \(few) with 4 brands, \(many) with 80")
    }

    @Test("the palette in one query picks, for every name, what that name's own lookup picks", arguments: ["light", "dark", "any"])
    func paletteMatchesLookups(appearance: String) throws {
        let (index, fixtures) = try Self.platform(brands: 3)
        defer { fixtures.remove() }
        let reader = index.reader
        let chain = try ThemeInfo.chain(of: "brand1", in: try reader.themes())
        var request = TraitRequest()
        request.appearance = Appearance(name: appearance)
        let palette = try reader.resolveAll(.color, in: chain, for: request)
        #expect(palette.count == 5, "primary, accent, link and banner1 of the brand; surface of the base")
        for resolution in palette {
            let alone = try #require(try reader.resolve(.color, named: resolution.variant.name, in: chain, for: request))
            #expect(alone.variant.sortKey == resolution.variant.sortKey && alone.theme == resolution.theme, "\(resolution.variant.name)")
            #expect(alone.fallbacks == resolution.fallbacks)
        }
    }

    @Test("EXPLAIN QUERY PLAN: a lookup, a palette, a theme's listing and counts, its string tables: all searched by an index")
    func plans() throws {
        let (index, fixtures) = try Self.platform(brands: 3)
        defer { fixtures.remove() }
        let chain = try ThemeInfo.chain(of: "brand1", in: try index.reader.themes())
        var request = TraitRequest()
        request.languages = ["en"]
        let lookup = LookupQuery(kind: .color, name: "primary", chain: chain, request: request,
                                 localization: LocalizationPlan(chain: chain, languages: request.languages))
        let palette = LookupQuery(kind: .color, name: nil, chain: chain, request: request,
                                  localization: LocalizationPlan(chain: chain, languages: request.languages))
        let listing = "SELECT * FROM variant WHERE theme_id = ?1 AND kind = ?2"
        let counts = "SELECT kind, COUNT(DISTINCT name) AS n FROM variant WHERE theme_id = ?1 GROUP BY kind"
        let tables = "SELECT DISTINCT tbl FROM string WHERE theme_id IN (?1, ?2) ORDER BY tbl"
        for (sql, values) in [(lookup.sql, lookup.parameters), (palette.sql, palette.parameters), (listing, [.integer(chain[0].id), .text("color")]),
                              (counts, [.integer(chain[0].id)]), (tables, [.integer(chain[0].id), .integer(chain[1].id)])] as [(String, [SQLiteValue])] {
            let plan = try index.reader.queryPlan(sql, values)
            // A SCAN of these tables reads all of it (or all of an index: "USING COVERING INDEX");
            // only SEARCH finds rows by key.
            let scans = plan.filter { $0.hasPrefix("SCAN v") || $0.hasPrefix("SCAN variant") || $0.hasPrefix("SCAN s") || $0.hasPrefix("SCAN string") }
            #expect(scans.isEmpty, "\(plan.joined(separator: " | "))\n\(sql)")
        }
    }
}
