import Foundation
@testable import Review
import ThemeIndex
import Testing
import TestSupport

/// `ThemeSnapshot.pair` indexes only what differs between a theme's two versions (and the colours
/// of its contrast pairs). Each shape of change here is reviewed both ways, as a pair and as two
/// whole readings: the reviews must say the same, line for line, and the pair must hold less.
@Suite("a review read as a pair says what two whole readings say")
struct ReviewPairTests {
    /// The review of `before` -> `after` read both ways; expects them equal in every format.
    /// Returns the pair's snapshots, for what they hold.
    @discardableResult
    static func reviewedAlike(_ fixtures: ThemeFixtures, _ before: String = "before/ds", _ after: String = "after/ds",
                              sourceLocation: SourceLocation = #_sourceLocation) throws -> (review: ThemeReview, before: ThemeSnapshot, after: ThemeSnapshot) {
        let whole = ThemeReview(from: try ThemeSnapshot(reading: fixtures.path(before)), to: try ThemeSnapshot(reading: fixtures.path(after)))
        let pair = try ThemeSnapshot.pair(reading: fixtures.path(before), fixtures.path(after))
        let review = ThemeReview(from: pair.before, to: pair.after)
        #expect(review.text == whole.text, sourceLocation: sourceLocation)
        #expect(try review.json.serialized(pretty: true) == whole.json.serialized(pretty: true), sourceLocation: sourceLocation)
        #expect(review.markdown(from: "before", to: "after") == whole.markdown(from: "before", to: "after"), sourceLocation: sourceLocation)
        return (review, pair.before, pair.after)
    }

    /// A design system in the shape of a large one, small: primitives, semantic colours per
    /// appearance aliasing them, a dimension, brands and densities chosen by name, appearance by
    /// traits, and a contrast pair.
    static func system(_ fixtures: ThemeFixtures, _ theme: String, blue: String = "#0055cc", space: String = "8px", portalGrey: String = "#777777",
                       extraToken: Bool = false, darkMapped: String = "dark", layout: String = "") {
        fixtures.write(##"""
        {"color": {"$type": "color", "blue": {"$value": "\##(blue)"}, "grey": {"$value": "#888888"}, "white": {"$value": "#ffffff"},
                   "black": {"$value": "#000000"}\##(extraToken ? ##", "teal": {"$value": "#00aaaa"}"## : "")},
         "space": {"$type": "dimension", "md": {"$value": "\##(space)"}, "lg": {"$value": "16px"}}}\##(layout)
        """##, to: "\(theme)/base.tokens.json")
        fixtures.write(##"{"semantic": {"$type": "color", "link": {"$value": "{color.blue}"}, "text": {"$value": "{color.black}"}, "surface": {"$value": "{color.white}"}, "muted": {"$value": "{color.grey}"}}}"##,
                       to: "\(theme)/light.tokens.json")
        fixtures.write(##"{"semantic": {"$type": "color", "link": {"$value": "{color.blue}"}, "text": {"$value": "{color.white}"}, "surface": {"$value": "{color.black}"}, "muted": {"$value": "{color.grey}"}}}"##,
                       to: "\(theme)/dark.tokens.json")
        fixtures.write(##"{"color": {"grey": {"$type": "color", "$value": "\##(portalGrey)"}}}"##, to: "\(theme)/portal.tokens.json")
        fixtures.write(##"{"space": {"md": {"$type": "dimension", "$value": "4px"}}}"##, to: "\(theme)/compact.tokens.json")
        fixtures.write(##"""
        {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
         "modifiers": {"appearance": {"contexts": {"light": [{"$ref": "light.tokens.json"}], "dark": [{"$ref": "dark.tokens.json"}]}, "default": "light"},
                       "brand": {"contexts": {"main": [], "portal": [{"$ref": "portal.tokens.json"}]}, "default": "main"},
                       "density": {"contexts": {"regular": [], "compact": [{"$ref": "compact.tokens.json"}]}, "default": "regular"}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/appearance"}, {"$ref": "#/modifiers/brand"}, {"$ref": "#/modifiers/density"}]}
        """##, to: "\(theme)/ds.resolver.json")
        fixtures.write(##"""
        {"traits": {"appearance": {"light": {"appearance": "light"}, "\##(darkMapped)": {"appearance": "dark"}}},
         "contrast": {"pairs": [{"foreground": "semantic.link", "background": "semantic.surface", "minimum": 3}]}}
        """##, to: "\(theme)/theme.json")
    }

    @Test("a primitive's edit: its aliases change, the contrast pair's ratio moves with its background read though unchanged; the rest is not indexed")
    func primitiveEdit() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.system(fixtures, "before/ds")
        Self.system(fixtures, "after/ds", blue: "#3377ee")
        let (review, before, after) = try Self.reviewedAlike(fixtures)
        #expect(review.text.contains("reaches semantic.link"), "\(review.text)")
        #expect(!review.contrast.changes.isEmpty, "the link over the surface moved")
        let names = Set(after.colors.rows.map(\.name))
        #expect(names == ["color.blue", "semantic.link", "semantic.surface"], "the edit, its alias and the pair's other colour: \(names.sorted())")
        #expect(Set(before.colors.rows.map(\.name)) == names)
        #expect(after.tokens.rows.isEmpty, "no dimension changed, none is read")
    }

    @Test("a dimension's edit, a token added, and a brand's colour changed are each found")
    func otherTokens() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.system(fixtures, "before/ds")
        Self.system(fixtures, "after/ds", space: "10px", portalGrey: "#666666", extraToken: true)
        let (review, _, after) = try Self.reviewedAlike(fixtures)
        #expect(review.text.contains("token: space.md"), "\(review.text)")
        #expect(review.text.contains("added: color.teal"), "\(review.text)")
        #expect(review.colorsByContexts.contains { $0.contexts.contains("brand=portal") }, "\(review.text)")
        #expect(after.tokens.rows.map(\.path) == ["space.md"])
    }

    @Test("an edit that moves tokens in their file but changes no value is no change, and nothing is indexed")
    func layoutOnly() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.system(fixtures, "before/ds")
        Self.system(fixtures, "after/ds", layout: "\n\n\n")
        let (review, _, after) = try Self.reviewedAlike(fixtures)
        #expect(review.isEmpty, "\(review.text)")
        #expect(Set(after.colors.rows.map(\.name)) == ["semantic.link", "semantic.surface"], "only the contrast pair's colours")
    }

    @Test("theme.json mapping a context to other traits changes every colour made from it")
    func traitsRemapped() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.system(fixtures, "before/ds")
        Self.system(fixtures, "after/ds", darkMapped: "night")
        let (review, _, _) = try Self.reviewedAlike(fixtures)
        #expect(!review.isEmpty)
    }

    @Test("a parent's colour under a token child: the child's review reads the parent's edit")
    func catalogParent() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        for (side, red) in [("before", "0.2"), ("after", "0.9")] {
            fixtures.colorSet("\(side)/base", "brand", [(nil, ["red": red, "green": "0", "blue": "0", "alpha": "1"], [:])])
            fixtures.colorSet("\(side)/base", "steady", [(nil, ["red": "0", "green": "0", "blue": "1", "alpha": "1"], [:])])
            fixtures.write(#"{"parent": "base"}"#, to: "\(side)/ds/theme.json")
            fixtures.write(##"{"color": {"$type": "color", "own": {"$value": "#123456"}}}"##, to: "\(side)/ds/ds.tokens.json")
        }
        let (review, _, after) = try Self.reviewedAlike(fixtures)
        #expect(review.text.contains("brand"), "\(review.text)")
        #expect(!after.colors.rows.map(\.name).contains("steady"))
    }

    @Test("a catalog folder: a colour, an image and a string edited, one image unchanged")
    func assetsAndStrings() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        for (side, green) in [("before", "0.5"), ("after", "0.6")] {
            fixtures.colorSet("\(side)/app", "accent", [(nil, ["red": "0", "green": green, "blue": "0", "alpha": "1"], [:]),
                                                       ("dark", ["red": "0", "green": "0.1", "blue": "0", "alpha": "1"], [:])])
            fixtures.imageSet("\(side)/app", "logo", [["scale": "2x"]])
            fixtures.imageSet("\(side)/app", "badge", [["scale": "2x"]])
            fixtures.write("\"hello\" = \"Hello\";\n\"bye\" = \"\(side == "before" ? "Bye" : "Goodbye")\";\n", to: "\(side)/app/App.bundle/en.lproj/Localizable.strings")
        }
        fixtures.write([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("a new logo".utf8), to: "after/app/Theme.xcassets/logo.imageset/logo-0.png")
        let (review, _, after) = try Self.reviewedAlike(fixtures, "before/app", "after/app")
        #expect(review.text.contains("accent") && review.text.contains("bye") && review.text.contains("logo"), "\(review.text)")
        #expect(!review.text.contains("badge") && !review.text.contains("hello"), "\(review.text)")
        #expect(after.images.keys.map(\.name) == ["logo"])
        #expect(after.strings.values.values.flatMap(\.keys).allSatisfy { $0.hasSuffix("bye") }, "\(after.strings.values.values.flatMap(\.keys))")
    }

    @Test("Material roles: a seed's edit moves every role and the pairs the roles make")
    func materialRoles() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(##"{"material": {"seed": "#6750a4"}}"##, to: "before/m3/theme.json")
        fixtures.write(##"{"material": {"seed": "#006a6a"}}"##, to: "after/m3/theme.json")
        let (review, _, _) = try Self.reviewedAlike(fixtures, "before/m3", "after/m3")
        #expect(!review.contrast.changes.isEmpty, "\(review.text)")
    }

    @Test("real catalogs: one replaced by another is reviewed alike; one unchanged is no change and nothing of it is indexed", .needsCorpus)
    func catalogs() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let (first, second) = ("ghuntley__ServiceNSW.app__Assets.car", "radzo73__Mojave-Appearances__AccessibilitySystemAppearance.car")
        for (side, catalog) in [("before", first), ("after", second), ("same", first)] {
            fixtures.makeDirectory(side)
            try FileManager.default.createSymbolicLink(atPath: fixtures.path("\(side)/app.car"), withDestinationPath: Corpus.path(catalog))
        }
        let (review, _, _) = try Self.reviewedAlike(fixtures, "before/app.car", "after/app.car")
        #expect(!review.isEmpty)
        let (unchanged, _, after) = try Self.reviewedAlike(fixtures, "before/app.car", "same/app.car")
        #expect(unchanged.isEmpty && after.colors.rows.isEmpty && after.images.isEmpty)
    }

    @Test("a token file that stops being JSON: the source reads as a first sync reads it on both readings")
    func brokenSource() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.system(fixtures, "before/ds")
        Self.system(fixtures, "after/ds")
        fixtures.write("{\"color\": ", to: "after/ds/portal.tokens.json")
        let (review, _, after) = try Self.reviewedAlike(fixtures)
        #expect(!after.info.error.isEmpty && !review.isEmpty)
    }

    @Test("a theme that cannot be read is said, the first side first")
    func unreadable() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.system(fixtures, "after/ds")
        #expect(throws: ThemeSnapshot.Unreadable.self) { try ThemeSnapshot.pair(reading: fixtures.path("before/ds"), fixtures.path("after/ds")) }
    }
}
