import Foundation
import Testing
import ServiceSupport
import TestSupport

/// Design tokens as converters write them, served whole: what the Format module does not allow
/// but means one thing is read as that thing and listed under `warnings`, one line per kind and
/// file, and the theme stays `ok`.
@Suite("converters' slips are warnings")
struct ConverterWarningTests {
    static func converted(_ f: ThemeFixtures) {
        f.write(#"""
        {"color": {"$type": "color",
           "primary": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "alpha": 0.5, "hex": "#0066cc80"},
                       "hover": {"$value": "#0055aa"}},
           "secondary": {"$value": {"colorSpace": "srgb", "components": [1, 0.6, 0], "hex": "#f90"}},
           "link": {"$value": "{color.primary.hover}"}},
         "space": {"$type": "dimension", "s": {"$value": "4dp"}, "m": {"$value": {"value": 1, "unit": "em"}}, "l": {"$value": {"value": 2, "unit": "em"}}},
         "broken": {"$type": "color", "$value": "bluish"}}
        """#, to: "themes/converted/tokens.tokens.json")
    }

    struct Detail: Decodable {
        var status: String
        var errors: [String]
        var warnings: [String]
        var colors: [String]
    }

    @Test("every value a converter wrote is served; each kind of slip is one line naming the file and pointer; only the spec's hard rules are errors")
    func servedWithWarnings() throws {
        let api = try APIFixture(themes: Self.converted)
        let detail = try api.request("/themes/converted").decode(Detail.self)
        #expect(Set(detail.colors) == ["color.primary", "color.primary.hover", "color.secondary", "color.link"], "\(detail.colors)")
        #expect(detail.errors.count == 1 && detail.errors[0].contains("tokens.tokens.json#/broken"), "\(detail.errors)")
        let kinds = detail.warnings.compactMap { line in line.range(of: #"\((draft-form|unit|hex-fallback|token-group)\)"#, options: .regularExpression).map { String(line[$0]) } }
        #expect(kinds.sorted() == ["(draft-form)", "(hex-fallback)", "(token-group)", "(unit)"], "one line per kind: \(detail.warnings)")
        #expect(detail.warnings.contains { $0.hasPrefix("tokens.tokens.json#/color/primary: hex \"#0066cc80\"") && $0.hasSuffix("and 1 more like it in tokens.tokens.json") },
                "the first of a kind, and how many more: \(detail.warnings)")
        #expect(detail.warnings.contains { $0.hasPrefix("tokens.tokens.json#/space/s: unit \"dp\"") && $0.contains("and 2 more like it") })

        let link = try api.request("/themes/converted/colors/color.link")
        #expect(link.status == 200 && link.text.contains("\"hex\":\"#0055AAFF\""), "an alias of a token that is also a group: \(link.text)")
        let primary = try api.request("/themes/converted/tokens/color.primary")
        #expect(primary.status == 200 && !primary.text.contains("#0066cc80"), "the components win over the 8-digit hex: \(primary.text)")
        let space = try api.request("/themes/converted/tokens/space.m")
        #expect(space.status == 200 && space.text.contains(#""unit":"em""#), "kept as written: \(space.text)")

        let list = try api.request("/themes").text
        #expect(list.contains(#""warnings":["tokens.tokens.json#/"#), "the list shows them too: \(list.prefix(600))")
    }

    @Test("a theme with only warnings is ok, not degraded")
    func notDegraded() throws {
        let api = try APIFixture { f in
            f.write(#"{"space": {"$type": "dimension", "s": {"$value": "4px"}}}"#, to: "themes/drafts/tokens.tokens.json")
        }
        let detail = try api.request("/themes/drafts").decode(Detail.self)
        #expect(detail.status == "ok" && detail.errors.isEmpty && detail.warnings.count == 1, "\(detail)")
    }
}

/// `/themes` and `/themes/{theme}` stay small whatever a theme's problems: counts and the first
/// 50 of each; every one is at `/themes/{theme}/problems`, page by page.
@Suite("a theme's problems, bounded")
struct ProblemListTests {
    struct Page: Decodable {
        struct Problem: Decodable { var severity: String; var message: String }
        var total: Int
        var problems: [Problem]
        var next: String?
    }

    struct Detail: Decodable {
        var errors: [String]
        var errorCount: Int
        var warnings: [String]
        var warningCount: Int
        var problems: String
    }

    @Test("120 refused tokens: the listings name 50 and count 120; /problems pages through all of them, errors first")
    func bounded() throws {
        let api = try APIFixture { f in
            let broken = (0..<120).map { #""t\#($0)": {"$value": "{nowhere.\#($0)}"}"# }.joined(separator: ", ")
            f.write(##"{"c": {"$type": "color", "ok": {"$value": "#102030", "group": {"$value": "#405060"}}, \##(broken)}}"##, to: "themes/big/big.tokens.json")
        }
        let detail = try api.request("/themes/big").decode(Detail.self)
        #expect(detail.errors.count == 50 && detail.errorCount == 120 && detail.warningCount == 2 && detail.problems == "/themes/big/problems")
        let list = try api.request("/themes").text
        #expect(list.contains(#""errorCount":120"#) && list.count < 20_000, "\(list.count) bytes")

        var seen: [Page.Problem] = []
        var next: String? = "/themes/big/problems?limit=100"
        while let target = next {
            let page = try api.request(target).decode(Page.self)
            #expect(page.total == 122)
            seen += page.problems
            next = page.next
        }
        #expect(seen.count == 122 && seen.prefix(120).allSatisfy { $0.severity == "error" } && seen.suffix(2).allSatisfy { $0.severity == "warning" })
        #expect(Set(seen.map(\.message)).count == 122, "no problem twice across pages")
        let warnings = try api.request("/themes/big/problems?severity=warning").decode(Page.self)
        #expect(warnings.total == 2 && warnings.next == nil)
        #expect(try api.request("/themes/big/problems?limit=1001").status == 400)
        #expect(try api.request("/themes/big/problems?offset=-1").status == 400)
    }
}
