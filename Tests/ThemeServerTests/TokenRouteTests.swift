import Foundation
import Testing
import ServiceSupport
import TestSupport

/// A theme of design tokens (DTCG 2025.10) served by the API: every resolution by its modifiers'
/// contexts, one token by path, the resolver document, its colours on the colour routes by the
/// traits theme.json maps, its problems listed with file and pointer, and a broken file that
/// never replaces what served.
@Suite("design token routes")
struct TokenRouteTests {
    /// `ds`: base tokens, a resolver with a light/dark `theme` modifier and a `size` modifier, and
    /// theme.json mapping the theme contexts to appearances.
    static func designSystem(_ f: ThemeFixtures) {
        f.write(#"""
        {"color": {"$type": "color",
           "gray": {"0": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}},
                    "9": {"$value": {"colorSpace": "srgb", "components": [0.1, 0.1, 0.1]}}},
           "brand": {"$value": {"colorSpace": "oklch", "components": [0.65, 0.25, 30]}, "$description": "Brand red"},
           "broken": {"$value": "{color.grey.0}"}},
         "space": {"$type": "dimension", "small": {"$value": {"value": 4, "unit": "px"}}}}
        """#, to: "themes/ds/base.tokens.json")
        f.write(#"{"semantic": {"bg": {"$value": "{color.gray.0}"}, "fg": {"$value": "{color.gray.9}"}}}"#, to: "themes/ds/modes/light.json")
        f.write(#"{"semantic": {"bg": {"$value": "{color.gray.9}"}, "fg": {"$value": "{color.gray.0}"}}}"#, to: "themes/ds/modes/dark.json")
        f.write(#"{"space": {"small": {"$value": {"value": 8, "unit": "px"}}}}"#, to: "themes/ds/modes/large.json")
        f.write(#"""
        {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
         "modifiers": {"theme": {"contexts": {"light": [{"$ref": "modes/light.json"}], "dark": [{"$ref": "modes/dark.json"}]}, "default": "light"},
                       "size": {"contexts": {"normal": [], "large": [{"$ref": "modes/large.json"}]}}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}, {"$ref": "#/modifiers/size"}]}
        """#, to: "themes/ds/ds.resolver.json")
        f.write(#"{"traits": {"theme": {"light": {"appearance": "light"}, "dark": {"appearance": "dark"}}}}"#, to: "themes/ds/theme.json")
    }

    func json(_ response: APIResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    @Test("GET /tokens answers a resolution in the DTCG format: defaults without a query, each modifier's context by its parameter, aliases resolved and named")
    func resolutions() throws {
        let api = try APIFixture(themes: Self.designSystem)
        let light = try api.request("/themes/ds/tokens")
        #expect(light.status == 200 && light.header("Content-Type") == "application/design-tokens+json; charset=utf-8", "\(light.text)")
        let bg = (json(light)["semantic"] as? [String: Any])?["bg"] as? [String: Any]
        #expect(bg?["$type"] as? String == "color")
        #expect(((bg?["$value"] as? [String: Any])?["components"] as? [Double]) == [1, 1, 1])
        #expect(((bg?["$extensions"] as? [String: Any])?["org.themed"] as? [String: Any])?["aliasOf"] as? [String] == ["color.gray.0"])
        let dark = try api.request("/themes/ds/tokens?theme=dark&size=large")
        #expect(((json(dark)["semantic"] as? [String: Any])?["bg"] as? [String: Any]).flatMap { ($0["$value"] as? [String: Any])?["components"] as? [Double] } == [0.1, 0.1, 0.1])
        #expect(((json(dark)["space"] as? [String: Any])?["small"] as? [String: Any]).flatMap { ($0["$value"] as? [String: Any])?["value"] as? Int } == 8)
        #expect(light.header("ETag") != dark.header("ETag"))
        #expect(try api.request("/themes/ds/tokens", headers: ["If-None-Match": light.header("ETag") ?? ""]).status == 304)
    }

    @Test("an unknown modifier or context is a 400 naming the valid ones")
    func badInputs() throws {
        let api = try APIFixture(themes: Self.designSystem)
        let modifier = try api.request("/themes/ds/tokens?mode=dark")
        #expect(modifier.status == 400 && modifier.text.contains("the modifiers are theme, size"), "\(modifier.text)")
        let context = try api.request("/themes/ds/tokens/semantic/bg?theme=sepia")
        #expect(context.status == 400 && context.text.contains("its contexts are light, dark"), "\(context.text)")
        #expect(try api.request("/themes/light/tokens").status == 404, "a catalog theme has no tokens")
    }

    @Test("one token by its path (dots or slashes); a missing one is a 404 with the nearest path")
    func oneToken() throws {
        let api = try APIFixture(themes: Self.designSystem)
        let fg = try api.request("/themes/ds/tokens/semantic.fg?theme=dark")
        #expect(fg.status == 200 && ((json(fg)["$value"] as? [String: Any])?["components"] as? [Double]) == [1, 1, 1], "\(fg.text)")
        #expect(try api.request("/themes/ds/tokens/semantic/fg?theme=dark").text == fg.text)
        let missing = try api.request("/themes/ds/tokens/semantic.fgg")
        #expect(missing.status == 404 && missing.text.contains("did you mean semantic.fg?"), "\(missing.text)")
        // A token the files have but that cannot be served says why, where it is written.
        let refused = try api.request("/themes/ds/tokens/color.broken")
        #expect(refused.status == 404 && refused.text.contains(#""code":"token_refused""#)
                && refused.text.contains("base.tokens.json#/color/broken: alias {color.grey.0} names no token"), "\(refused.text)")
    }

    @Test("the resolver document is served as the theme has it")
    func resolverDocument() throws {
        let api = try APIFixture(themes: Self.designSystem)
        let document = try api.request("/themes/ds/tokens.resolver.json")
        #expect(document.status == 200 && json(document)["version"] as? String == "2025.10")
        #expect((json(document)["modifiers"] as? [String: Any])?.keys.sorted() == ["size", "theme"])
    }

    @Test("colour tokens answer the colour routes by the traits theme.json maps; a wide colour has a P3 answer too")
    func colorRoutes() throws {
        let api = try APIFixture(themes: Self.designSystem)
        let dark = try api.request("/themes/ds/colors/semantic.bg?appearance=dark")
        #expect(dark.status == 200 && json(dark)["hex"] as? String == "#1A1A1AFF", "\(dark.text)")
        #expect(json(try api.request("/themes/ds/colors/semantic.bg?appearance=light"))["hex"] as? String == "#FFFFFFFF")
        let brandP3 = try api.request("/themes/ds/colors/color.brand?gamut=p3")
        #expect(json(brandP3)["colorSpace"] as? String == "display-p3", "\(brandP3.text)")
        let brand = try api.request("/themes/ds/colors/color.brand")
        #expect(json(brand)["colorSpace"] as? String == "srgb")
        let token = json(brand)["token"] as? [String: Any]
        #expect(token?["colorSpace"] as? String == "oklch" && token?["components"] as? [Double] == [0.65, 0.25, 30], "the token's own space is kept: \(brand.text)")
        #expect(json(try api.request("/themes/ds/colors/semantic.bg"))["token"] == nil, "an sRGB token is served as written")
        let palette = try api.request("/themes/ds/colors?appearance=dark")
        #expect(((json(palette)["colors"] as? [String: Any])?.keys.sorted() ?? []).contains("semantic.fg"), "\(palette.text)")
    }

    @Test("a token that cannot be resolved is listed with its file, pointer and reason, and not served; the rest serves")
    func problems() throws {
        let api = try APIFixture(themes: Self.designSystem)
        let detail = try api.request("/themes/ds")
        let errors = (json(detail)["errors"] as? [Any] ?? []).map { "\($0)" }
        #expect(errors.contains { $0.contains("base.tokens.json#/color/broken") && $0.contains("alias {color.grey.0} names no token; did you mean {color.gray.0}?") },
                "\(detail.text)")
        #expect(try api.request("/themes/ds/tokens/color.broken").status == 404)
        #expect(try api.request("/themes/ds/colors/color.broken").status == 404)
        #expect(try api.request("/themes/ds/tokens/color.brand").status == 200)
    }
}
