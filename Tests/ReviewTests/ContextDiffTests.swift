import Foundation
import Review
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
        #expect(!review.isEmpty && review.text.contains("changed: color.accent light (brand=portal) #FF6600FF -> #00AA00FF"), "\(review.text)")
        #expect(review.json.serialized().contains(#""contexts":{"brand=portal":{"#))
    }
}
