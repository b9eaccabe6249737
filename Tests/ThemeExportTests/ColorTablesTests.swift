import Foundation
import Testing
@testable import ThemeExport
import TestSupport
import ThemeIndex
import ThemeVocabulary

/// The tables of every combination, read with the defaults shared, are the tables read one by one.
@Suite("colour tables of every combination")
struct ColorTablesTests {
    /// A token theme `ds` with brands main and portal and densities regular and compact (portal
    /// changes two colours, compact changes them back to the base's where portal set them), and a
    /// child `app` of catalog colours over it that sets the accent itself: at brand=portal the
    /// child's own accent must still win over its parent's portal accent.
    static func themes(_ fixtures: ThemeFixtures) {
        fixtures.write(##"{"color": {"$type": "color", "accent": {"$value": "#0066ff"}, "line": {"$value": "#cccccc"}, "text": {"$value": "{color.accent}"}}}"##,
                       to: "ds/base.tokens.json")
        fixtures.write(##"{"color": {"accent": {"$value": "#ff6600"}, "line": {"$value": "#999999"}}}"##, to: "ds/portal.tokens.json")
        fixtures.write(##"{"color": {"line": {"$value": "#cccccc"}}}"##, to: "ds/compact.tokens.json")
        fixtures.write(##"""
        {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
         "modifiers": {"brand": {"contexts": {"main": [], "portal": [{"$ref": "portal.tokens.json"}]}, "default": "main"},
                       "density": {"contexts": {"regular": [], "compact": [{"$ref": "compact.tokens.json"}]}, "default": "regular"}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/brand"}, {"$ref": "#/modifiers/density"}]}
        """##, to: "ds/ds.resolver.json")
        fixtures.write(#"{"parent": "ds"}"#, to: "app/theme.json")
        fixtures.colorSet("app", "color.accent", [(nil, ["red": "0", "green": "0.5", "blue": "0"], [:]), ("dark", ["red": "0", "green": "0.2", "blue": "0"], [:])])
    }

    static func rendered(_ table: ColorTable?) -> [String] {
        (table?.rows ?? []).map { row in
            row.name + " " + ColorMode.all.map { mode in row.values[mode].map { "\($0.value.hex)@\($0.theme)" } ?? "-" }.joined(separator: " ")
        }
    }

    @Test("every combination's table, for the token theme and for a child over it, equals the one read alone")
    func sharedEqualsAlone() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.themes(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let combinations = ["", "brand=portal", "density=compact", "brand=portal&density=compact"]
        for theme in ["ds", "app"] {
            let chain = try ThemeInfo.chain(of: theme, in: try index.reader.themes())
            let tables = try ColorTable.tables(reading: index.reader, chain: chain, contexts: combinations)
            #expect(tables.keys.sorted() == combinations.sorted())
            for contexts in combinations {
                let alone = try ColorTable(reading: index.reader, chain: chain, contexts: contexts)
                #expect(Self.rendered(tables[contexts]) == Self.rendered(alone), "\(theme) at \(contexts)")
                #expect(tables[contexts]?.rows.count == 3)
            }
            let accent = Self.rendered(tables["brand=portal"]).first { $0.hasPrefix("color.accent ") } ?? ""
            #expect(accent.contains(theme == "app" ? "#008000FF@app" : "#FF6600FF@ds"), "\(theme): \(accent)")
        }
    }
}
