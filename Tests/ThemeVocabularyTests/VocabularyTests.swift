import Testing
import ThemeVocabulary

/// The vocabulary owns every name, code and parse of a trait or format; each layer asks it.
@Suite("vocabulary")
struct VocabularyTests {
    @Test("formats are recognised by their first bytes", arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0], ImageFormat.jpeg),
        (Array("GIF89a..".utf8), .gif),
        (Array("RIFF\0\0\0\0WEBPVP8 ".utf8), .webp),
        ([0, 0, 0, 24] + Array("ftypheic".utf8), .heic),
        ([0, 0, 0, 28] + Array("ftypavif".utf8), .avif),
        (Array("%PDF-1.4".utf8), .pdf),
        (Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
        (Array("bplist00".utf8), .binaryPlist),
    ] as [([UInt8], ImageFormat)])
    func sniffs(bytes: [UInt8], format: ImageFormat) {
        #expect(ImageFormat.sniff(bytes) == format)
    }

    @Test("unknown bytes are not given a format")
    func sniffsNothing() {
        #expect(ImageFormat.sniff(Array("hello".utf8)) == nil)
        #expect(ImageFormat.sniff([]) == nil)
    }

    @Test("a code prints its name, or its number when it has none; names parse back")
    func namedCodes() {
        #expect(Idiom.pad.description == "pad")
        #expect(Idiom(42).description == "42")
        #expect(Idiom(name: "vision") == .vision)
        #expect(Idiom(requestName: "iphone") == .phone)
        #expect(Idiom(requestName: "toaster") == nil)
        #expect(Idiom(assetCatalogName: "watch-marketing") == .marketing)
        #expect(Idiom(assetCatalogName: "unknown-device") == .universal)
        #expect(Idiom(deviceSuffix: "appletv") == .tv)
        #expect(Idiom.mac.platformSuffix == "macos")
        #expect(CSILayout(1009).description == "Color")
        #expect(TLVType.internalLink.rawValue == 1010)
        #expect(Gamut(requestName: "Display-P3") == .displayP3)
        #expect(Gamut.displayP3.name == "p3")
        #expect(LayoutDirection(requestName: "right-to-left")?.opposite == .leftToRight)
        #expect(SizeClass(name: "compact") == .compact)
    }

    @Test("colour spaces: stored names read back to the same id, unknown ids included")
    func colorSpaces() {
        for id in 0...9 {
            #expect(ColorSpace(storedName: ColorSpace(id).name) == ColorSpace(id))
        }
        #expect(ColorSpace(assetCatalogName: "gray-gamma-22") == .gray)
        #expect(ColorSpace(assetCatalogName: "adobe-rgb") == .sRGB)
        #expect(ColorSpace(storedName: "cmyk") == nil)
    }

    @Test("appearances: catalog, request and Contents.json names meet in one value")
    func appearances() {
        #expect(Appearance(name: "UIAppearanceHighContrastDark") == Appearance(.dark, highContrast: true))
        #expect(Appearance(name: "NSAppearanceNameAccessibilityHighContrastAqua") == Appearance(.light, highContrast: true))
        #expect(Appearance(name: "Graphite").luminosity == .other)
        #expect(Appearance(luminosityName: "dark", contrastName: "high")?.uiKitName == "UIAppearanceHighContrastDark")
        #expect(Appearance(luminosityName: "dim", contrastName: nil) == nil)
        #expect(Appearance(.dark, highContrast: true).label == "dark+high-contrast")
    }

    @Test("scales and memory classes parse as requests and Contents.json write them")
    func scalesAndMemory() {
        #expect(Scale.parse("2x") == 2)
        #expect(Scale.parse("3") == 3)
        #expect(Scale.parse("4x") == nil)
        #expect(Scale.parseAssetCatalogName("2") == nil)
        #expect(MemoryClass(3).gigabytes == 4)
        #expect(MemoryClass(4).gigabytes == 3)
        #expect(MemoryClass(0).gigabytes == 0)
        #expect(MemoryClass.parseGigabytes("4GB") == 4)
    }

    @Test("a colour prints as hex and CSS in its own space; NaN and infinity from a crafted file become 0")
    func colorForms() {
        let orange = ColorValue(colorSpace: .sRGB, components: [1, 0.584, 0, 1])
        #expect(orange.hex == "#FF9500FF")
        #expect(orange.css == "rgb(255 149 0 / 1)")
        #expect(ColorValue(colorSpace: .displayP3, components: [1, 0.5, 0, 0.25]).css == "color(display-p3 1 0.5 0 / 0.25)")
        #expect(ColorValue(colorSpace: .gray, components: [0.5, 1]).css == "rgb(128 128 128 / 1)")
        #expect(ColorValue(colorSpace: .extendedSRGB, components: [1.25, -0.5, 0, 1]).css == "color(srgb 1.25 -0.5 0 / 1)")
        let crafted = ColorValue(colorSpace: .sRGB, components: [.nan, .infinity, -.infinity, 1])
        #expect(crafted.components == [0, 0, 0, 1])
        #expect(crafted.hex == "#000000FF" && crafted.css == "rgb(0 0 0 / 1)")
        #expect(ColorValue(colorSpace: .extendedSRGB, components: [1e300, 0, 0, 1]).css == "color(srgb 1e+300 0 0 / 1)")
        // Channels: gray expanded, a missing alpha 1; clipped for rgba and hex, as stored for CSS.
        let gray = ColorValue(colorSpace: .gray, components: [0.5, 0.25])
        #expect(gray.rgba == [0.5, 0.5, 0.5, 0.25] && gray.unclippedRGBA == [0.5, 0.5, 0.5, 0.25] && gray.hex == "#80808040")
        let extended = ColorValue(colorSpace: .extendedSRGB, components: [1.25, -0.5, 0])
        #expect(extended.rgba == [1, 0, 0, 1] && extended.unclippedRGBA == [1.25, -0.5, 0, 1] && extended.hex == "#FF0000FF")
        let five = ColorValue(colorSpace: .sRGB, components: [0.2, 0.4, 0.6, 0.8, 1])
        #expect(five.rgba == [0, 0, 0, 1] && five.hex == "#000000FF" && five.unclippedRGBA == [0.2, 0.4, 0.6, 0.8])
        let one = ColorValue(colorSpace: .gray, components: [0.5])
        #expect(one.rgba == [0, 0, 0, 1] && one.unclippedRGBA == nil && one.css.isEmpty && one.hex == "#000000FF")
    }

    @Test("a kept generation's folder is theme@generation; nothing else reads as one, and no theme is named so")
    func pinnedNames() {
        #expect(ThemeName.pinned("brand-acme", generation: 43) == "brand-acme@43")
        #expect(ThemeName.pin(in: "brand-acme@43")?.theme == "brand-acme" && ThemeName.pin(in: "brand-acme@43")?.generation == 43)
        for name in ["brand-acme", "brand@", "@43", "brand@0", "brand@-1", "brand@4x", "br/and@4", ".brand@4", "brand@43@44",
                     "brand@1234567890123456789", "brand@+4", "brand@４"] {
            #expect(ThemeName.pin(in: name) == nil, "\(name)")
        }
        #expect(!ThemeName.isValid("brand-acme@43"), "a theme cannot take a kept generation's name")
    }

    @Test("a path's folder as typed, on the short names Foundation traps on")
    func foldersOfPaths() {
        let cases = ["b": "", ".": "", "b/": "", "é": "", "index.sqlite": "", "/b": "/", "/": "/", "//b": "/",
                     "var/themed.sqlite": "var", "a/b/": "a", "a//b": "a", "/srv/themed/i": "/srv/themed", "": ""]
        for (path, folder) in cases {
            #expect(FilePaths.folder(of: path) == folder, "\(path)")
            #expect(FilePaths.directory(of: path) == (folder.isEmpty ? "." : folder), "\(path)")
        }
    }
}
