import BinaryReading
import Codecs
import Foundation
import Review
import Testing
import TestSupport

/// Images compared by pixels, as `themed diff` and a replica's release diff compare them.
@Suite("image diffs")
struct ImageDiffTests {
    /// An 8x8 PNG of one colour (B, G, R, A), with `patch` pixels of another.
    static func png(_ colour: [UInt8], patch: (x: ClosedRange<Int>, y: ClosedRange<Int>, colour: [UInt8])? = nil, width: Int = 8) -> [UInt8] {
        var pixels: [UInt8] = []
        for y in 0..<8 {
            for x in 0..<width {
                pixels += patch.map { $0.x.contains(x) && $0.y.contains(y) ? $0.colour : colour } ?? colour
            }
        }
        return PNG.encode(Bitmap(width: width, height: 8, layout: .bgra8, pixels: pixels))
    }

    /// An image set `name` of one 1x PNG in theme folder `theme`.
    static func imageSet(_ fixtures: ThemeFixtures, _ theme: String, _ name: String, _ bytes: [UInt8]) {
        fixtures.write(bytes, to: "\(theme)/Theme.xcassets/\(name).imageset/\(name).png")
        fixtures.writeJSON(["images": [["idiom": "universal", "scale": "1x", "filename": "\(name).png"]], "info": ["author": "xcode", "version": 1]],
                           to: "\(theme)/Theme.xcassets/\(name).imageset")
    }

    @Test("a patch of changed pixels: its share and box, a side-by-side thumbnail; an added image, a resized one; an unchanged one is not listed")
    func byPixels() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let red: [UInt8] = [0, 0, 255, 255], blue: [UInt8] = [255, 0, 0, 255]
        Self.imageSet(fixtures, "before", "logo", Self.png(red))
        Self.imageSet(fixtures, "after", "logo", Self.png(red, patch: (3...4, 2...4, blue)))
        Self.imageSet(fixtures, "before", "badge", Self.png(red))
        Self.imageSet(fixtures, "after", "badge", Self.png(red, width: 12))
        Self.imageSet(fixtures, "before", "same", Self.png(blue))
        Self.imageSet(fixtures, "after", "same", Self.png(blue))
        Self.imageSet(fixtures, "after", "icon", Self.png(blue))
        let before = try ThemeSnapshot(reading: fixtures.path("before"))
        let after = try ThemeSnapshot(reading: fixtures.path("after"))
        let diff = ImageDiff(from: before, to: after)

        #expect(diff.added.map(\.name) == ["icon"] && diff.removed.isEmpty)
        #expect(diff.changed.map(\.key.name) == ["badge", "logo"], "\(diff.changed.map(\.key))")
        let logo = try #require(diff.changed.first { $0.key.name == "logo" })
        #expect(logo.changedShare == 6.0 / 64 && logo.box?.x == 3 && logo.box?.y == 2 && logo.box?.width == 2 && logo.box?.height == 3)
        let thumbnail = try PNG.decode(ByteSpan(copying: try #require(logo.thumbnail)))
        #expect(thumbnail.width == 8 + 4 + 8 && thumbnail.height == 8)
        #expect(Array(thumbnail.pixels[((3 * 20) + 12 + 3) * 4..<((3 * 20) + 12 + 3) * 4 + 4]) == blue, "the after side shows the patch")
        let badge = try #require(diff.changed.first { $0.key.name == "badge" })
        let resized = try #require(badge.resized)
        #expect(resized.before == (8, 8) && resized.after == (12, 8) && badge.changedShare == nil)
        #expect(diff.lines.contains { $0.hasPrefix("image changed: logo @1x universal any srgb 9.38% of pixels, box 2x3 at 3,2") }, "\(diff.lines)")

        // The whole review carries them: counts, JSON with the thumbnail, a markdown table.
        let review = ThemeReview(from: before, to: after)
        #expect(!review.isEmpty && review.markdown(from: "a", to: "b").contains("| `logo` | @1x universal any srgb | 9.38% of pixels |"))
        let json = try review.json.serialized()
        #expect(json.contains(#""thumbnail":"data:image/png;base64,"#) && json.contains(#""images":{"added":1,"removed":0,"changed":2}"#), "\(json.prefix(400))")
    }
}
