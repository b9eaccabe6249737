import Foundation
import Review
import Testing
import TestSupport

/// A change as a reviewer reads it: once, where it happened, with the aliases it reaches and
/// what it broke said as errors.
@Suite("a review grouped by cause")
struct ColorCausesTests {
    static func review(_ before: String, _ after: String) throws -> ThemeReview {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(before, to: "before/ds/ds.tokens.json")
        fixtures.write(after, to: "after/ds/ds.tokens.json")
        return ThemeReview(from: try ThemeSnapshot(reading: fixtures.path("before/ds")), to: try ThemeSnapshot(reading: fixtures.path("after/ds")))
    }

    @Test("a primitive's edit is one change in every mode that reaches its aliases; an alias newly broken is an error, not a removal")
    func primitiveAndAliases() throws {
        let before = ##"{"color": {"$type": "color", "gray": {"900": {"$value": "#111111"}}, "brand": {"$value": "#0066ff"}, "accent": {"$value": "{color.brand}"}, "link": {"$value": "{color.accent}"}, "text": {"$value": "{color.gray.900}"}}}"##
        let after = before.replacingOccurrences(of: "#0066ff", with: "#ff6600").replacingOccurrences(of: "{color.gray.900}", with: "{color.grey.900}")
        let review = try Self.review(before, after)
        #expect(review.causes.changes.map(\.name) == ["color.brand"])
        #expect(review.causes.changes.first?.reaches == ["color.accent", "color.link"], "through the chain")
        #expect(review.causes.removed.isEmpty && review.causes.broken.map(\.name) == ["color.text"])
        #expect(review.text.hasPrefix("broken: color.text: ds.tokens.json#/color/text: alias {color.grey.900} names no token; did you mean {color.gray.900}?\n"
            + "changed: color.brand every mode #0066FFFF -> #FF6600FF; reaches color.accent, color.link\n"), "\(review.text)")
        let markdown = review.markdown(from: "main", to: "pr")
        #expect(markdown.hasPrefix("**main → pr**: 0 added, 0 removed, 1 changed colour (and 2 aliases that follow), **1 newly broken**\n"), "\(markdown)")
        #expect(markdown.contains("| `color.brand` | every mode | `#0066FFFF` | `#FF6600FF` | `color.accent`, `color.link` |"))
    }

    @Test("past 25 changes the rest is folded; past GitHub's comment limit the comment is cut at a line, its fold closed, with a note")
    func longReviews() throws {
        func tokens(_ hex: String, count: Int) -> String {
            "{\"c\": {\"$type\": \"color\", " + (0..<count).map { "\"n\($0)\": {\"$value\": \"\(hex)\", \"$description\": \"\(String(repeating: "x", count: 10))\"}" }.joined(separator: ", ") + "}}"
        }
        let folded = try Self.review(tokens("#000000", count: 30), tokens("#ffffff", count: 30)).markdown(from: "a", to: "b")
        #expect(folded.contains("<details><summary>5 more</summary>") && folded.hasSuffix("</details>\n"), "\(folded.suffix(300))")
        let long = try Self.review(tokens("#000000", count: 1_200), tokens("#ffffff", count: 1_200))
        let cut = long.markdown(from: "a", to: "b")
        #expect(cut.count <= ThemeReview.commentLimit, "\(cut.count)")
        #expect(cut.hasPrefix("**a → b**: 0 added, 0 removed, 1200 changed colours"), "the summary comes first")
        #expect(cut.hasSuffix("</details>\n\n… cut here at GitHub's comment limit: `themed diff --format json` has every change.\n"), "\(cut.suffix(200))")
    }
}
