import Foundation
import Testing
import ServiceSupport
import TestSupport

/// `GET /themes/{t}/contrast`: the pairs theme.json names, their WCAG 2.1 ratio in every mode.
@Suite("contrast route")
struct ContrastRouteTests {
    static func theme(_ f: ThemeFixtures) {
        f.colorSet("themes/app", "label", [(nil, ["red": "0.1", "green": "0.1", "blue": "0.1"], [:]), ("dark", ["red": "0.6", "green": "0.6", "blue": "0.6"], [:])])
        f.colorSet("themes/app", "background", [(nil, ["red": "1", "green": "1", "blue": "1"], [:]), ("dark", ["red": "0.2", "green": "0.2", "blue": "0.2"], [:])])
        f.write(#"{"contrast": {"pairs": [{"foreground": "label", "background": "background"}], "policy": "refuse"}}"#, to: "themes/app/theme.json")
    }

    @Test("each pair in each mode with its ratio; the dark pair below 4.5 fails")
    func report() throws {
        let api = try APIFixture(themes: Self.theme)
        let response = try api.request("/themes/app/contrast")
        #expect(response.status == 200, "\(response.text)")
        let report = response.json
        #expect(report["policy"] as? String == "refuse" && report["failures"] as? Int == 3, "dark, dark high contrast, dark P3: \(response.text)")
        let modes = ((report["pairs"] as? [[String: Any]])?.first?["modes"] as? [[String: Any]]) ?? []
        #expect(modes.count == 6 && modes.first { $0["mode"] as? String == "dark" }?["ratio"] as? Double == 4.43, "\(modes)")
        #expect(modes.first { $0["mode"] as? String == "light" }?["passes"] as? Bool == true)
    }

    @Test("policy refuse: a reload whose edit takes a pair below its minimum where it was not keeps the last good generation and says why; warn takes it")
    func reloadRefuses() throws {
        let api = try APIFixture(themes: Self.theme)
        let before = try api.request("/themes/app/colors/label").decode(ColorBody.self).hex
        let generation = try api.request("/themes/app").json["generation"] as? Int
        // Dark already fails (4.43:1) and stays served; the edit makes light fail too.
        api.fixtures.colorSet("themes/app", "label", [(nil, ["red": "0.7", "green": "0.7", "blue": "0.7"], [:]), ("dark", ["red": "0.6", "green": "0.6", "blue": "0.6"], [:])])
        let report = try api.service.reload()
        let problem = report.themeErrors.first { $0.theme == "app" }?.message ?? ""
        #expect(problem.contains("contrast: label over background in light: 2.") && problem.contains("below 4.5") && problem.contains("last good generation"),
                "\(report.themeErrors)")
        #expect(try api.request("/themes/app/colors/label").decode(ColorBody.self).hex == before, "the edit is not served")
        #expect(try api.request("/themes/app").json["generation"] as? Int == generation)
        #expect(try api.request("/themes/app").text.contains("contrast policy refuse"))

        // Mended: taken, and the theme's error goes.
        api.fixtures.colorSet("themes/app", "label", [(nil, ["red": "0.2", "green": "0.2", "blue": "0.2"], [:]), ("dark", ["red": "0.6", "green": "0.6", "blue": "0.6"], [:])])
        _ = try api.service.reload()
        #expect(try api.request("/themes/app/colors/label").decode(ColorBody.self).hex == "#333333FF")
        #expect(try !api.request("/themes/app").text.contains("contrast policy refuse"))

        // With the default policy (warn) the same edit is served, and reported by the route.
        api.fixtures.write(#"{"contrast": {"pairs": [{"foreground": "label", "background": "background"}]}}"#, to: "themes/app/theme.json")
        api.fixtures.colorSet("themes/app", "label", [(nil, ["red": "0.7", "green": "0.7", "blue": "0.7"], [:]), ("dark", ["red": "0.6", "green": "0.6", "blue": "0.6"], [:])])
        let warned = try api.service.reload()
        #expect(!warned.themeErrors.contains { $0.theme == "app" }, "\(warned.themeErrors)")
        #expect(try api.request("/themes/app/colors/label").decode(ColorBody.self).hex == "#B3B3B3FF")
        #expect(try api.request("/themes/app/contrast").json["failures"] as? Int == 6)
    }

    @Test("a Material theme checks each onX over X by default, and every one passes in every mode")
    func materialPairs() throws {
        let api = try APIFixture { f in f.write(##"{"material": {"seed": "#6750A4", "variant": "vibrant"}}"##, to: "themes/m3/theme.json") }
        let report = try api.request("/themes/m3/contrast").json
        let pairs = (report["pairs"] as? [[String: Any]]) ?? []
        let names = Set(pairs.map { "\($0["foreground"] as? String ?? "") over \($0["background"] as? String ?? "")" })
        #expect(names.isSuperset(of: ["onPrimary over primary", "onPrimaryContainer over primaryContainer", "onSurface over surface",
                                      "onErrorContainer over errorContainer", "onTertiaryFixed over tertiaryFixed", "onBackground over background"]), "\(names.sorted())")
        #expect(!names.contains("onPrimaryFixedVariant over primaryFixedVariant"), "no such role")
        #expect(report["failures"] as? Int == 0, "\(pairs.filter { $0["passes"] as? Bool == false })")
    }
}

