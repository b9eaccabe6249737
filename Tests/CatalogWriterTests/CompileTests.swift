import AssetCatalog
import BinaryReading
import CatalogWriter
import Codecs
import Foundation
import Testing
import TestSupport
import ThemeIndex

/// `themed compile`: catalogs written from .xcassets read back with the same names, traits,
/// colour components and pixels, and share the structure of Xcode's catalogs of the same era.
@Suite("compile")
struct CompileTests {
    /// A gradient with translucent pixels, so that premultiplication is exercised.
    static func bitmap(size: Int, seed: Int) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<size {
            for x in 0..<size {
                let alpha = (x * 255 / max(size - 1, 1) + seed) % 256
                pixels += [UInt8(y * alpha / max(size, 1) % (alpha + 1)), UInt8(alpha / 2), UInt8(alpha), UInt8(alpha)]
            }
        }
        return Bitmap(width: size, height: size, layout: .bgra8, pixels: pixels)
    }

    func makeSource(_ f: ThemeFixtures) {
        func color(_ components: [String: String], space: String = "srgb", extra: [String: Any] = [:]) -> [String: Any] {
            ["idiom": "universal", "color": ["color-space": space, "components": components]].merging(extra) { $1 }
        }
        f.writeJSON(["colors": [
            color(["red": "0.5", "green": "0x80", "blue": "128", "alpha": "1.000"]),
            color(["red": "0.1", "green": "0.2", "blue": "0.3", "alpha": "0.5"], extra: ["appearances": ThemeFixtures.appearances("dark")]),
            color(["red": "1", "green": "0", "blue": "0", "alpha": "1"], extra: ["appearances": ThemeFixtures.appearances("high")]),
            color(["red": "1.000", "green": "0.500", "blue": "-0.032", "alpha": "1.000"], space: "extended-srgb", extra: ["display-gamut": "display-P3"]),
        ]], to: "App.xcassets/brand.colorset")
        var images: [[String: Any]] = []
        for scale in 1...3 {
            let name = "icon@\(scale)x.png"
            f.write(PNG.encode(Self.bitmap(size: 8 * scale, seed: scale)), to: "App.xcassets/icon.imageset/\(name)")
            images.append(["idiom": "universal", "scale": "\(scale)x", "filename": name])
        }
        f.write(PNG.encode(Self.bitmap(size: 16, seed: 99)), to: "App.xcassets/icon.imageset/icon-pad.png")
        images.append(["idiom": "ipad", "scale": "2x", "filename": "icon-pad.png", "appearances": [["appearance": "luminosity", "value": "dark"]]])
        f.writeJSON(["images": images], to: "App.xcassets/icon.imageset")
        f.write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>\n", to: "App.xcassets/Glyphs/star.imageset/star.svg")
        f.writeJSON(["images": [["idiom": "universal", "filename": "star.svg"]]], to: "App.xcassets/Glyphs/star.imageset")
        f.writeJSON(["properties": ["provides-namespace": true]], to: "App.xcassets/Glyphs")
        f.write("{\"config\": true}", to: "App.xcassets/settings.dataset/settings.json")
        f.writeJSON(["data": [["idiom": "universal", "filename": "settings.json"]]], to: "App.xcassets/settings.dataset")
    }

    @Test("round trip: names, traits, colour components and pixels come back")
    func roundTrip() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        makeSource(f)
        try CatalogCompiler().compile(f.path("App.xcassets"), to: f.path("App.car"))
        let catalog = try AssetCatalog(path: f.path("App.car"))
        #expect(catalog.renditionErrors.isEmpty)
        #expect(Set(catalog.renditions.map(\.name)) == ["brand", "icon", "Glyphs/star", "settings"])

        let colors = catalog.namedColors
        #expect(colors.count == 4)
        let any = try #require(colors.first { catalog.appearanceName(of: $0.rendition) == "UIAppearanceAny" && $0.rendition.key.displayGamut == .sRGB })
        #expect(any.color.components == [0.5, 128.0 / 255, 128.0 / 255, 1])
        let dark = try #require(colors.first { catalog.appearanceName(of: $0.rendition) == "UIAppearanceDark" })
        #expect(dark.color.components == [0.1, 0.2, 0.3, 0.5])
        #expect(colors.contains { catalog.appearanceName(of: $0.rendition) == "UIAppearanceHighContrastAny" })
        let wide = try #require(colors.first { $0.rendition.key.displayGamut == .displayP3 })
        #expect(wide.color.colorSpace == .extendedSRGB)
        #expect(wide.color.components == [1, 0.5, -0.032, 1])

        for scale in 1...3 {
            let rendition = try #require(catalog.renditions.first { $0.name == "icon" && $0.key.scale == scale && $0.key.idiom == .universal })
            guard case .bitmap(let decoded) = try catalog.image(for: rendition) else { Issue.record("not a bitmap"); continue }
            let source = try PNG.decode(ByteSpan(copying: PNG.encode(Self.bitmap(size: 8 * scale, seed: scale))))
            #expect(decoded == source)
        }
        let pad = try #require(catalog.renditions.first { $0.name == "icon" && $0.key.idiom == .pad })
        #expect(pad.key.scale == 2 && catalog.appearanceName(of: pad) == "UIAppearanceDark")

        let star = try #require(catalog.renditions.first { $0.name == "Glyphs/star" })
        guard case .data(let svg, let format) = try catalog.image(for: star) else { Issue.record("not data"); return }
        #expect(format == .svg)
        #expect(String(decoding: svg, as: UTF8.self).hasPrefix("<svg"))
        let settings = try #require(catalog.renditions.first { $0.name == "settings" })
        #expect(settings.assetType == "Data")
    }

    @Test("the header and variables are the ones Xcode's catalogs of the same CoreUI era have")
    func structureMatchesXcode() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        makeSource(f)
        let ours = try AssetCatalog(ByteSpan(copying: try CatalogCompiler().compile(f.path("App.xcassets")), structure: "file"), path: "App.car")
        #expect(ours.header.storageVersion == 17)
        #expect(ours.header.coreUIVersion == CatalogCompiler.coreUIVersion)
        #expect(ours.header.renditionCount == ours.renditions.count)
        #expect(ours.metadata?.deploymentPlatform == "ios")
        #expect(try ours.store.variable("CARHEADER")?.count == 436)
        #expect(try ours.store.variable("EXTENDED_METADATA")?.count == 1028)
        #expect(ours.keyFormat.attributeIDs.allSatisfy { RenditionAttribute(rawValue: $0) != nil })
    }

    @Test("the trees and BITMAPKEYS match Xcode's catalog of the same CoreUI era", .needsCorpus)
    func treesMatchXcode() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        makeSource(f)
        let ours = try AssetCatalog(ByteSpan(copying: try CatalogCompiler().compile(f.path("App.xcassets")), structure: "file"), path: "App.car")
        // se2crid's catalog was written by Xcode 26 with CoreUI 969, the version we emulate.
        let xcode = try AssetCatalog(path: Corpus.path("se2crid__idevice_pair__Assets.car"))
        #expect(xcode.header.coreUIVersion == ours.header.coreUIVersion)
        #expect(xcode.header.storageVersion == ours.header.storageVersion)
        #expect(xcode.header.schemaVersion == ours.header.schemaVersion)
        #expect(Set(ours.store.vars.map(\.name)) == Set(xcode.store.vars.map(\.name)))
        for name in ["RENDITIONS", "FACETKEYS", "APPEARANCEKEYS", "BITMAPKEYS"] {
            #expect(try ours.store.block(ours.store.varBlock(name) ?? 0).count == (try xcode.store.block(xcode.store.varBlock(name) ?? 0).count), "\(name) tree header size")
        }
        // BITMAPKEYS: 1024-byte nodes and the inline-key flag, like Xcode's; one entry per facet
        // with one set per KEYFORMAT attribute, identifying attributes untracked.
        let ourBits = try #require(try ours.store.variable("BITMAPKEYS")), xcodeBits = try #require(try xcode.store.variable("BITMAPKEYS"))
        #expect(try ourBits.u32be(12) == (try xcodeBits.u32be(12)))
        #expect(try ourBits.u8(20) == (try xcodeBits.u8(20)))
        for catalog in [ours, xcode] {
            #expect(Set(catalog.bitmapKeySummaries.map(\.identifier)) == Set(catalog.facetNames.keys))
            for summary in catalog.bitmapKeySummaries {
                #expect(summary.masks.count == catalog.keyFormat.attributeIDs.count)
                for (attribute, mask) in zip(catalog.keyFormat.attributeIDs, summary.masks) where BitmapKeySummary.untrackedAttributes.contains(attribute) {
                    #expect(mask == BitmapKeySummary.untracked)
                }
            }
        }
    }

    @Test("BITMAPKEYS of a compiled catalog summarize each facet's renditions: scales, idioms, appearances")
    func bitmapKeys() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        makeSource(f)
        let catalog = try AssetCatalog(ByteSpan(copying: try CatalogCompiler().compile(f.path("App.xcassets")), structure: "file"), path: "App.car")
        let attributes = catalog.keyFormat.attributeIDs
        func mask(_ name: String, _ attribute: RenditionAttribute) throws -> UInt32 {
            let identifier = try #require(catalog.facetNames.first { $0.value == name }?.key)
            let summary = try #require(catalog.bitmapKeySummaries.first { $0.identifier == identifier })
            return summary.masks[try #require(attributes.firstIndex(of: attribute.rawValue))]
        }
        #expect(try mask("icon", .scale) == 0b1110, "1x, 2x, 3x")
        #expect(try mask("icon", .idiom) == 0b101, "universal and ipad")
        #expect(try mask("brand", .scale) == 0b1, "colours have scale 0")
        #expect(try mask("brand", .displayGamut) == 0b11, "sRGB and P3")
        #expect(try mask("brand", .appearance) == BitmapKeySummary.untracked)
        #expect(try mask("settings", .identifier) == BitmapKeySummary.untracked)
    }

    @Test("an independent reader, the reference renderer carref.py, reads a compiled catalog: every rendition, our pixels, bytes and colours", .needsReferenceTools)
    func independentReader() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        makeSource(f)
        try CatalogCompiler().compile(f.path("App.xcassets"), to: f.path("App.car"))
        let catalog = try AssetCatalog(path: f.path("App.car"))
        let records = try ReferenceTools.referenceRecords(of: f.path("App.car"), in: f.path("reference"))
        #expect(records.count == catalog.renditions.count)
        for (record, rendition) in zip(records, catalog.renditions) {
            #expect(record["status"] as? String == "ok", "\(record)")
            #expect(record["name"] as? String == rendition.name)
            if let components = record["components"] as? [Double] {
                let ours = try #require(catalog.namedColors.first { $0.rendition.index == rendition.index })
                #expect(zip(components, ours.color.components).allSatisfy { abs($0 - $1) < 1e-6 })
            } else if let digest = record["premulSha256"] as? String, case .bitmap(let bitmap) = try catalog.image(for: rendition) {
                #expect(SHA256.hex(ReferencePixels.premultipliedRGBA(bitmap)) == digest, "\(rendition.name)")
            } else if let digest = record["dataSha256"] as? String, case .data(let bytes, _) = try catalog.image(for: rendition) {
                #expect(SHA256.hex(bytes) == digest, "\(rendition.name)")
            } else {
                Issue.record("\(rendition.name): the reference gave neither colour, pixels nor data: \(record)")
            }
        }
    }

    @Test("bad sources are errors naming the file and field; nothing is left at the output")
    func badSources() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.write("{ not json", to: "Bad.xcassets/broken.colorset/Contents.json")
        #expect { try CatalogCompiler().compile(f.path("Bad.xcassets"), to: f.path("Bad.car")) } throws: { "\($0)".contains("broken.colorset/Contents.json") }
        #expect(!FileManager.default.fileExists(atPath: f.path("Bad.car")))

        f.write("not a png at all", to: "Image.xcassets/logo.imageset/logo.png")
        f.writeJSON(["images": [["idiom": "universal", "scale": "1x", "filename": "logo.png"]]], to: "Image.xcassets/logo.imageset")
        #expect { try CatalogCompiler().compile(f.path("Image.xcassets"), to: f.path("Image.car")) } throws: { "\($0)".contains("logo.png") && "\($0)".contains("filename") }
        #expect(!FileManager.default.fileExists(atPath: f.path("Image.car")))
        #expect(throws: CatalogCompiler.Failure.self) { try CatalogCompiler().compile(f.path("Missing.xcassets"), to: f.path("Missing.car")) }
    }
}

@Suite("compile: large catalogs")
struct LargeCatalogTests {
    @Test("past 510 renditions the trees get an index node with count + 1 children, and every item reads back")
    func indexNodes() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        for number in 0..<600 {
            f.writeJSON(["colors": [["idiom": "universal", "color": ["color-space": "srgb",
                "components": ["red": "\(number % 256)", "green": "0", "blue": "0", "alpha": "1"]]]]], to: "Big.xcassets/c\(number).colorset")
        }
        let bytes = try CatalogCompiler().compile(f.path("Big.xcassets"))
        let catalog = try AssetCatalog(ByteSpan(copying: bytes, structure: "file"), path: "Big.car")
        #expect(catalog.renditions.count == 600)
        #expect(Set(catalog.namedColors.map(\.rendition.name)).count == 600)
        let tree = try #require(try catalog.store.tree("RENDITIONS"))
        let root = try catalog.store.block(tree.rootBlock)
        #expect(try root.u16be(0) == 0, "the root is an index node")
        #expect(try root.u16be(2) == 1, "two leaves: one separator and the extra child")
    }
}

/// `themed compile` of a theme of design tokens: its colours as named colours with the
/// appearances its theme.json maps, read back by our reader and by the reference renderer.
@Suite("compiling design tokens")
struct TokenCompileTests {
    static func designSystem(_ f: ThemeFixtures) {
        f.write(#"""
        {"color": {"$type": "color", "systemBlue": {"$value": {"colorSpace": "srgb", "components": [0, 0.478, 1]}},
                   "wide": {"$value": {"colorSpace": "oklch", "components": [0.7, 0.3, 150]}}},
         "semantic": {"$type": "color", "bg": {"$value": "{color.systemBlue}"}}}
        """#, to: "ds/base.tokens.json")
        f.write(#"{"semantic": {"bg": {"$value": {"colorSpace": "srgb", "components": [0.1, 0.1, 0.1], "alpha": 0.5}}}}"#, to: "ds/dark.json")
        f.write(#"""
        {"version": "2025.10", "resolutionOrder": [{"type": "set", "name": "base", "sources": [{"$ref": "base.tokens.json"}]},
          {"type": "modifier", "name": "mode", "contexts": {"light": [], "dark": [{"$ref": "dark.json"}]}}]}
        """#, to: "ds/ds.resolver.json")
        f.write(#"{"traits": {"mode": {"light": {"appearance": "light"}, "dark": {"appearance": "dark"}}}}"#, to: "ds/theme.json")
    }

    @Test("named by token path, light as any and dark as dark, a wide colour with its P3 rendition; our reader and carref.py agree")
    func compileTokens() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        Self.designSystem(f)
        let (entries, problems) = try ThemeFolder.colorEntries(in: f.path("ds"))
        #expect(problems.isEmpty, "\(problems)")
        let compiler = CatalogCompiler()
        try compiler.write(try compiler.compile(entries: entries), to: f.path("ds.car"))
        let catalog = try AssetCatalog(path: f.path("ds.car"))
        let colors = catalog.namedColors
        func components(_ name: String, dark: Bool, p3: Bool = false) -> [Double]? {
            // Any is appearance 0; dark has an id of its own.
            colors.first { $0.rendition.name == name && ($0.rendition.key.appearance != 0) == dark
                && ($0.rendition.key.displayGamut == .displayP3) == p3 }?.color.components
        }
        #expect(Set(colors.map(\.rendition.name)) == ["color.systemBlue", "color.wide", "semantic.bg"])
        #expect(components("semantic.bg", dark: false).map { $0.elementsEqual([0, 0.478, 1, 1]) { abs($0 - $1) < 1e-4 } } == true)
        #expect(components("semantic.bg", dark: true).map { $0.elementsEqual([0.1, 0.1, 0.1, 0.5]) { abs($0 - $1) < 1e-4 } } == true)
        #expect(components("color.wide", dark: false, p3: true) != nil, "a colour outside sRGB has a P3 rendition")
    }

    @Test("the reference renderer carref.py reads every rendition of a compiled token catalog, with our colours",
          .enabled(if: ReferenceTools.unavailableReason == nil, "\(ReferenceTools.unavailableReason ?? "")"))
    func referenceReadsTokens() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        Self.designSystem(f)
        let compiler = CatalogCompiler()
        try compiler.write(try compiler.compile(entries: try ThemeFolder.colorEntries(in: f.path("ds")).entries), to: f.path("ds.car"))
        let catalog = try AssetCatalog(path: f.path("ds.car"))
        let records = try ReferenceTools.referenceRecords(of: f.path("ds.car"), in: f.path("reference"))
        #expect(records.count == catalog.renditions.count && records.allSatisfy { $0["status"] as? String == "ok" }, "\(records)")
        for (record, (_, color)) in zip(records, catalog.namedColors) {
            let theirs = record["components"] as? [Double] ?? []
            #expect(theirs.count == color.components.count && zip(theirs, color.components).allSatisfy { abs($0 - $1) < 1e-6 }, "\(record)")
        }
    }

    @Test("a theme with a Material seed compiles its 49 roles in light (as any) and dark, high contrast too, beneath its own tokens")
    func compileMaterialRoles() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        f.write(##"{"material": {"seed": "#6750A4"}}"##, to: "m3/theme.json")
        f.write(##"{"primary": {"$type": "color", "$value": "#123456"}}"##, to: "m3/own.tokens.json")
        let (entries, problems) = try ThemeFolder.colorEntries(in: f.path("m3"))
        #expect(problems.isEmpty, "\(problems)")
        let compiler = CatalogCompiler()
        try compiler.write(try compiler.compile(entries: entries), to: f.path("m3.car"))
        let colors = try AssetCatalog(path: f.path("m3.car")).namedColors
        #expect(Set(colors.map(\.rendition.name)).count == 49, "48 roles and the theme's own primary")
        #expect(colors.filter { $0.rendition.name == "onPrimary" }.count == 4, "light, dark, and each in high contrast")
        let primary = colors.filter { $0.rendition.name == "primary" }
        #expect(primary.count == 1 && primary[0].color.components.elementsEqual([0x12, 0x34, 0x56, 255].map { Double($0) / 255 }) { abs($0 - $1) < 1e-6 },
                "\(primary.map(\.color.components))")
    }
}
