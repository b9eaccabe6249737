import Foundation
import Releases
import Testing
import TestSupport

/// The check indexes the theme folder where it is, through a link in a scratch themes folder:
/// what it leaves behind is what it was given, and what it refuses is named as it was given.
@Suite("the release check of a theme folder")
struct ThemeCheckTests {
    /// Every file under `folder` with its bytes.
    static func contents(of folder: String) throws -> [String: Data] {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: folder)
        var contents: [String: Data] = [:]
        for path in paths where (try FileManager.default.attributesOfItem(atPath: "\(folder)/\(path)")[.type] as? FileAttributeType) == .typeRegular {
            contents[path] = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(path)"))
        }
        return contents
    }

    @Test("a folder checked under another theme's name is whole after a pass and after a refusal; the refusal names the file as given, never the scratch folder")
    func folderReadInPlace() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let red: [String: String] = ["red": "1.000", "green": "0.000", "blue": "0.000", "alpha": "1.000"]
        fixtures.colorSet("team folder", "primary", [(nil, red, [:])])
        fixtures.colorSet("team folder", "accent", [(nil, red, [:])])
        fixtures.write(#"{"info": {"author": "xcode", "version": 1}}"#, to: "team folder/Theme.xcassets/Contents.json")
        let folder = fixtures.path("team folder")
        let before = try Self.contents(of: folder)

        let files = try ThemeCheck.files(of: folder, theme: "brand", parents: .folder)
        #expect(Set(files.map(\.path)) == Set(before.keys))
        #expect(try Self.contents(of: folder) == before, "removing the scratch folder removed its link, not what it pointed at")

        fixtures.write("{not JSON", to: "team folder/Theme.xcassets/accent.colorset/Contents.json")
        let broken = try Self.contents(of: folder)
        for (shownAs, expected) in [("", "Theme.xcassets/accent.colorset/Contents.json: not valid JSON"),
                                    ("design/brand/", "design/brand/Theme.xcassets/accent.colorset/Contents.json: not valid JSON")] {
            #expect { try ThemeCheck.files(of: folder, theme: "brand", shownAs: shownAs, parents: .folder) } throws: { error in
                let text = "\(error)"
                return text.hasPrefix(expected) && !text.contains("themed-publish-") && !text.contains(fixtures.root)
            }
        }
        #expect(try Self.contents(of: folder) == broken)
    }
}
