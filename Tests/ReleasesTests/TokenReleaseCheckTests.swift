import Foundation
import Releases
import Testing
import TestSupport

/// A folder of design tokens is a release like any theme folder: checked the same way, refused
/// naming the file as the release holds it.
@Suite("token folders as releases")
struct TokenReleaseCheckTests {
    @Test("a token folder passes the check with every file; a broken one is refused naming its file, no scratch path")
    func tokenFolders() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(#"{"color": {"$type": "color", "a": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0]}}}}"#, to: "ds/base.tokens.json")
        fixtures.write(#"{"version": "2025.10", "resolutionOrder": [{"type": "set", "name": "s", "sources": [{"$ref": "base.tokens.json"}]}]}"#,
                       to: "ds/ds.resolver.json")
        let files = try ThemeCheck.files(of: fixtures.path("ds"), theme: "ds", parents: .folder)
        #expect(files.map(\.path).sorted() == ["base.tokens.json", "ds.resolver.json"])

        fixtures.write(#"{"color": "#, to: "ds/base.tokens.json")
        #expect { try ThemeCheck.files(of: fixtures.path("ds"), theme: "ds", parents: .folder) } throws: { error in
            let text = "\(error)"
            return text.contains("base.tokens.json is not JSON") && !text.contains("themed-publish-")
        }
    }

    @Test("with contrast policy refuse, a release whose own pair is below its minimum is refused naming pair, mode and ratio")
    func contrastRefusal() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.write(##"{"text": {"$type": "color", "$value": "#777777"}, "surface": {"$type": "color", "$value": "#FFFFFF"}}"##, to: "app/colors.tokens.json")
        fixtures.write(#"{"contrast": {"pairs": [{"foreground": "text", "background": "surface"}], "policy": "refuse"}}"#, to: "app/theme.json")
        #expect { try ThemeCheck.files(of: fixtures.path("app"), theme: "app", parents: .folder) } throws: { error in
            "\(error)".contains("contrast: text over surface in light: 4.48:1, below 4.5") && "\(error)".contains("policy is refuse")
        }
        // Warned, not refused, by default; and a pair that passes is released.
        fixtures.write(#"{"contrast": {"pairs": [{"foreground": "text", "background": "surface"}]}}"#, to: "app/theme.json")
        #expect(try ThemeCheck.files(of: fixtures.path("app"), theme: "app", parents: .folder).count == 2)
        fixtures.write(##"{"text": {"$type": "color", "$value": "#767676"}, "surface": {"$type": "color", "$value": "#FFFFFF"}}"##, to: "app/colors.tokens.json")
        fixtures.write(#"{"contrast": {"pairs": [{"foreground": "text", "background": "surface"}], "policy": "refuse"}}"#, to: "app/theme.json")
        #expect(try ThemeCheck.files(of: fixtures.path("app"), theme: "app", parents: .folder).count == 2)
    }
}

