import BinaryReading
import Codecs
import Foundation
import Hashing
import Testing
import ServiceSupport
import TestSupport

/// The asset-catalog and theme examples of ../shared/docs/lookup-rules.md (7.1, 7.4) against the
/// API's handler: each example is a theme of its own, built as an `.xcassets` folder, indexed,
/// and asked with the example's traits as query parameters; answers are decoded as typed bodies.
/// (The loose-file and localization examples are in BundleLookupTests.)
@Suite("lookup examples", .serialized)
struct LookupExamplesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var id: String
        var query: String
        var color = false
        /// Contents.json entries of an image set (or a colour set's extra keys; `appearance`).
        var variants: [[String: String]]
        /// Index into `variants`, or nil for a 404.
        var expected: Int?
        var testDescription: String { id }
    }

    static let examples: [Example] = [
        Example(id: "C1 exact scale", query: "idiom=phone&scale=2", variants: [["scale": "1x"], ["scale": "2x"], ["scale": "3x"]], expected: 1),
        Example(id: "C2 lower scales first", query: "idiom=phone&scale=3", variants: [["scale": "1x"], ["scale": "2x"]], expected: 1),
        Example(id: "C3 every lower scale before any higher", query: "idiom=phone&scale=2", variants: [["scale": "1x"], ["scale": "3x"]], expected: 0),
        Example(id: "C4 nearest higher", query: "idiom=phone&scale=1", variants: [["scale": "2x"], ["scale": "3x"]], expected: 0),
        Example(id: "C5 phone never answers pad", query: "idiom=pad&scale=2", variants: [["scale": "2x"], ["scale": "2x", "idiom": "iphone"]], expected: 0),
        Example(id: "C6 scale outranks idiom", query: "idiom=pad&scale=2", variants: [["scale": "2x"], ["scale": "1x", "idiom": "ipad"]], expected: 0),
        Example(id: "C7 scale 1 before scale 3", query: "idiom=pad&scale=2", variants: [["scale": "1x", "idiom": "ipad"], ["scale": "3x"]], expected: 0),
        Example(id: "C8 universal accepts only universal", query: "idiom=universal&scale=2",
                variants: [["scale": "2x", "idiom": "iphone"], ["scale": "2x", "idiom": "ipad"]], expected: nil),
        Example(id: "C9 exact appearance", query: "idiom=phone&scale=2&appearance=dark", variants: [["scale": "2x"], ["scale": "2x", "appearance": "dark"]], expected: 1),
        Example(id: "C10 light never answers dark", query: "idiom=phone&scale=2&appearance=dark", variants: [["scale": "2x"], ["scale": "2x", "appearance": "light"]], expected: 0),
        Example(id: "C11 appearance outranks scale", query: "idiom=phone&scale=3&appearance=dark", variants: [["scale": "3x"], ["scale": "1x", "appearance": "dark"]], expected: 1),
        Example(id: "C12 no appearance means light", query: "idiom=phone&scale=2",
                variants: [["scale": "2x"], ["scale": "2x", "appearance": "light"], ["scale": "2x", "appearance": "dark"]], expected: 1),
        Example(id: "C13 any accepts only any", query: "idiom=phone&scale=2&appearance=any",
                variants: [["scale": "2x", "appearance": "light"], ["scale": "2x", "appearance": "dark"]], expected: nil),
        Example(id: "C14 dark+hc chain", query: "idiom=phone&scale=2&appearance=dark&contrast=high", variants: [[:], ["appearance": "dark"], ["appearance": "high"]], expected: 1),
        Example(id: "C15 high contrast before plain any", query: "idiom=phone&scale=2&appearance=dark&contrast=high", variants: [[:], ["appearance": "high"]], expected: 1),
        Example(id: "C16 dark never answers light", query: "idiom=phone&scale=2&appearance=light&contrast=high",
                variants: [[:], ["appearance": "dark+high"], ["appearance": "light"]], expected: 2),
        Example(id: "C17 macOS names follow the same chain", query: "idiom=mac&scale=2&appearance=NSAppearanceNameAccessibilityHighContrastDarkAqua",
                variants: [[:], ["appearance": "dark"]], expected: 1),
        Example(id: "C18 vision ignores luminosity", query: "idiom=vision&scale=2&appearance=dark", variants: [[:], ["appearance": "dark"]], expected: 0),
        Example(id: "C19 exact gamut", query: "idiom=phone&gamut=p3", color: true, variants: [[:], ["display-gamut": "display-P3"]], expected: 1),
        Example(id: "C20 P3 falls back to sRGB", query: "idiom=phone&gamut=p3", color: true, variants: [[:]], expected: 0),
        Example(id: "C21 sRGB accepts P3 as last resort", query: "idiom=phone&gamut=srgb", color: true, variants: [["display-gamut": "display-P3"]], expected: 0),
        Example(id: "C22 gamut outranks idiom", query: "idiom=pad&scale=2&gamut=p3",
                variants: [["scale": "2x", "idiom": "ipad"], ["scale": "2x", "display-gamut": "display-P3"]], expected: 1),
        Example(id: "C23 size-class chain", query: "idiom=phone&scale=2&widthClass=compact&heightClass=regular",
                variants: [["scale": "2x"], ["scale": "2x", "width-class": "compact"], ["scale": "2x", "height-class": "regular"]], expected: 1),
        Example(id: "C24 idiom outranks size class", query: "idiom=pad&scale=2&widthClass=regular&heightClass=regular",
                variants: [["scale": "2x", "idiom": "ipad"], ["scale": "2x", "width-class": "regular", "height-class": "regular"]], expected: 0),
        Example(id: "C25 subtype outranks scale", query: "idiom=phone&scale=3&subtype=2436",
                variants: [["scale": "3x"], ["scale": "2x", "idiom": "iphone", "subtype": "2436h"]], expected: 1),
        Example(id: "C26 retina4 is 568", query: "idiom=phone&scale=2&subtype=568",
                variants: [["scale": "2x", "idiom": "iphone", "subtype": "retina4"], ["scale": "2x", "idiom": "iphone"]], expected: 0),
        Example(id: "C27 largest memory class not above the request", query: "idiom=phone&scale=2&memory=4GB", variants: [["memory": "2GB"], [:]], expected: 0),
        Example(id: "C28 never a larger memory class", query: "idiom=phone&scale=2&memory=2", variants: [["memory": "4GB"], [:]], expected: 1),
        Example(id: "C29 the opposite direction before none", query: "idiom=phone&scale=2&direction=rtl",
                variants: [["scale": "2x", "language-direction": "left-to-right"]], expected: 0),
        Example(id: "C30 exact direction", query: "idiom=phone&scale=2&direction=rtl",
                variants: [["scale": "2x"], ["scale": "2x", "language-direction": "right-to-left"]], expected: 1),
        Example(id: "C31 localization by language code", query: "idiom=phone&scale=2&lang=fr-CA", variants: [["scale": "2x"], ["scale": "2x", "locale": "fr"]], expected: 1),
        Example(id: "C32 no matching localization: unlocalized", query: "idiom=phone&scale=2&lang=ja",
                variants: [["scale": "2x"], ["scale": "2x", "locale": "fr"]], expected: 0),
        Example(id: "C33 explicit scales before scale-less", query: "idiom=phone&scale=2", variants: [[:], ["scale": "1x"]], expected: 1),
        Example(id: "C34 scale-less as last resort", query: "idiom=phone&scale=2", variants: [[:]], expected: 0),
        Example(id: "C35 colours ignore scale", query: "idiom=phone&scale=3&appearance=dark", color: true, variants: [["appearance": "dark"], [:]], expected: 0),
    ]

    static func themeName(_ id: String) -> String { String(id.prefix { $0 != " " }).lowercased() }

    /// One API for every example; colour variants are told apart by their red component
    /// (variant i has red i), images by their bytes (`variant i`).
    static func api() throws -> APIFixture {
        try APIFixture(themes: { f in
            for example in examples {
                let theme = "themes/\(themeName(example.id))"
                if example.color {
                    f.colorSet(theme, "tint", example.variants.enumerated().map { index, entry in
                        (entry["appearance"], ["red": "\(index)", "green": "0", "blue": "0", "alpha": "1"], entry.filter { $0.key != "appearance" })
                    })
                } else {
                    f.imageSet(theme, "icon", example.variants)
                }
            }
        })
    }

    @Test("asset catalog examples C1-C35", arguments: examples)
    func example(_ example: Example) throws {
        let api = try Self.api()
        let theme = Self.themeName(example.id)
        let response = try api.request("/themes/\(theme)/\(example.color ? "colors/tint" : "images/icon")?\(example.query)")
        guard let expected = example.expected else {
            #expect(response.status == 404, "\(response.text)")
            #expect(try response.decode(ErrorBody.self).error.code == "not_found")
            return
        }
        #expect(response.status == 200, "\(response.text)")
        if example.color {
            #expect(try response.decode(ColorBody.self).components.first == Double(expected))
        } else {
            #expect(response.body.dropFirst(8).elementsEqual("variant \(expected)".utf8))
        }
    }

    @Test("C29 drawn mirrored: a flippable left-to-right image answers a right-to-left request mirrored")
    func mirroredForOppositeDirection() throws {
        // A 3x1 image: red, green, blue (premultiplied BGRA, opaque).
        let bitmap = Bitmap(width: 3, height: 1, layout: .bgra8, pixels: [0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255])
        let api = try APIFixture(themes: { f in
            f.write(PNG.encode(bitmap), to: "themes/t/Theme.xcassets/arrow.imageset/arrow.png")
            f.writeJSON(["images": [["idiom": "universal", "scale": "2x", "filename": "arrow.png", "language-direction": "left-to-right"]]],
                        to: "themes/t/Theme.xcassets/arrow.imageset")
        })
        let rtl = try api.request("/themes/t/images/arrow?scale=2&direction=rtl")
        #expect(rtl.status == 200)
        #expect(try PNG.decode(ByteSpan(copying: rtl.body)) == bitmap.mirroredHorizontally())
        #expect(rtl.header("X-Themed-Variant")?.contains("mirrored") == true)
        #expect(rtl.header("ETag") == "\"\(ContentHash.of(rtl.body).hex)\"", "the ETag names the mirrored bytes sent")
        let ltr = try api.request("/themes/t/images/arrow?scale=2&direction=ltr")
        #expect(try PNG.decode(ByteSpan(copying: ltr.body)) == bitmap)
        #expect(ltr.header("ETag") != rtl.header("ETag"))
        let metadata = try api.request("/themes/t/images/arrow.json?scale=2&direction=rtl").decode(ImageMetadataBody.self)
        #expect(metadata.mirrored)
        #expect(metadata.fallbacks == ["appearance:any", "direction:ltr"])
    }

    @Test("theme examples T1-T4 and T7: the nearest theme with an acceptable variant; broken chains are the theme's own error")
    func themeExamples() throws {
        let api = try APIFixture(themes: { f in
            f.write("{\"parent\": \"base\"}", to: "themes/child/theme.json")
            f.colorSet("themes/child", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
            f.colorSet("themes/child", "secondary", [("dark", ["red": "1", "green": "0", "blue": "0"], [:])])
            f.imageSet("themes/child", "icon", [["scale": "1x"]])
            f.colorSet("themes/base", "primary", [(nil, ["red": "0", "green": "0", "blue": "0"], [:]), ("dark", ["red": "0.5", "green": "0", "blue": "0"], [:])])
            f.colorSet("themes/base", "secondary", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
            f.colorSet("themes/base", "accent", [(nil, ["red": "0.25", "green": "0", "blue": "0"], [:])])
            f.imageSet("themes/base", "icon", [["scale": "2x"]])
            f.write("{\"parent\": \"loop-b\"}", to: "themes/loop-a/theme.json")
            f.write("{\"parent\": \"loop-a\"}", to: "themes/loop-b/theme.json")
            f.colorSet("themes/loop-a", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        })
        func colorSource(_ target: String) throws -> String {
            try api.request(target).decode(ColorBody.self).source.theme
        }
        #expect(try colorSource("/themes/child/colors/primary") == "child", "T1 the child owns the name")
        #expect(try colorSource("/themes/child/colors/secondary") == "base", "T2 dark-only child: light comes from the parent")
        #expect(try colorSource("/themes/child/colors/secondary?appearance=dark") == "child")
        #expect(try colorSource("/themes/child/colors/accent") == "base", "T3 a miss falls through")
        let icon = try api.request("/themes/child/images/icon.json?scale=2").decode(ImageMetadataBody.self)
        #expect(icon.source.theme == "child", "T4 nearest theme, worse scale")
        #expect(icon.chosen.scale == 1)
        let loop = try api.request("/themes/loop-a/colors/primary")
        #expect(loop.status == 503, "T7 a cycle is a load error for that theme")
        let error = try loop.decode(ErrorBody.self).error
        #expect(error.code == "theme_error")
        #expect(error.message.contains("loops"))
        #expect(try api.request("/themes/child/colors/primary").status == 200, "other themes still serve")
    }
}
