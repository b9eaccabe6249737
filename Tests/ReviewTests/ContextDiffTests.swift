import Foundation
@testable import Review
import ThemeIndex
import Testing
import TestSupport

/// A token theme's colours at its contexts chosen by name are compared too: a change that only
/// one brand sees is a change.
@Suite("diffs at contexts chosen by name")
struct ContextDiffTests {
    static func brands(_ fixtures: ThemeFixtures, _ theme: String, portal: String) {
        fixtures.write(##"{"color": {"$type": "color", "accent": {"$value": "#0066ff"}}}"##, to: "\(theme)/base.tokens.json")
        fixtures.write(##"{"color": {"accent": {"$type": "color", "$value": "\##(portal)"}}}"##, to: "\(theme)/portal.tokens.json")
        fixtures.write(##"""
        {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
         "modifiers": {"brand": {"contexts": {"main": [], "portal": [{"$ref": "portal.tokens.json"}]}, "default": "main"}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/brand"}]}
        """##, to: "\(theme)/ds.resolver.json")
    }

    @Test("an edit that changes only brand=portal's accent is found, named by its context; the defaults are unchanged")
    func portalOnly() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        Self.brands(fixtures, "before/ds", portal: "#ff6600")
        Self.brands(fixtures, "after/ds", portal: "#00aa00")
        let review = ThemeReview(from: try ThemeSnapshot(reading: fixtures.path("before/ds")), to: try ThemeSnapshot(reading: fixtures.path("after/ds")))
        #expect(review.colors.isEmpty, "at the defaults nothing changed")
        #expect(review.colorsByContexts.map(\.contexts) == ["brand=portal"])
        #expect(review.colorsByContexts.first?.diff.changed.map(\.name) == ["color.accent"])
        #expect(!review.isEmpty && review.text.contains("changed: color.accent every mode (brand=portal) #FF6600FF -> #00AA00FF\n"), "\(review.text)")
        #expect(try review.json.serialized().contains(#""contexts":{"brand=portal":{"#))
    }

    @Test("a change seen only where two modifiers are both away from their defaults is found at that combination")
    func combinationOnly() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        // At density=compact the accent takes the brand's colour, which only brand=portal changes:
        // the portal colour that moves shows as the accent only at both.
        for (theme, portal) in [("before/ds", "#ff6600"), ("after/ds", "#00aa00")] {
            fixtures.write(##"{"color": {"$type": "color", "accent": {"$value": "#0066ff"}, "brand": {"$value": "#111111"}}}"##, to: "\(theme)/base.tokens.json")
            fixtures.write(##"{"color": {"brand": {"$type": "color", "$value": "\##(portal)"}}}"##, to: "\(theme)/portal.tokens.json")
            fixtures.write(##"{"color": {"accent": {"$type": "color", "$value": "{color.brand}"}}}"##, to: "\(theme)/compact.tokens.json")
            fixtures.write(##"""
            {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
             "modifiers": {"brand": {"contexts": {"main": [], "portal": [{"$ref": "portal.tokens.json"}]}, "default": "main"},
                           "density": {"contexts": {"regular": [], "compact": [{"$ref": "compact.tokens.json"}]}, "default": "regular"}},
             "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/brand"}, {"$ref": "#/modifiers/density"}]}
            """##, to: "\(theme)/ds.resolver.json")
        }
        let review = ThemeReview(from: try ThemeSnapshot(reading: fixtures.path("before/ds")), to: try ThemeSnapshot(reading: fixtures.path("after/ds")))
        #expect(review.colorsByContexts.map(\.contexts) == ["brand=portal", "brand=portal&density=compact"])
        let both = review.colorsByContexts.last?.diff.changed.map(\.name) ?? []
        #expect(both.contains("color.accent") && review.colorsByContexts.first?.diff.changed.map(\.name) == ["color.brand"], "\(review.text)")
        #expect(review.text.contains("changed: color.accent every mode (brand=portal&density=compact) #FF6600FF -> #00AA00FF\n"), "\(review.text)")
        #expect(!review.contextsCut)
    }

    @Test("combinations come fewest changed modifiers first, and stop at the limit, saying so")
    func combinationOrder() {
        let modifiers = ["a", "b", "c"].map { TokenModifier(name: $0, contexts: ["0", "1", "2"], defaultContext: "0", mapsToTraits: false) }
        let all = ThemeSnapshot.combinations(of: modifiers, limit: 100)
        #expect(all.choices.count == 26 && !all.cut, "2 x 3 alone, 4 x 3 pairs, 8 all three")
        #expect(all.choices.prefix(6).allSatisfy { $0.count == 1 } && all.choices.suffix(8).allSatisfy { $0.count == 3 })
        #expect(Set(all.choices.map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&") }).count == 26)
        let first = ThemeSnapshot.combinations(of: modifiers, limit: 10)
        #expect(first.choices == Array(all.choices.prefix(10)) && first.cut)
    }
}
