import Foundation
import Testing
import ServiceSupport
import TestSupport
import ThemeExport
import ThemeIndex

/// Exports and design tokens: aliases kept as CSS references when asked, and a catalog theme
/// exported as a resolver document that, served as a theme, answers every colour as the catalog.
@Suite("token exports")
struct TokenExportTests {
    static func themes(_ f: ThemeFixtures) {
        ServerFixture.standardThemes(f)
        TokenRouteTests.designSystem(f)
        // A catalog colour that differs on P3 screens, and one written in Display P3.
        f.colorSet("themes/light", "vivid", [
            (nil, ["red": "1", "green": "0", "blue": "0"], [:]),
            (nil, ["red": "0.9", "green": "0.1", "blue": "0.1"], ["display-gamut": "display-P3", "color": ["color-space": "display-p3", "components": ["red": "1", "green": "0", "blue": "0"]]]),
        ])
    }

    func json(_ response: APIResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    @Test("colors.css?references=1 writes an alias as var() of the token it names, in each scheme; without, values")
    func references() throws {
        let api = try APIFixture(themes: Self.themes)
        let plain = try api.request("/themes/ds/colors.css").text
        let kept = try api.request("/themes/ds/colors.css?references=1").text
        #expect(plain.contains("--semantic-bg: rgb(255 255 255 / 1);"), "\(plain)")
        #expect(kept.contains("--semantic-bg: var(--color-gray-0);") && kept.contains("--semantic-bg: var(--color-gray-9);"), "\(kept)")
        #expect(kept.contains("--color-gray-0: rgb(255 255 255 / 1);"), "values stay values")
    }

    @Test("a catalog theme exported as a resolver document, served as a theme, answers every colour in every mode as the catalog does")
    func resolverRoundTrip() throws {
        let api = try APIFixture(themes: Self.themes)
        let resolver = try api.request("/themes/light/exports/resolver/light.resolver.json")
        let settings = try api.request("/themes/light/exports/resolver/theme.json")
        #expect(resolver.status == 200 && settings.status == 200, "\(resolver.text)")
        api.fixtures.write(resolver.text, to: "themes/roundtrip/light.resolver.json")
        api.fixtures.write(settings.text, to: "themes/roundtrip/theme.json")
        try api.service.reload()
        let detail = json(try api.request("/themes/roundtrip"))
        #expect((detail["errors"] as? [Any])?.isEmpty == true, "\(detail)")
        for mode in ColorMode.all {
            let original = json(try api.request("/themes/light/colors?\(mode.query)"))["colors"] as? [String: [String: Any]] ?? [:]
            let tokens = json(try api.request("/themes/roundtrip/colors?\(mode.query)"))["colors"] as? [String: [String: Any]] ?? [:]
            #expect(!original.isEmpty && Set(original.keys) == Set(tokens.keys), "\(mode): \(original.keys.sorted()) vs \(tokens.keys.sorted())")
            for (name, color) in original {
                let other = tokens[name] ?? [:]
                #expect(color["colorSpace"] as? String == other["colorSpace"] as? String && color["hex"] as? String == other["hex"] as? String,
                        "\(mode) \(name): \(color) vs \(other)")
                let a = color["components"] as? [Double] ?? [], b = other["components"] as? [Double] ?? []
                #expect(a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }, "\(mode) \(name): \(a) vs \(b)")
            }
        }
    }
}
