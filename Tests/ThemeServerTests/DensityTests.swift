import BinaryReading
import Codecs
import Foundation
import Testing
import ServiceSupport
import TestSupport

/// Screens between catalog scales (Android's 1.5x, 2.625x, 4x): `dpr=` and `Sec-CH-DPR` in 1-4
/// answer the image at that density, made from the catalog scale at or above it (issue 46).
@Suite("image densities")
struct DensityTests {
    /// `icon`: 40 x 20 points, stored at 1x and 2x (the 2x a different colour, to tell them apart).
    static func themes(_ f: ThemeFixtures) {
        for (scale, shade) in [(1, UInt8(40)), (2, UInt8(200))] {
            let (width, height) = (40 * scale, 20 * scale)
            let pixels = [UInt8](repeating: shade, count: width * height * 4)
            f.write(PNG.encode(Bitmap(width: width, height: height, layout: .bgra8, pixels: pixels)), to: "themes/pics/Theme.xcassets/icon.imageset/icon@\(scale)x.png")
        }
        f.writeJSON(["images": [["idiom": "universal", "filename": "icon@1x.png", "scale": "1x"], ["idiom": "universal", "filename": "icon@2x.png", "scale": "2x"]],
                     "info": ["author": "xcode", "version": 1]], to: "themes/pics/Theme.xcassets/icon.imageset")
    }

    func size(_ response: APIResponse) -> (Int, Int)? {
        (try? PNG.decode(ByteSpan(copying: response.body))).map { ($0.width, $0.height) }
    }

    @Test("dpr=1.5 is the 2x image at 60 x 30; 4 is 160 x 80 from the 2x (the best stored); 2 is the 2x as stored; Sec-CH-DPR the same")
    func densities() throws {
        let api = try APIFixture(themes: Self.themes)
        let cases: [(String, [String: String], (Int, Int))] = [
            ("?dpr=1.5", [:], (60, 30)), ("?dpr=2.625", [:], (105, 53)), ("?dpr=3.5", [:], (140, 70)), ("?dpr=4", [:], (160, 80)),
            ("?dpr=2", [:], (80, 40)), ("?dpr=1", [:], (40, 20)), ("", ["Sec-CH-DPR": "1.5"], (60, 30)), ("", ["Sec-CH-DPR": "9"], (160, 80)),
            ("?dpr=1.51", [:], (60, 30)),
        ]
        for (query, headers, expected) in cases {
            let answer = try api.request("/themes/pics/images/icon\(query)", headers: headers)
            #expect(answer.status == 200 && answer.header("Content-Type") == "image/png", "\(query) \(headers): \(answer.status) \(answer.text.prefix(120))")
            let got = size(answer)
            #expect(got?.0 == expected.0 && got?.1 == expected.1, "\(query) \(headers): \(String(describing: got)), expected \(expected)")
        }
        let stored = try api.request("/themes/pics/images/icon?scale=2"), asDensity = try api.request("/themes/pics/images/icon?dpr=2")
        #expect(stored.header("ETag") == asDensity.header("ETag"), "a whole scale is the stored image, not a copy")
        for bad in ["0.5", "4.5", "x", "nan"] {
            let refused = try api.request("/themes/pics/images/icon?dpr=\(bad)")
            #expect(refused.status == 400 && refused.text.contains("dpr"), "dpr=\(bad): \(refused.text)")
        }
    }

    @Test("the .json route says which scale a density was made from and whether it was resized")
    func described() throws {
        let api = try APIFixture(themes: Self.themes)
        let json = try api.request("/themes/pics/images/icon.json?dpr=1.5")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.body)) as? [String: Any])
        let density = try #require(object["density"] as? [String: Any], "\(json.text)")
        #expect(density["asked"] as? Double == 1.5 && density["scale"] as? Int == 2 && density["resized"] as? Bool == true && density["pixelWidth"] as? Int == 60)
        let whole = try api.request("/themes/pics/images/icon.json?dpr=2")
        #expect(!whole.text.contains("\"density\""), "a catalog scale is no density: \(whole.text.prefix(200))")
    }
}
