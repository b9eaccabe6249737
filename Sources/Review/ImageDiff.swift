import BinaryReading
import Codecs
import Foundation
import JSON

/// What changed in a theme's images and data assets between two readings, variant by variant:
/// added, removed, and changed. A changed bitmap is compared by pixels (both as 8-bit PNG, as
/// served): the share of its pixels that differ, the box around them, and a side-by-side
/// thumbnail (before | after, at most 64 pixels high); bytes that differ but decode to the same
/// pixels are no change. What is not such a PNG (a vector, a JPEG, data) is compared by its bytes.
public struct ImageDiff: Sendable {
    public struct Change: Sendable {
        public var key: ThemeSnapshot.ImageKey
        public var isData: Bool
        /// For a bitmap of the same size before and after: the share of its pixels that changed
        /// (0-1) and the box around them (x, y, width, height); nil when only the bytes were compared.
        public var changedShare: Double?
        public var box: (x: Int, y: Int, width: Int, height: Int)?
        /// Pixel sizes, when both are bitmaps of different sizes.
        public var resized: (before: (Int, Int), after: (Int, Int))?
        /// Before | after, side by side, as a PNG (bitmaps only).
        public var thumbnail: [UInt8]?
    }

    public let added: [ThemeSnapshot.ImageKey]
    public let removed: [ThemeSnapshot.ImageKey]
    public let changed: [Change]
    /// Either reading left images out (past `ThemeSnapshot.imageBytesLimit`).
    public let cut: Bool

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    public init(from before: ThemeSnapshot, to after: ThemeSnapshot) {
        let (old, new) = (before.images, after.images)
        added = new.keys.filter { old[$0] == nil }.sorted()
        removed = old.keys.filter { new[$0] == nil }.sorted()
        changed = new.keys.sorted().compactMap { key in
            guard let was = old[key], let now = new[key], was.bytes != now.bytes else { return nil }
            return Self.compare(key, was, now)
        }
        cut = before.imagesCut || after.imagesCut
    }

    static func compare(_ key: ThemeSnapshot.ImageKey, _ was: ThemeSnapshot.ImageContent, _ now: ThemeSnapshot.ImageContent) -> Change? {
        var change = Change(key: key, isData: now.isData)
        guard !now.isData, let old = bitmap(was.bytes), let new = bitmap(now.bytes) else { return change }
        guard old.width == new.width, old.height == new.height else {
            change.resized = ((old.width, old.height), (new.width, new.height))
            change.thumbnail = thumbnail(old, new)
            return change
        }
        var (changedPixels, minX, minY, maxX, maxY) = (0, Int.max, Int.max, -1, -1)
        for y in 0..<new.height {
            for x in 0..<new.width {
                let offset = (y * new.width + x) * 4
                guard old.pixels[offset..<offset + 4] != new.pixels[offset..<offset + 4] else { continue }
                changedPixels += 1
                (minX, minY, maxX, maxY) = (min(minX, x), min(minY, y), max(maxX, x), max(maxY, y))
            }
        }
        guard changedPixels > 0 else { return nil }
        change.changedShare = Double(changedPixels) / Double(max(1, new.width * new.height))
        change.box = (minX, minY, maxX - minX + 1, maxY - minY + 1)
        change.thumbnail = thumbnail(old, new)
        return change
    }

    /// An 8-bit PNG as B, G, R, A pixels; nil for anything else (or one past 16 megapixels).
    static func bitmap(_ bytes: [UInt8]) -> Bitmap? {
        let span = ByteSpan(copying: bytes, structure: "PNG")
        guard let size = PNG.size(of: span), size.width * size.height <= 16 << 20,
              let decoded = try? PNG.decode(span), decoded.layout == .bgra8 else { return nil }
        return decoded
    }

    /// Before and after side by side, each scaled (nearest pixel) to at most 64 pixels high and
    /// 128 wide, 4 transparent pixels between.
    static func thumbnail(_ before: Bitmap, _ after: Bitmap) -> [UInt8] {
        func scaled(_ bitmap: Bitmap) -> Bitmap {
            let factor = min(1, 64 / Double(max(1, bitmap.height)), 128 / Double(max(1, bitmap.width)))
            let (width, height) = (max(1, Int(Double(bitmap.width) * factor)), max(1, Int(Double(bitmap.height) * factor)))
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for y in 0..<height {
                let sourceY = min(bitmap.height - 1, Int(Double(y) / factor))
                for x in 0..<width {
                    let sourceX = min(bitmap.width - 1, Int(Double(x) / factor))
                    let (from, to) = ((sourceY * bitmap.width + sourceX) * 4, (y * width + x) * 4)
                    pixels[to..<to + 4] = bitmap.pixels[from..<from + 4]
                }
            }
            return Bitmap(width: width, height: height, layout: .bgra8, pixels: pixels)
        }
        let (left, right) = (scaled(before), scaled(after))
        let (width, height) = (left.width + 4 + right.width, max(left.height, right.height))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for (part, originX) in [(left, 0), (right, left.width + 4)] {
            for y in 0..<part.height {
                let row = (y * width + originX) * 4
                pixels[row..<row + part.width * 4] = part.pixels[(y * part.width * 4)..<((y + 1) * part.width * 4)]
            }
        }
        return PNG.encode(Bitmap(width: width, height: height, layout: .bgra8, pixels: pixels))
    }

    /// Each change with its share, box and thumbnail (a `data:` URL, which the gallery shows).
    /// The diff as JSON: each variant by name, a change with what was compared (the share of
    /// pixels to the ten-thousandth, the box, the sizes, the thumbnail as a data URL).
    struct Body: Encodable {
        struct Variant: Encodable {
            var name: String
            var variant: String
        }

        struct Changed: Encodable {
            struct Box: Encodable {
                var x: Int
                var y: Int
                var width: Int
                var height: Int
            }

            struct Resized: Encodable {
                var before: String
                var after: String
            }

            var name: String
            var variant: String
            /// image or data.
            var kind: String
            var changedShare: Double?
            var box: Box?
            var resized: Resized?
            var thumbnail: String?
        }

        var added: [Variant]
        var removed: [Variant]
        var changed: [Changed]
        var cut: Bool
    }

    var body: Body {
        func variant(_ key: ThemeSnapshot.ImageKey) -> Body.Variant { Body.Variant(name: key.name, variant: key.variant) }
        return Body(added: added.map(variant), removed: removed.map(variant), changed: changed.map { change in
            Body.Changed(name: change.key.name, variant: change.key.variant, kind: change.isData ? "data" : "image",
                         changedShare: change.changedShare.map { ($0 * 10_000).rounded() / 10_000 },
                         box: change.box.map { Body.Changed.Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
                         resized: change.resized.map { Body.Changed.Resized(before: "\($0.before.0)x\($0.before.1)", after: "\($0.after.0)x\($0.after.1)") },
                         thumbnail: change.thumbnail.map { "data:image/png;base64," + Data($0).base64EncodedString() })
        }, cut: cut)
    }

    /// A line a change, as `themed diff` prints them.
    public var lines: [String] {
        added.map { "image added: \($0.name) \($0.variant)" } + removed.map { "image removed: \($0.name) \($0.variant)" }
            + changed.map { change in
                var line = "\(change.isData ? "data" : "image") changed: \(change.key.name) \(change.key.variant)"
                if let share = change.changedShare, let box = change.box {
                    line += String(format: " %.2f%% of pixels, box %dx%d at %d,%d", share * 100, box.width, box.height, box.x, box.y)
                } else if let resized = change.resized {
                    line += " resized \(resized.before.0)x\(resized.before.1) -> \(resized.after.0)x\(resized.after.1)"
                } else {
                    line += " (bytes)"
                }
                return line
            }
    }

    /// For a pull request comment: the counts, then a table of the changes.
    public var markdown: String {
        guard !isEmpty else { return "" }
        var rows = ["", "**Images**: \(added.count) added, \(removed.count) removed, \(changed.count) changed", "",
                    "| image | variant | change |", "|---|---|---|"]
        rows += added.map { "| `\($0.name)` | \($0.variant) | added |" } + removed.map { "| `\($0.name)` | \($0.variant) | removed |" }
        rows += changed.map { change in
            let what = change.changedShare.map { String(format: "%.2f%% of pixels", $0 * 100) }
                ?? change.resized.map { "resized \($0.before.0)x\($0.before.1) → \($0.after.0)x\($0.after.1)" } ?? "bytes changed"
            return "| `\(change.key.name)` | \(change.key.variant) | \(what) |"
        }
        return rows.joined(separator: "\n") + "\n"
    }
}

extension ImageDiff: Encodable {
    public func encode(to encoder: any Encoder) throws { try body.encode(to: encoder) }
}
