import Foundation
import MaterialColor
import Testing
import ServiceSupport
import TestSupport
import ThemeVocabulary

/// A theme whose theme.json names a Material 3 seed: its 49 roles answer wherever colours do, in
/// light and dark and in high contrast; its own colours of the same name win; a bad seed or
/// variant is a theme problem that names it, and the theme keeps what it served.
@Suite("Material 3 themes")
struct MaterialThemeTests {
    /// `m3`: a seed alone. `ds`: a token theme whose seed is one of its tokens, and whose own
    /// `primary` token wins over the role.
    static func themes(_ f: ThemeFixtures) {
        f.write(##"{"material": {"seed": "#6750A4", "variant": "tonalSpot"}}"##, to: "themes/m3/theme.json")
        f.write(##"{"brand": {"$type": "color", "$value": "#B3261E"}, "primary": {"$type": "color", "$value": "#123456"}}"##, to: "themes/ds/colors.tokens.json")
        f.write(#"{"material": {"seed": "{brand}", "variant": "fidelity", "highContrastLevel": 0.5}}"#, to: "themes/ds/theme.json")
    }

    /// The role as MaterialScheme computes it (compared with the reference in MaterialColorTests).
    static func role(_ name: String, seed: UInt32, _ variant: MaterialVariant, dark: Bool = false, level: Double = 0) -> String {
        let scheme = MaterialScheme(source: Hct(argb: seed), variant: variant, isDark: dark, contrastLevel: level)
        let argb = scheme.roles.first { $0.name == name }?.argb ?? 0
        return String(format: "#%06XFF", argb & 0xFF_FFFF)
    }

    func hex(_ api: APIFixture, _ target: String) throws -> String? {
        try api.request(target).decode(ColorBody.self).hex
    }

    @Test("every role answers by appearance and contrast: light as any, dark, each in high contrast at the level asked")
    func roles() throws {
        let api = try APIFixture(themes: Self.themes)
        #expect(try hex(api, "/themes/m3/colors/primary") == "#65558FFF", "Material's baseline purple, tonal spot")
        #expect(try hex(api, "/themes/m3/colors/primary?appearance=any") == "#65558FFF")
        for (query, dark, level) in [("appearance=dark", true, 0.0), ("contrast=high", false, 1.0), ("appearance=dark&contrast=high", true, 1.0)] {
            #expect(try hex(api, "/themes/m3/colors/onPrimaryContainer?\(query)") == Self.role("onPrimaryContainer", seed: 0xFF67_50A4, .tonalSpot, dark: dark, level: level), "\(query)")
        }
        let palette = try api.request("/themes/m3/colors?appearance=dark").decode(PaletteBody.self)
        #expect(palette.colors.count == 49, "\(palette.colors.keys.sorted())")
        #expect(palette.colors["surfaceContainerHighest"]?.hex == Self.role("surfaceContainerHighest", seed: 0xFF67_50A4, .tonalSpot, dark: true))
        let css = try api.request("/themes/m3/colors.css").text
        #expect(css.contains("--on-tertiary-fixed-variant:") && css.contains("--inverse-primary:"), "\(css.prefix(400))")
        let theme = try api.request("/themes/m3").json
        #expect((theme["sources"] as? [[String: Any]])?.first?["kind"] as? String == "material")
    }

    @Test("a seed named by alias comes from the theme's tokens; its own colours of a role's name win; an edit of the token moves the roles")
    func aliasSeed() throws {
        let api = try APIFixture(themes: Self.themes)
        #expect(try hex(api, "/themes/ds/colors/primary") == "#123456FF", "the theme's own token")
        #expect(try hex(api, "/themes/ds/colors/primaryContainer") == Self.role("primaryContainer", seed: 0xFFB3_261E, .fidelity))
        #expect(try hex(api, "/themes/ds/colors/primaryContainer?contrast=high") == Self.role("primaryContainer", seed: 0xFFB3_261E, .fidelity, level: 0.5))
        api.fixtures.write(##"{"brand": {"$type": "color", "$value": "#006A6A"}, "primary": {"$type": "color", "$value": "#123456"}}"##, to: "themes/ds/colors.tokens.json")
        _ = try api.service.reload()
        #expect(try hex(api, "/themes/ds/colors/primaryContainer") == Self.role("primaryContainer", seed: 0xFF00_6A6A, .fidelity))
    }

    @Test("a bad seed, variant or alias is a theme problem naming it; the roles served before stay")
    func badSettingsKeepWhatServed() throws {
        let api = try APIFixture(themes: Self.themes)
        let before = try hex(api, "/themes/m3/colors/secondary")
        for (settings, named) in [(##"{"material": {"seed": "#67504"}}"##, "material.seed"), (##"{"material": {"seed": "#6750A4", "variant": "tonalspot"}}"##, "did you mean \"tonalSpot\""),
                                  (##"{"material": {"seed": "#6750A4", "spec": "2025"}}"##, "material.spec"), (##"{"material": {"seed": "#6750A4", "sead": 1}}"##, "did you mean \"seed\""),
                                  (#"{"material": {"seed": "{nope}"}}"#, "material.seed {nope}")] {
            api.fixtures.write(settings, to: "themes/m3/theme.json")
            let report = try api.service.reload()
            #expect(report.themeErrors.contains { $0.theme == "m3" && $0.message.contains(named) }, "\(settings): \(report.themeErrors)")
            #expect(try hex(api, "/themes/m3/colors/secondary") == before, "\(settings): the roles stay")
            let listed = try api.request("/themes/m3").text
            #expect(listed.contains(named.replacingOccurrences(of: "\"", with: "\\\"")), "\(settings): \(listed.prefix(600))")
        }
        api.fixtures.write(##"{"material": {"seed": "#6750A4", "variant": "monochrome"}}"##, to: "themes/m3/theme.json")
        _ = try api.service.reload()
        #expect(try hex(api, "/themes/m3/colors/secondary") == Self.role("secondary", seed: 0xFF67_50A4, .monochrome), "a good edit is taken")
        #expect(try api.request("/themes/m3").json["errorCount"] as? Int == 0)
    }

    @Test("a theme of a seed alone answers /tokens with its roles, a mode per scheme; a theme with tokens answers with its own")
    func rolesAsTokens() throws {
        let api = try APIFixture(themes: Self.themes)
        func hex(_ document: [String: Any], _ name: String) -> String? {
            ((document[name] as? [String: Any])?["$value"] as? [String: Any])?["hex"] as? String
        }
        let light = try api.request("/themes/m3/tokens")
        #expect(light.status == 200 && hex(light.json, "primary") == "#65558f", "\(light.text.prefix(300))")
        #expect(light.json.count == 49)
        let dark = try api.request("/themes/m3/tokens?mode=dark-high-contrast").json
        #expect(hex(dark, "onPrimaryContainer").map { "\($0.uppercased())FF" } == Self.role("onPrimaryContainer", seed: 0xFF67_50A4, .tonalSpot, dark: true, level: 1))
        let one = try api.request("/themes/m3/tokens/surfaceContainerHighest?mode=dark")
        #expect(one.status == 200 && one.json["$type"] as? String == "color", "\(one.text)")
        #expect(try api.request("/themes/m3/tokens?mode=sepia").status == 400)
        let resolver = try api.request("/themes/m3/tokens.resolver.json").json
        #expect((((resolver["modifiers"] as? [String: Any])?["mode"] as? [String: Any])?["contexts"] as? [String: Any])?.count == 4)
        #expect(try api.request("/themes/ds/tokens").json["brand"] != nil, "a theme's own tokens answer /tokens")
    }
}

