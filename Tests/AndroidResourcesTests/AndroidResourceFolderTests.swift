import BinaryReading
import BlobStore
import Codecs
import Foundation
import Testing
import TestSupport
@testable import AndroidResources
import ThemeContent
import ThemeExport
import ThemeIndex

/// `themed export --format android` as an Android build sees it (issue 46); `aapt` checks the
/// folders in `make exports-check`.
@Suite("Android resource folders")
struct AndroidResourceFolderTests {
    static let sampleThemes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("themes").path

    /// The sample theme `brand` (a bundle with strings, plurals and localized images; a child of
    /// light, whose logo has dark variants and whose star is an SVG) as a resource folder.
    func brand() throws -> (AndroidResourceFolder, ThemeFixtures) {
        let fixtures = ThemeFixtures()
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.writer.sync(themesDirectory: Self.sampleThemes)
        let chain = try ThemeInfo.chain(of: "brand", in: index.reader.themes())
        let content = ContentStore(blobs: try BlobStore(directory: fixtures.path("blobs")))
        let folder = try AndroidResourceFolder(chain: chain, colors: ColorTable(reading: index.reader, chain: chain), reader: index.reader, content: content)
        return (folder, fixtures)
    }

    func width(_ file: AndroidResourceFolder.File?) -> Int? {
        file.flatMap { try? PNG.decode(ByteSpan(copying: $0.bytes)).width }
    }

    @Test("drawables at the five densities, sized from points: a bitmap resized from its best scale, a vector drawn; night and locale folders only where they differ")
    func drawables() throws {
        let (folder, fixtures) = try brand()
        defer { fixtures.remove() }
        func file(_ path: String) -> AndroidResourceFolder.File? { folder.files.first { $0.path == path } }
        // logo: 32 x 32 points; star: a 24 pt SVG.
        for (density, scale) in [("mdpi", 1.0), ("hdpi", 1.5), ("xhdpi", 2), ("xxhdpi", 3), ("xxxhdpi", 4)] {
            #expect(width(file("drawable-\(density)/logo.png")) == Int(32 * scale), "logo at \(density)")
            #expect(width(file("drawable-night-\(density)/logo.png")) == Int(32 * scale), "the dark logo at \(density)")
            #expect(width(file("drawable-\(density)/star.png")) == Int(24 * scale), "star at \(density)")
            #expect(file("drawable-night-\(density)/star.png") == nil, "the star has no dark variant: no night copy")
            #expect(file("drawable-fr-\(density)/flag.png") != nil && file("drawable-fr-\(density)/logo.png") == nil,
                    "only the flag is localized")
        }
        #expect(file("drawable-xhdpi/logo.png")?.bytes != file("drawable-night-xhdpi/logo.png")?.bytes)
        #expect(folder.problems.isEmpty, "\(folder.problems)")
    }

    @Test("strings: the development region whole in values/, each localization's own in values-<locale>/, plurals from the stringsdict")
    func strings() throws {
        let (folder, fixtures) = try brand()
        defer { fixtures.remove() }
        func text(_ path: String) -> String { folder.files.first { $0.path == path }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "" }
        let english = text("values/strings.xml"), french = text("values-fr/strings.xml")
        #expect(english.contains(#"<string name="sign_out">Sign out</string>"#) && english.contains(#"<item quantity="one">%d new message</item>"#))
        #expect(french.contains(#"<string name="welcome">Bienvenue</string>"#) && french.contains(#"<item quantity="other">%d nouveaux messages</item>"#))
        #expect(!french.contains("sign_out"), "a key French does not translate falls back to values/, as Android does")
        #expect(folder.files.contains { $0.path == "values/colors.xml" } && folder.files.contains { $0.path == "values-night/colors.xml" })
    }

    @Test("locales become Android's qualifiers", arguments: [
        ("fr", "fr"), ("fr-CA", "fr-rCA"), ("fr_CA", "fr-rCA"), ("zh-Hans", "b+zh+Hans"), ("zh_TW", "b+zh+Hant+TW"), ("es-419", "b+es+419"),
        ("English", "en"), ("Base", nil), ("x", nil),
    ] as [(String, String?)])
    func qualifiers(_ localization: String, _ expected: String?) {
        #expect(AndroidLocale.qualifier(localization) == expected)
    }

    @Test("values are escaped for aapt, and Apple's format specifiers become Java's, numbered when there are several", arguments: [
        ("It's \"here\"", #"It\'s \"here\""#), ("a < b & c", "a &lt; b &amp; c"), ("@home", #"\@home"#), ("?", #"\?"#),
        ("line\nbreak", #"line\nbreak"#), ("back\\slash", #"back\\slash"#),
        ("%@ sent %ld files", "%1$s sent %2$d files"), ("%1$@ and %2$@", "%1$s and %2$s"), ("%d%% done", "%d%% done"),
        ("100% sure", "100% sure"), ("%lu left, %@", "%1$d left, %2$s"), ("%.1f km", "%.1f km"),
    ])
    func escaping(_ value: String, _ expected: String) {
        #expect(AndroidString.escaped(value) == expected)
    }
}
