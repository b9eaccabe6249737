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
}
