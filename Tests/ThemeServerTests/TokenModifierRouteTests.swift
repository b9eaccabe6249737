import Foundation
import Testing
import ServiceSupport
import TestSupport

/// A token theme's modifiers on the colour routes as on `/tokens`: a modifier theme.json maps to
/// no trait is chosen by name (`?brand=portal`), one it maps by the usual traits.
@Suite("token modifiers on the colour routes")
struct TokenModifierRouteTests {
    /// Two brands by name, a light and a dark scheme by appearance.
    static func brands(_ f: ThemeFixtures) {
        f.write(##"{"color": {"$type": "color", "white": {"$value": "#ffffff"}, "ink": {"$value": "#111111"}}}"##, to: "themes/ds/base.tokens.json")
        f.write(##"{"color": {"accent": {"$type": "color", "$value": "#0066ff"}}}"##, to: "themes/ds/brands/main.json")
        f.write(##"{"color": {"accent": {"$type": "color", "$value": "#ff6600"}}}"##, to: "themes/ds/brands/portal.json")
        f.write(#"{"color": {"surface": {"$type": "color", "$value": "{color.white}"}}}"#, to: "themes/ds/schemes/light.json")
        f.write(#"{"color": {"surface": {"$type": "color", "$value": "{color.ink}"}, "accent": {"$type": "color", "$value": "{color.white}"}}}"#, to: "themes/ds/schemes/dark.json")
        f.write(#"""
        {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "base.tokens.json"}]}},
         "modifiers": {"brand": {"contexts": {"main": [{"$ref": "brands/main.json"}], "portal": [{"$ref": "brands/portal.json"}]}, "default": "main"},
                       "scheme": {"contexts": {"light": [{"$ref": "schemes/light.json"}], "dark": [{"$ref": "schemes/dark.json"}]}, "default": "light"}},
         "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/brand"}, {"$ref": "#/modifiers/scheme"}]}
        """#, to: "themes/ds/ds.resolver.json")
        f.write(#"{"traits": {"scheme": {"light": {"appearance": "light"}, "dark": {"appearance": "dark"}}}}"#, to: "themes/ds/theme.json")
    }

    func hex(_ response: APIResponse) -> String? { response.json["hex"] as? String }

    @Test("a colour answers the brand the query names, and the scheme its appearance chooses")
    func colour() throws {
        let api = try APIFixture(themes: Self.brands)
        #expect(hex(try api.request("/themes/ds/colors/color.accent"))?.lowercased().hasPrefix("#0066ff") == true)
        let portal = try api.request("/themes/ds/colors/color.accent?brand=portal")
        #expect(portal.status == 200 && hex(portal)?.lowercased().hasPrefix("#ff6600") == true, "\(portal.text)")
        #expect(hex(try api.request("/themes/ds/colors/color.surface?brand=portal&appearance=dark"))?.lowercased().hasPrefix("#111111") == true)
        #expect(hex(try api.request("/themes/ds/colors/color.accent?brand=main&utm_source=mail"))?.lowercased().hasPrefix("#0066ff") == true,
                "a parameter that names no modifier is not the tokens'")
        let unknown = try api.request("/themes/ds/colors/color.accent?brand=intranet")
        #expect(unknown.status == 400 && unknown.text.contains("brand has no context \\\"intranet\\\"; its contexts are main, portal"), "\(unknown.text)")
        let cased = try api.request("/themes/ds/colors/color.accent?Brand=portal")
        #expect(cased.status == 400 && cased.text.contains("did you mean brand? Its contexts are main, portal"), "never the default silently: \(cased.text)")
    }

    @Test("a palette answers the brand the query names")
    func palette() throws {
        let api = try APIFixture(themes: Self.brands)
        let portal = try api.request("/themes/ds/colors?brand=portal")
        #expect(portal.status == 200 && portal.text.lowercased().contains("#ff6600") && !portal.text.lowercased().contains("#0066ff"), "\(portal.text)")
        let main = try api.request("/themes/ds/colors")
        #expect(main.text.lowercased().contains("#0066ff") && !main.text.lowercased().contains("#ff6600"), "\(main.text)")
    }
}

extension TokenModifierRouteTests {
    @Test("an export answers the brand the query names; an unknown context is a 400")
    func export() throws {
        let api = try APIFixture(themes: Self.brands)
        let portal = try api.request("/themes/ds/exports/css/colors.css?brand=portal")
        #expect(portal.status == 200 && portal.text.contains("--color-accent: rgb(255 102 0 / 1)") && !portal.text.contains("rgb(0 102 255"), "\(portal.text)")
        #expect(try api.request("/themes/ds/exports/css/colors.css?brand=intranet").status == 400)
    }
}

/// A brand over a base, as teams keep them: the brand's theme.json names its parent only.
@Suite("brands without copying")
struct InheritedSettingsTests {
    static func brand(_ f: ThemeFixtures) {
        TokenModifierRouteTests.brands(f)
        f.write(#"""
        {"traits": {"scheme": {"light": {"appearance": "light"}, "dark": {"appearance": "dark"}}},
         "contrast": {"pairs": [{"foreground": "color.accent", "background": "color.surface"}], "policy": "warn"}}
        """#, to: "themes/ds/theme.json")
        f.write(##"{"color": {"ink": {"$type": "color", "$value": "#220000"}}}"##, to: "themes/acme/acme.tokens.json")
        f.write(#"{"parent": "ds"}"#, to: "themes/acme/theme.json")
    }

    @Test("a brand takes its base's traits and contrast pairs: ?appearance=dark answers its dark scheme, /contrast checks the base's pairs")
    func inherits() throws {
        let api = try APIFixture(themes: Self.brand)
        let dark = try api.request("/themes/acme/colors/color.surface?appearance=dark")
        #expect(dark.status == 200 && (dark.json["hex"] as? String)?.lowercased().hasPrefix("#220000") == true,
                "the base's dark scheme over the brand's ink: \(dark.text)")
        let light = try api.request("/themes/acme/colors/color.surface?appearance=light")
        #expect((light.json["hex"] as? String)?.lowercased().hasPrefix("#ffffff") == true, "\(light.text)")
        let contrast = try api.request("/themes/acme/contrast")
        #expect(contrast.status == 200 && contrast.text.contains("color.accent"), "the base's pair: \(contrast.text)")
    }

    @Test("what the brand gives itself wins; the rest still comes from the base")
    func overrides() throws {
        let api = try APIFixture { f in
            Self.brand(f)
            f.write(#"{"parent": "ds", "contrast": {"pairs": [], "policy": "warn"}}"#, to: "themes/acme/theme.json")
        }
        let contrast = try api.request("/themes/acme/contrast")
        #expect(contrast.status == 200 && !contrast.text.contains("color.accent"), "its own empty list: \(contrast.text)")
        let dark = try api.request("/themes/acme/colors/color.surface?appearance=dark")
        #expect((dark.json["hex"] as? String)?.lowercased().hasPrefix("#220000") == true, "traits still the base's: \(dark.text)")
    }
}
