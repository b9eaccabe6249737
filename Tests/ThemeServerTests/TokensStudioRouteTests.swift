import Foundation
import Testing
import ServiceSupport
import TestSupport

/// A Tokens Studio folder dropped into the themes folder as the plugin syncs it to git: served
/// whole (it was listed `ok` with no tokens), its theme groups as the modifiers of `/tokens`, and
/// its colours on the colour routes by the traits theme.json maps a group's themes to.
@Suite("Tokens Studio folders served")
struct TokensStudioRouteTests {
    static func studio(_ f: ThemeFixtures) {
        f.write(#"{"tokenSetOrder": ["core", "light", "dark"]}"#, to: "themes/studio/$metadata.json")
        f.write(#"""
        [{"id": "1", "name": "Light", "group": "Mode", "selectedTokenSets": {"core": "source", "light": "enabled"}},
         {"id": "2", "name": "Dark", "group": "Mode", "selectedTokenSets": {"core": "source", "dark": "enabled"}}]
        """#, to: "themes/studio/$themes.json")
        f.write(##"{"white": {"value": "#ffffff", "type": "color"}, "ink": {"value": "#111111", "type": "color"}, "unit": {"value": "4", "type": "spacing"}}"##,
                to: "themes/studio/core.json")
        f.write(#"{"surface": {"value": "{white}", "type": "color"}, "gap": {"value": "{unit} * 4", "type": "spacing"}}"#, to: "themes/studio/light.json")
        f.write(#"{"surface": {"value": "{ink}", "type": "color"}, "gap": {"value": "{unit} * 4", "type": "spacing"}}"#, to: "themes/studio/dark.json")
        f.write(#"{"traits": {"Mode": {"Light": {"appearance": "light"}, "Dark": {"appearance": "dark"}}}}"#, to: "themes/studio/theme.json")
    }

    @Test("its groups are /tokens' modifiers, its arithmetic evaluated, its colours answer by appearance, its older keys a warning")
    func served() throws {
        let api = try APIFixture(themes: Self.studio)
        let dark = try api.request("/themes/studio/tokens?Mode=Dark")
        #expect(dark.status == 200, "\(dark.text)")
        let surface = dark.json["surface"] as? [String: Any]
        #expect(((surface?["$value"] as? [String: Any])?["components"] as? [Double])?.map { ($0 * 255).rounded() } == [17, 17, 17], "\(dark.text)")
        #expect(((dark.json["gap"] as? [String: Any])?["$value"] as? [String: Any])?["value"] as? Int == 16)
        #expect(dark.json["white"] == nil, "a source set's tokens answer no request")
        let unknown = try api.request("/themes/studio/tokens?Mode=Dusk")
        #expect(unknown.status == 400 && unknown.text.contains("Light, Dark"), "\(unknown.text)")

        let color = try api.request("/themes/studio/colors/surface?appearance=dark")
        #expect(color.status == 200 && color.text.contains("#111111"), "\(color.text)")
        let byName = try api.request("/themes/studio/colors/surface?Mode=Dark")
        #expect(byName.status == 400 && byName.text.contains("chosen by the traits") && byName.text.contains("?appearance="),
                "a modifier theme.json maps to traits, named: said, not answered with the default: \(byName.text)")
        let theme = try api.request("/themes/studio").json
        #expect(theme["status"] as? String == "ok", "\(theme)")
        let modifiers = theme["modifiers"] as? [[String: Any]] ?? []
        #expect(modifiers.count == 1 && modifiers.first?["name"] as? String == "Mode" && modifiers.first?["chosenBy"] as? String == "traits"
                && modifiers.first?["contexts"] as? [String] == ["Light", "Dark"], "how a request chooses each: \(modifiers)")
        #expect((theme["warnings"] as? [String])?.contains { $0.contains("studio-keys") } == true, "\(theme)")
    }

    /// A folder as teams keep it in git: an order naming a set that is gone and omitting one that
    /// is there, a theme naming a set that is gone, themes without a group.
    static func asInGit(_ f: ThemeFixtures) {
        f.write(#"{"tokenSetOrder": ["base", "core", "light"]}"#, to: "themes/compound/$metadata.json")
        f.write(#"""
        [{"id": "1", "name": "Light", "selectedTokenSets": {"core": "source", "light": "enabled", "platform/web": "enabled"}},
         {"id": "2", "name": "Dark", "selectedTokenSets": {"core": "source", "dark": "enabled", "platform/ios": "enabled"}}]
        """#, to: "themes/compound/$themes.json")
        f.write(##"{"white": {"value": "#ffffff", "type": "color"}, "ink": {"value": "#1b1d22", "type": "color"}}"##, to: "themes/compound/core.json")
        f.write(#"{"text": {"value": "{ink}", "type": "color"}}"#, to: "themes/compound/light.json")
        f.write(#"{"text": {"value": "{white}", "type": "color"}}"#, to: "themes/compound/dark.json")
    }

    @Test("a folder as it is in git (a stale entry, an order that omits a set, themes without a group): served with warnings, one theme at a time")
    func asInGit() throws {
        let api = try APIFixture(themes: Self.asInGit)
        let theme = try api.request("/themes/compound").json
        #expect(theme["status"] as? String == "ok", "warnings only: \(theme)")
        let warnings = (theme["warnings"] as? [String] ?? []).joined(separator: "\n")
        #expect(warnings.contains("skipped: base") && warnings.contains("merged after it in file order: dark"), "\(warnings)")
        #expect(warnings.contains("2 themes have no group"), "\(warnings)")
        let light = try api.request("/themes/compound/tokens")
        #expect(light.status == 200 && light.text.contains("\"text\""), "\(light.text)")
        let byDefault = try api.request("/themes/compound/tokens/text").text, dark = try api.request("/themes/compound/tokens/text?theme=Dark").text
        #expect(byDefault.contains("0.10") || byDefault.contains("#1b1d22"), "\(byDefault)")
        #expect(byDefault != dark, "Dark is another theme of the group, not merged with Light")
        let unknown = try api.request("/themes/compound/tokens?Light=Light")
        #expect(unknown.status == 400 && unknown.text.contains("theme"), "names the modifier there is: \(unknown.text)")
    }
}
