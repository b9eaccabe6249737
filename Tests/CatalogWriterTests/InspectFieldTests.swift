import AssetCatalog
import BinaryReading
import BOM
import CatalogWriter
import FuzzTargets
import Codecs
import Foundation
import JSON
import Testing
import TestSupport

/// `themed inspect --json` prints what assetutil prints (car-format.md section 10), checked on a
/// catalog compiled here and on the shared corpus.
@Suite("inspect fields")
struct InspectFieldTests {
    /// The start of a 200 x 120 baseline JPEG: SOI, an APP0 segment, SOF0; enough for its size.
    static let jpegHead: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]
        + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 120, 0x00, 200, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1] + [0xFF, 0xD9]

    /// The RENDITIONS tree's value blocks, read with the BOM reader alone, in tree order.
    static func valueBlocks(_ path: String) throws -> [[UInt8]] {
        let store = try BOMStore(ByteSpan(try ByteStorage(mapping: path)))
        return try #require(try store.tree("RENDITIONS")).items().map(\.value.bytes)
    }

    static func renditions(_ report: JSONValue) -> [JSONValue] {
        guard case .array(let items) = report else { return [] }
        return Array(items.dropFirst())
    }

    @Test("a compiled catalog: digests of the value blocks, State and Value, image and data fields, a JPEG's real size")
    func compiled() throws {
        let f = ThemeFixtures()
        defer { f.remove() }
        CompileTests().makeSource(f)
        f.write(Self.jpegHead, to: "App.xcassets/photo.imageset/photo.jpg")
        f.writeJSON(["images": [["idiom": "universal", "filename": "photo.jpg", "scale": "1x"]]], to: "App.xcassets/photo.imageset")
        f.write(FuzzSeeds.heif(width: 3024, height: 4032, thumbnail: (240, 320)), to: "App.xcassets/wallpaper.imageset/wallpaper.heic")
        f.writeJSON(["images": [["idiom": "universal", "filename": "wallpaper.heic", "scale": "1x"]]], to: "App.xcassets/wallpaper.imageset")
        try CatalogCompiler().compile(f.path("App.xcassets"), to: f.path("App.car"))
        let catalog = try AssetCatalog(path: f.path("App.car"))
        let report = CatalogReport(catalog).json
        let renditions = Self.renditions(report)

        let blocks = try Self.valueBlocks(f.path("App.car"))
        #expect(renditions.count == blocks.count)
        for (rendition, block) in zip(renditions, blocks) {
            #expect(rendition["SHA1Digest"] == .string(SHA256.hex(block).uppercased()), "the SHA-256 of the whole value block")
            #expect(rendition["SizeOnDisk"] == .int(block.count))
            #expect(rendition["State"] == "Normal" && rendition["Value"] == "Off")
        }
        let photo = try #require(renditions.first { $0["Name"] == "photo" })
        #expect(photo["PixelWidth"] == 200 && photo["PixelHeight"] == 120, "from the JPEG, not the CSI's 0 x 0")
        #expect(photo["Opaque"] == .bool(true) && photo["Template Mode"] == "automatic")
        let wallpaper = try #require(renditions.first { $0["Name"] == "wallpaper" })
        #expect(wallpaper["Encoding"] == "HEIF")
        #expect(wallpaper["PixelWidth"] == 3024 && wallpaper["PixelHeight"] == 4032, "the primary image's ispe, not the CSI's 0 x 0 or the thumbnail's")
        let icon = try #require(renditions.first { $0["Name"] == "icon" })
        #expect(icon["BitsPerComponent"] == 8 && icon["ColorModel"] == "RGB")
        #expect(icon["Opaque"] != nil)
        let settings = try #require(renditions.first { $0["Name"] == "settings" })
        #expect(settings["AssetType"] == "Data" && settings["UTI"] == "UTI-Unknown" && settings["Data Length"] == 16)
        #expect(settings["Compression"] == "uncompressed" || settings["Compression"] == "lzfse")
        guard case .array(let keyFormat)? = Self.header(report)["Key Format"] else { Issue.record("no Key Format"); return }
        #expect(!keyFormat.contains("kCRThemeHorizontalSizeClassName"))
    }

    static func header(_ report: JSONValue) -> JSONValue {
        guard case .array(let items) = report, let first = items.first else { return .null }
        return first
    }

    @Test("ids 20 and 21 print as assetutil names them")
    func sizeClassNames() {
        #expect(RenditionAttribute.sizeClassHorizontal.coreUIName == "kCRThemeSizeClassHorizontalName")
        #expect(RenditionAttribute.sizeClassVertical.coreUIName == "kCRThemeSizeClassVerticalName")
    }

    @Test("the corpus: every digest recomputed from the blocks; versions keep their line break; multisize sizes name the idiom", .needsCorpus)
    func corpus() throws {
        var digests = 0, sizes = 0
        for path in Corpus.catalogNames.map(Corpus.path) {
            guard let catalog = try? AssetCatalog(path: path), catalog.renditionErrors.isEmpty else { continue }
            let report = CatalogReport(catalog, decodeImages: false).json
            let blocks = try Self.valueBlocks(path)
            let renditions = Self.renditions(report)
            #expect(renditions.count == blocks.count, "\(path)")
            for (rendition, block) in zip(renditions, blocks) {
                #expect(rendition["SHA1Digest"] == .string(SHA256.hex(block).uppercased()), "\(path)")
                digests += 1
            }
            if case .string(let version)? = Self.header(report)["MainVersion"] {
                #expect(version == catalog.header.mainVersionString && !version.isEmpty)
            }
            for rendition in renditions {
                guard case .array(let entries)? = rendition["Sizes"] else { continue }
                for entry in entries {
                    guard case .string(let text) = entry else { continue }
                    #expect(text.contains(" idiom:"), "\(text) in \(path)")
                    sizes += 1
                }
            }
        }
        print("inspect fields: \(digests) digests recomputed, \(sizes) multisize entries with their idiom")
        #expect(digests > 1000 && sizes > 0)
    }
}
