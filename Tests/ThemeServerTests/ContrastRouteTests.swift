import Foundation
import Testing
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
}
