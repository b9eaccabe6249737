import Foundation
import ServiceSupport
import Testing

@Suite("export routes")
struct ExportRouteTests {
    /// Every mode's tokens hold what the colour route answers for that mode, name by name.
    @Test("tokens.json of every mode equals the colour route for that mode's traits")
    func tokensMatchColorRoute() throws {
        let api = try APIFixture()
        let modes = ["light": "appearance=light", "dark": "appearance=dark", "light-high-contrast": "appearance=light&contrast=high",
                     "dark-high-contrast": "appearance=dark&contrast=high", "light-p3": "appearance=light&gamut=p3",
                     "dark-p3": "appearance=dark&gamut=p3"]
        for (mode, query) in modes {
            let response = try api.request("/themes/light/tokens.json?mode=\(mode)")
            #expect(response.status == 200 && response.header("Content-Type") == "application/design-tokens+json")
            let tokens = try response.decode(TokenFile.self).tokens
            #expect(Set(tokens.keys) == ["primary", "background"])
            for (name, token) in tokens {
                let color = try api.request("/themes/light/colors/\(name)?\(query)").decode(ColorBody.self)
                #expect(token.type == "color")
                #expect(token.value.components == Array(color.components.prefix(3)), "\(name) in \(mode)")
                #expect(token.value.alpha == color.components.last, "\(name) in \(mode)")
                #expect(token.value.hex == String(color.hex?.prefix(7) ?? "").lowercased(), "\(name) in \(mode)")
            }
        }
    }

    @Test("colors.css, Android and Swift files are served with an ETag; the list names every file")
    func everyFile() throws {
        let api = try APIFixture()
        let css = try api.request("/themes/light/colors.css")
        #expect(css.status == 200 && css.header("Content-Type") == "text/css; charset=utf-8" && css.header("ETag") != nil)
        #expect(css.text.contains("--primary: rgb(26 51 77 / 1);"))
        #expect(css.text.contains("@media (prefers-color-scheme: dark) {\n  :root {\n    --background: rgb(255 255 255 / 1);\n    --primary: rgb(16 32 48 / 1);"))
        #expect(try api.request("/themes/light/colors.css", headers: ["If-None-Match": css.header("ETag") ?? ""]).status == 304)

        let list = try api.request("/themes/light/exports").decode(ExportList.self)
        #expect(Set(list.formats.keys) == ["css", "dtcg", "android", "swift", "compose", "resolver", "ts", "js", "scss", "tailwind"])
        for file in list.formats.values.flatMap({ $0 }) {
            let response = try api.request(file.href)
            #expect(response.status == 200 && !response.body.isEmpty, "\(file.href)")
        }
        #expect(try api.request("/themes/light/exports/android/values-night/colors.xml").text.contains("<color name=\"primary\">#FF102030</color>"))
    }

    @Test("unknown modes and options a format does not take are 400, unknown formats, files and themes 404")
    func badRequests() throws {
        let api = try APIFixture()
        #expect(try api.request("/themes/light/tokens.json?mode=dim").status == 400)
        #expect(try api.request("/themes/light/exports/sketch/colors.sketch").status == 404)
        #expect(try api.request("/themes/light/exports/css/other.css").status == 404)
        #expect(try api.request("/themes/nope/colors.css").status == 404)
        let refused = try api.request("/themes/light/exports/swift/LightColors.swift?prefix=ds")
        #expect(refused.status == 400 && refused.text.contains("prefix is not an option of the swift export (only of css, android, scss, tailwind)"), "\(refused.text)")
        #expect(try api.request("/themes/light/colors.css?prefix=9x").status == 400, "a prefix no format's names can start with")
        #expect(try api.request("/themes/light/exports/scss/_colors.scss?light-dark=1").status == 400)
        let prefixed = try api.request("/themes/light/colors.css?prefix=ds&light-dark=1")
        #expect(prefixed.status == 200 && prefixed.text.contains("--ds-primary: light-dark("), "\(prefixed.text)")
    }

    @Test("names that are not identifiers and a theme with dark colours only still export; collisions are reported")
    func awkwardTheme() throws {
        let api = try APIFixture { f in
            for name in ["primary tint", "primary-tint", "primaryTint", "2x", "class"] {
                f.colorSet("themes/odd", name, [("dark", ["red": "1", "green": "0", "blue": "0", "alpha": "1"], [:])])
            }
        }
        let css = try api.request("/themes/odd/colors.css").text
        #expect(css.contains("Name collision: \"primary tint\", \"primary-tint\", \"primaryTint\" all make --primary-tint"))
        #expect(css.contains("--primary-tint-2: rgb(255 0 0 / 1);") && css.contains("--primary-tint-3: rgb(255 0 0 / 1);"))
        #expect(css.contains("No value in light:"))
        #expect(!css.contains(":root {\n  --"), "no light values: the plain :root rule is left out")
        let android = try api.request("/themes/odd/exports/android/values-night/colors.xml").text
        #expect(android.contains("<color name=\"color_2x\">") && android.contains("<color name=\"color_class\">"))
        let light = try api.request("/themes/odd/exports/android/values/colors.xml").text
        #expect(light.contains("<resources>\n</resources>"))
    }
}

/// A DTCG file: tokens by name, beside the `$`-members of the root group.
private struct TokenFile: Decodable {
    struct Token: Decodable {
        struct Value: Decodable { var colorSpace: String; var components: [Double]; var alpha: Double; var hex: String }
        var type: String
        var value: Value
        enum CodingKeys: String, CodingKey { case type = "$type", value = "$value" }
    }

    struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var tokens: [String: Token] = [:]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Name.self)
        for key in container.allKeys where !key.stringValue.hasPrefix("$") {
            tokens[key.stringValue] = try container.decode(Token.self, forKey: key)
        }
    }
}

private struct ExportList: Decodable {
    struct File: Decodable { var path: String; var href: String }
    var formats: [String: [File]]
}
