import BinaryReading
import Codecs
import Foundation
import Testing
import ServiceSupport
import TestSupport

/// `format=`, `w=`, `h=` on the image route: negotiation, sizes, limits and broken files.
@Suite("image formats and sizes")
struct ImageFormatRouteTests {
    static func themes(_ f: ThemeFixtures) {
        var pixels = [UInt8]()
        for y in 0..<64 { for x in 0..<128 { pixels += [UInt8(x * 2), UInt8(y * 4), 128, 255] } }
        let png = PNG.encode(Bitmap(width: 128, height: 64, layout: .bgra8, pixels: pixels))
        f.write(png, to: "themes/pics/Theme.xcassets/banner.imageset/banner.png")
        f.writeJSON(["images": [["idiom": "universal", "filename": "banner.png", "scale": "1x"]], "info": ["author": "xcode", "version": 1]],
                    to: "themes/pics/Theme.xcassets/banner.imageset")
        // A P3-only image: an sRGB request gets it converted (the gamut fallback's last resort).
        let p3 = PNG.encode(Bitmap(width: 4, height: 4, layout: .bgra8, pixels: ([50, 100, 200, 255] as [UInt8]).repeated(16)))
        f.write(p3, to: "themes/pics/Theme.xcassets/wide.imageset/wide.png")
        f.writeJSON(["images": [["idiom": "universal", "filename": "wide.png", "scale": "1x", "display-gamut": "display-P3"]], "info": ["author": "xcode", "version": 1]],
                    to: "themes/pics/Theme.xcassets/wide.imageset")
        f.write(Array("RIFF\u{10}\0\0\0WEBPVP8 garbage-garbage".utf8), to: "themes/pics/Theme.xcassets/broken.imageset/broken.webp")
        f.writeJSON(["images": [["idiom": "universal", "filename": "broken.webp", "scale": "1x"]], "info": ["author": "xcode", "version": 1]],
                    to: "themes/pics/Theme.xcassets/broken.imageset")
    }

    @Test("format=webp|avif|jpeg|png answers that format; Vary names Accept only for auto")
    func formats() throws {
        let api = try APIFixture(themes: Self.themes)
        for (format, type) in [("webp", "image/webp"), ("avif", "image/avif"), ("jpeg", "image/jpeg"), ("png", "image/png")] {
            let response = try api.request("/themes/pics/images/banner?format=\(format)")
            #expect(response.status == 200 && response.header("Content-Type") == type, "\(format): \(response.status) \(response.text.prefix(200))")
            #expect(response.header("Vary")?.contains("Accept,") == false && response.header("Vary")?.hasSuffix("Accept") == false)
        }
        let avif = try api.request("/themes/pics/images/banner?format=auto", headers: ["Accept": "image/avif,image/webp,*/*"])
        #expect(avif.header("Content-Type") == "image/avif" && avif.header("Vary")?.hasSuffix(", Accept") == true)
        let webp = try api.request("/themes/pics/images/banner?format=auto", headers: ["Accept": "image/webp,*/*"])
        #expect(webp.header("Content-Type") == "image/webp" && webp.header("Vary")?.hasSuffix(", Accept") == true)
        let plain = try api.request("/themes/pics/images/banner?format=auto", headers: ["Accept": "*/*"])
        #expect(plain.header("Content-Type") == "image/png" && plain.header("Vary")?.hasSuffix(", Accept") == true)
        #expect(avif.header("ETag") != webp.header("ETag"))
    }

    @Test("w and h resize within the aspect ratio; the result is a blob like any content")
    func sizes() throws {
        let api = try APIFixture(themes: Self.themes)
        let half = try api.request("/themes/pics/images/banner?format=png&w=64")
        let bitmap = try PNG.decode(ByteSpan(copying: half.body))
        #expect((bitmap.width, bitmap.height) == (64, 32))
        let location = try #require(half.header("Content-Location"))
        #expect(try api.request(location).body == half.body, "stored under its hash")
        let box = try PNG.decode(ByteSpan(copying: try api.request("/themes/pics/images/banner?format=png&w=50&h=50").body))
        #expect((box.width, box.height) == (50, 25))
    }

    @Test("fit=cover: exactly w x h, as a JPEG for a launch screen, kept as a blob of its own; fit=fill; an unknown fit is 400")
    func fit() throws {
        let api = try APIFixture(themes: Self.themes)
        let launch = try api.request("/themes/pics/images/banner?format=jpeg&w=30&h=60&fit=cover")
        #expect(launch.status == 200 && launch.header("Content-Type") == "image/jpeg", "\(launch.status) \(launch.text.prefix(200))")
        let size = try #require(JPEG.size(of: ByteSpan(copying: launch.body)))
        #expect((size.width, size.height) == (30, 60), "the box exactly, cropped from the centre of a 120 x 60 scaling")
        let contained = try api.request("/themes/pics/images/banner?format=jpeg&w=30&h=60")
        #expect(contained.header("ETag") != launch.header("ETag"), "contain and cover are different content")
        #expect(try api.request(try #require(launch.header("Content-Location"))).body == launch.body)
        let stretched = try PNG.decode(ByteSpan(copying: try api.request("/themes/pics/images/banner?format=png&w=50&h=50&fit=fill").body))
        #expect((stretched.width, stretched.height) == (50, 50))
        let bad = try api.request("/themes/pics/images/banner?w=30&h=60&fit=crop")
        #expect(bad.status == 400 && bad.text.contains("expected contain, cover, fill"))
    }

    @Test("a Display P3 bitmap answering an sRGB request is converted to sRGB; a P3 request gets it as stored")
    func displayP3() throws {
        let api = try APIFixture(themes: Self.themes)
        let srgb = try PNG.decode(ByteSpan(copying: try api.request("/themes/pics/images/wide").body))
        let p3 = try PNG.decode(ByteSpan(copying: try api.request("/themes/pics/images/wide?gamut=p3").body))
        #expect(Array(p3.pixels.prefix(4)) == [50, 100, 200, 255], "as stored (B, G, R, A)")
        // P3 (200, 100, 50) is sRGB (215, 93, 32), within rounding of the colour engine.
        let converted = Array(srgb.pixels.prefix(4)).map(Int.init)
        #expect(abs(converted[2] - 215) <= 2 && abs(converted[1] - 93) <= 2 && abs(converted[0] - 32) <= 3, "\(converted)")
    }

    @Test("w=0, w=1e9, a width past the maximum and unknown formats are 400; a broken file is 422 and the server goes on")
    func badRequests() throws {
        let api = try APIFixture(themes: Self.themes)
        for query in ["w=0", "w=1e9", "w=4097", "h=-1", "format=bmp", "format="] {
            let response = try api.request("/themes/pics/images/banner?\(query)")
            #expect(response.status == 400, "\(query): \(response.status)")
        }
        let broken = try api.request("/themes/pics/images/broken?format=png")
        #expect(broken.status == 422 && broken.text.contains("cannot be decoded"), "\(broken.status) \(broken.text)")
        #expect(try api.request("/themes/pics/images/broken").status == 200, "as stored, the bytes are served")
        #expect(try api.request("/themes/pics/images/banner?format=webp").status == 200)
    }
}

private extension Array {
    func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}
