import Foundation
import Testing
import TestSupport
import ThemeVocabulary
@testable import ThemeIndex

/// `themed check` reads a theme without an index (`ThemeProblems`): what it says must be, line for
/// line, what a sync of the same folder says of the theme.
@Suite("a theme's problems read without an index")
struct ThemeProblemsTests {
    /// A folder of themes with every kind of problem a sync reports.
    static func troubled(_ f: ThemeFixtures) {
        // Design tokens: an alias to nothing (error), a property the Format module lacks (error),
        // a colour in a converter's draft form (warning), and a resolver's combinations.
        f.write(##"""
        {"color": {"$type": "color", "grey": {"900": {"$value": "#111111"}},
                   "text": {"$value": "{color.gray.900}"}, "odd": {"$value": "#222222", "$unknown": 1},
                   "draft": {"$value": "#333"}}}
        """##, to: "tokens/base.tokens.json")
        f.write(##"{"color": {"text": {"$value": "{color.grey.900}"}}}"##, to: "tokens/fixed.tokens.json")
        f.write(##"""
        {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
         "modifiers": {"mode": {"contexts": {"broken": [], "fixed": [{"$ref": "fixed.tokens.json"}]}, "default": "broken"}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/mode"}]}
        """##, to: "tokens/ds.resolver.json")
        // A token file that is not JSON: the source cannot be read at all.
        f.write("{\"color\": ", to: "unreadable/broken.tokens.json")
        // A parent that is not there, and two themes that name each other.
        f.write(#"{"parent": "nowhere"}"#, to: "orphan/theme.json")
        f.colorSet("orphan", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        f.write(#"{"parent": "loop2"}"#, to: "loop1/theme.json")
        f.write(#"{"parent": "loop1"}"#, to: "loop2/theme.json")
        f.colorSet("loop1", "accent", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        f.colorSet("loop2", "accent", [(nil, ["red": "0", "green": "1", "blue": "0"], [:])])
        // A colour set whose component is no number, and a catalog that is not one.
        f.colorSet("assets", "broken", [(nil, ["red": "lots", "green": "0", "blue": "0"], [:])])
        f.colorSet("assets", "fine", [(nil, ["red": "0", "green": "0", "blue": "1"], [:])])
        f.write(Array("not a catalog".utf8), to: "garbage.car")
        // A child of the token theme: its parent's problems are the parent's, not its own.
        f.write(#"{"parent": "tokens"}"#, to: "child/theme.json")
        f.write(##"{"color": {"$type": "color", "own": {"$value": "{color.grey.900}"}}}"##, to: "child/child.tokens.json")
    }

    @Test("for every theme, the errors and warnings are a sync's, line for line")
    func sameAsSync() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.troubled(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: fixtures.root)
        let themes = try index.reader.themes()
        #expect(Set(themes.map(\.name)) == ["tokens", "unreadable", "orphan", "loop1", "loop2", "assets", "garbage", "child"])
        for theme in themes {
            let read = try #require(ThemeProblems(theme: theme.name, themesDirectory: fixtures.root), "\(theme.name)")
            #expect(read.errors == theme.error.split(separator: "\n").map(String.init), "\(theme.name)")
            #expect(read.warnings == theme.warning.split(separator: "\n").map(String.init), "\(theme.name)")
        }
        // Each theme above has something to say, or the comparison proves little.
        for name in ["tokens", "unreadable", "orphan", "loop1", "assets", "garbage"] {
            #expect(!(themes.first { $0.name == name }?.error.isEmpty ?? true), "\(name) has an error")
        }
        #expect(themes.first { $0.name == "tokens" }?.warning.contains("draft") ?? false)
        #expect(ThemeProblems(theme: "absent", themesDirectory: fixtures.root) == nil)
    }
}
