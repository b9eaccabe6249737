import CatalogWriter
import FuzzTargets
import Foundation
import Testing
import ServiceSupport
import TestSupport

/// JPEG and HEIF images keep their size in their own header (a catalog's CSI header says 0 x 0):
/// the index and the `.json` route report the real one.
@Suite("embedded image sizes")
struct EmbeddedImageSizeTests {
    /// A 200 x 120 JPEG's start (SOI, APP0, SOF0, EOI).
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]
        + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 120, 0x00, 200, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1] + [0xFF, 0xD9]

    static func photos(_ f: ThemeFixtures, in folder: String) {
        f.write(FuzzSeeds.heif(width: 3024, height: 4032, thumbnail: (240, 320)), to: "\(folder)/wallpaper.imageset/wallpaper.heic")
        f.writeJSON(["images": [["idiom": "universal", "filename": "wallpaper.heic", "scale": "1x"]]], to: "\(folder)/wallpaper.imageset")
        f.write(Self.jpeg, to: "\(folder)/photo.imageset/photo.jpg")
        f.writeJSON(["images": [["idiom": "universal", "filename": "photo.jpg", "scale": "1x"]]], to: "\(folder)/photo.imageset")
    }

    @Test("from a compiled catalog and from a loose .xcassets: HEIF from its primary ispe, JPEG from its frame header")
    func sizes() throws {
        let api = try APIFixture { f in
            Self.photos(f, in: "src/Photos.xcassets")
            f.makeDirectory("themes/compiled")
            try? CatalogCompiler().compile(f.path("src/Photos.xcassets"), to: f.path("themes/compiled/Assets.car"))
            Self.photos(f, in: "themes/loose/Photos.xcassets")
        }
        for theme in ["compiled", "loose"] {
            let wallpaper = try api.request("/themes/\(theme)/images/wallpaper.json").decode(ImageMetadataBody.self)
            #expect((wallpaper.chosen.pixelWidth, wallpaper.chosen.pixelHeight) == (3024, 4032), "\(theme)")
            #expect(wallpaper.chosen.format == "heic")
            let photo = try api.request("/themes/\(theme)/images/photo.json").decode(ImageMetadataBody.self)
            #expect((photo.chosen.pixelWidth, photo.chosen.pixelHeight) == (200, 120), "\(theme)")
            // Served as stored.
            #expect(try api.request("/themes/\(theme)/images/wallpaper").header("Content-Type") == "image/heic")
        }
    }
}
