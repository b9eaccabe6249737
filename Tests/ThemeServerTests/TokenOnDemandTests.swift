import Foundation
import Testing
import ServiceSupport
import TestSupport

/// A resolver with more combinations than a sync stores (a scheme mapped to appearance, and six
/// modifiers of five contexts chosen by name: 31,250): the index keeps the scheme's two
/// resolutions; every other combination is resolved when first asked and kept, for `/tokens` and
/// for the colour routes alike.
@Suite("token resolutions on demand")
struct TokenOnDemandTests {
    /// `ds`: modifier `mN`'s context `cK` sets `size.mN` to 10N+K px; `color.accent` follows
    /// `m1`; `size.alias` is `{size.m3}`; `scheme` (light/dark) maps to appearance.
    static func designSystem(_ f: ThemeFixtures) {
        var modifiers: [String] = []
        for n in 1...6 {
            let contexts = (1...5).map { k in
                let accent = n == 1 ? #", "color": {"accent": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, \#(Double(k) / 5)]}}}"# : ""
                return #""c\#(k)": [{"size": {"m\#(n)": {"$type": "dimension", "$value": {"value": \#(10 * n + k), "unit": "px"}}}\#(accent)}]"#
            }
            modifiers.append(#""m\#(n)": {"contexts": {\#(contexts.joined(separator: ", "))}, "default": "c1"}"#)
        }
        modifiers.append(#""scheme": {"contexts": {"light": [], "dark": [{"color": {"ink": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.9, 0.9, 0.9]}}}}]}, "default": "light"}"#)
        f.write(#"{"color": {"$type": "color", "ink": {"$value": {"colorSpace": "srgb", "components": [0.1, 0.1, 0.1]}}}, "size": {"alias": {"$type": "dimension", "$value": "{size.m3}"}}}"#, to: "themes/ds/base.tokens.json")
        let order = ["sets/base", "modifiers/scheme"] + (1...6).map { "modifiers/m\($0)" }
        let references = order.map { ##"{"$ref": "#/"## + $0 + ##""}"## }.joined(separator: ", ")
        f.write(##"{"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}}, "modifiers": {"## + modifiers.joined(separator: ", ")
                + ##"}, "resolutionOrder": ["## + references + "]}", to: "themes/ds/ds.resolver.json")
        f.write(#"{"traits": {"scheme": {"light": {"appearance": "light"}, "dark": {"appearance": "dark"}}}}"#, to: "themes/ds/theme.json")
    }

    func size(_ document: [String: Any], _ name: String) -> Int? {
        (((document["size"] as? [String: Any])?[name] as? [String: Any])?["$value"] as? [String: Any])?["value"] as? Int
    }

    @Test("any combination of /tokens and /tokens/{path} answers, resolved once and kept; the stored ones as before")
    func anyCombination() throws {
        let api = try APIFixture(themes: Self.designSystem)
        #expect(try api.request("/themes/ds").json["errorCount"] as? Int == 0, "no 'first 64 kept' problem")
        let chosen = try api.request("/themes/ds/tokens?m1=c2&m4=c5&m3=c3&scheme=dark")
        #expect(chosen.status == 200, "\(chosen.text)")
        let document = chosen.json
        #expect(size(document, "m1") == 12 && size(document, "m2") == 21 && size(document, "m3") == 33 && size(document, "m4") == 45, "\(chosen.text.prefix(600))")
        #expect(size(document, "alias") == 33, "an alias follows the chosen context")
        let ink = (((document["color"] as? [String: Any])?["ink"] as? [String: Any])?["$value"] as? [String: Any])?["components"] as? [Double]
        #expect(ink == [0.9, 0.9, 0.9], "the scheme chosen: \(String(describing: ink))")
        let kept = api.service.library.index.reader.tokenResolutions.resolutions.statistics
        #expect(kept.entries == 1 && kept.misses == 1)

        // The same combination asked another way (defaults named, another order) is the same resolution.
        let again = try api.request("/themes/ds/tokens?scheme=dark&m3=c3&m4=c5&m1=c2&m2=c1")
        #expect(again.header("ETag") == chosen.header("ETag"))
        #expect(api.service.library.index.reader.tokenResolutions.resolutions.statistics.hits >= 1)

        let token = try api.request("/themes/ds/tokens/size/m6?m6=c4&m5=c2")
        #expect(token.status == 200 && (token.json["$value"] as? [String: Any])?["value"] as? Int == 64, "\(token.text)")
        let missing = try api.request("/themes/ds/tokens/size/m7?m6=c4")
        #expect(missing.status == 404 && missing.text.contains("did you mean size.m"), "\(missing.text)")
        #expect(try api.request("/themes/ds/tokens?m6=c9").status == 400, "an unknown context is still a 400")
        // A stored resolution is read from the index.
        #expect(try size(api.request("/themes/ds/tokens?scheme=dark").json, "m2") == 21)
    }

    @Test("colour routes, palettes and exports answer any context chosen by name, with the traits mapped beside it")
    func colorRoutes() throws {
        let api = try APIFixture(themes: Self.designSystem)
        #expect(try api.request("/themes/ds/colors/color.ink?appearance=dark").decode(ColorBody.self).hex == "#E6E6E6FF")
        #expect(try api.request("/themes/ds/colors/color.accent").decode(ColorBody.self).hex == "#000033FF")
        let kept = api.service.library.index.reader.tokenResolutions.resolutions

        // m1=c3 (0.6 blue) resolved when first asked, with each scheme the traits choose.
        let named = try api.request("/themes/ds/colors/color.accent?m1=c3")
        #expect(named.status == 200, "\(named.text)")
        let accent = try named.decode(ColorBody.self)
        let atDefaults = try api.request("/themes/ds/colors/color.accent").decode(ColorBody.self)
        #expect(accent.hex == "#000099FF" && accent.source.theme == "ds" && accent.fallbacks == atDefaults.fallbacks, "\(named.text)")
        #expect(kept.statistics.entries == 2, "light and dark at m1=c3")
        #expect(try api.request("/themes/ds/colors/color.ink?m1=c3&appearance=dark").decode(ColorBody.self).hex == "#E6E6E6FF")
        #expect(try api.request("/themes/ds/colors/color.ink?m1=c3").decode(ColorBody.self).hex
                == api.request("/themes/ds/colors/color.ink").decode(ColorBody.self).hex)
        #expect(kept.statistics.entries == 2, "the next asks are answered from what was kept")

        // A palette at another combination: every colour token of it.
        let palette = try api.request("/themes/ds/colors?m1=c4&m6=c2&appearance=dark").decode(PaletteBody.self)
        #expect(palette.colors["color.accent"]?.hex == "#0000CCFF" && palette.colors["color.ink"]?.hex == "#E6E6E6FF", "\(palette.colors.mapValues(\.hex))")

        // The exports at that combination: the CSS has its accent, its sizes are that combination's.
        let css = try api.request("/themes/ds/colors.css?m1=c4&m6=c2")
        #expect(css.status == 200 && css.text.contains("--color-accent: rgb(0 0 204 / 1)"), "\(css.text.prefix(1800))")
        #expect(css.text.contains("--size-m6: 62px"), "\(css.text.prefix(1200))")

        #expect(try api.request("/themes/ds/colors/color.accent?m1=c9").status == 400, "an unknown context is still a 400")
    }

    @Test("an edit the index takes is what the next resolution on demand reads")
    func editsReach() throws {
        let api = try APIFixture(themes: Self.designSystem)
        #expect(try size(api.request("/themes/ds/tokens?m2=c2&m5=c5").json, "alias") == 31)
        api.fixtures.write(#"{"color": {"$type": "color", "ink": {"$value": {"colorSpace": "srgb", "components": [0.1, 0.1, 0.1]}}}, "size": {"alias": {"$type": "dimension", "$value": "{size.m5}"}}}"#,
                           to: "themes/ds/base.tokens.json")
        _ = try api.service.reload()
        #expect(try size(api.request("/themes/ds/tokens?m2=c2&m5=c5").json, "alias") == 55)
    }
}
