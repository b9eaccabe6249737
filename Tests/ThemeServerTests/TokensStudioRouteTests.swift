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
        let theme = try api.request("/themes/studio").json
        #expect(theme["status"] as? String == "ok", "\(theme)")
        #expect((theme["warnings"] as? [String])?.contains { $0.contains("studio-keys") } == true, "\(theme)")
    }
}
