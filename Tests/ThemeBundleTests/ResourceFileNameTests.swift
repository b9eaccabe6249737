import Testing
import ThemeVocabulary
import ThemeBundle

/// The file-name grammar of lookup-rules.md 3.1.
@Suite("resource file names")
struct ResourceFileNameTests {
    @Test("modifiers in the grammar's order", arguments: [
        ("icon.png", "icon", 1, "", "", "png"),
        ("icon@2x.png", "icon", 2, "", "", "png"),
        ("icon@1x.png", "icon", 1, "", "", "png"),
        ("icon@3x~iphone.PNG", "icon", 3, "", "iphone", "png"),
        ("icon@2x-iphoneos~ipad.png", "icon", 2, "iphoneos", "ipad", "png"),
        ("icon-macosx.pdf", "icon", 1, "macos", "", "pdf"),
        ("icon~ipad@2x.png", "icon~ipad@2x", 1, "", "", "png"),
        ("icon~ipod.png", "icon~ipod", 1, "", "", "png"),
        ("Default-568h@2x.png", "Default-568h", 2, "", "", "png"),
        ("my-icon@4x.png", "my-icon@4x", 1, "", "", "png"),
        ("photo.tar.gz", "photo.tar", 1, "", "", "gz"),
    ])
    func parse(_ file: String, _ base: String, _ scale: Int, _ platform: String, _ device: String, _ ext: String) throws {
        let name = try #require(ResourceFileName(file))
        #expect(name == ResourceFileName(base: base, scale: scale, platform: platform, device: device, pathExtension: ext))
    }

    @Test("names without an extension are not resources")
    func noExtension() {
        #expect(ResourceFileName("README") == nil)
        #expect(ResourceFileName(".hidden") == nil)
    }

    @Test("device suffixes map to idioms; idioms to platform suffixes")
    func idioms() {
        #expect(ResourceFileName("a~ipad.png")?.idiom == .pad)
        #expect(ResourceFileName("a~applewatch.png")?.idiom == .watch)
        #expect(Idiom.pad.platformSuffix == "iphoneos")
        #expect(Idiom.mac.platformSuffix == "macos")
        #expect(Idiom.universal.platformSuffix == "")
    }
}
