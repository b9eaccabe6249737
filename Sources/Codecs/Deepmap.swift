import BinaryReading

/// Apple's "deep pixel" image compression: `dmap` (catalog compression 10) and `dmp2` (11).
///
/// A chunk is a 16-byte wrapper, a small header and entropy streams (LZFSE containers or raw
/// LZVN). Four modes exist: raw pixels (1), a predictive filter with a YCoCg-R colour transform
/// (2), plain pixels (3) and a palette (4). `docs/deepmap.md` explains the filter and how the
/// decoder was checked. Every structural rule is enforced: a chunk either decodes to exactly the
/// size its geometry predicts, with no sample out of range, or it is an error.
public enum Deepmap {
    /// What the chunk header says.
    public struct Header: Sendable, Equatable {
        public var isDeepmap2: Bool
        public var mode: Int
        public var chromaScale: Bool
        public var pixelCode: Int
        public var stripHeight: Int
        /// Offset of the first byte after the header, from the start of the chunk.
        public var bodyOffset: Int
    }

    static let tileSize = 256

    /// Geometry of a pixel code: stored bytes per pixel, colour channels, alpha.
    struct PixelCode {
        var bytesPerPixel: Int
        var channels: Int
        var hasAlpha: Bool

        init?(_ code: Int) {
            switch code {
            case 1: (bytesPerPixel, channels, hasAlpha) = (1, 1, false)
            case 2: (bytesPerPixel, channels, hasAlpha) = (2, 1, true)
            case 3: (bytesPerPixel, channels, hasAlpha) = (3, 3, false)
            case 4: (bytesPerPixel, channels, hasAlpha) = (4, 3, true)
            case 20: (bytesPerPixel, channels, hasAlpha) = (8, 3, true)
            default: return nil
            }
        }

        var isWide: Bool { bytesPerPixel == 8 }

        /// The layout of decoded pixels. Mode 2 produces float32 for wide images; raw modes keep
        /// the stored half floats.
        func layout(filtered: Bool) -> PixelLayout {
            switch bytesPerPixel {
            case 1: .gray8
            case 2: .grayAlpha8
            case 3: .bgr8
            case 4: .bgra8
            default: filtered ? .rgbaFloat32 : .rgbaHalf16
            }
        }
    }

    /// Reads the wrapper and header of one chunk.
    public static func header(_ chunk: ByteSpan) throws -> Header {
        let chunk = chunk.named("deepmap chunk")
        let declared = try chunk.u64le(8)
        guard declared == UInt64(chunk.count - 16) || chunk.count < 16 else {
            throw chunk.error(at: 8, "wrapper says \(declared) bytes follow, chunk holds \(chunk.count - 16)")
        }
        let isDeepmap2: Bool
        if chunk.has("dmap", at: 16) { isDeepmap2 = false } else if chunk.has("dmp2", at: 16) { isDeepmap2 = true } else {
            throw chunk.error(at: 16, "expected dmap or dmp2, found \(try chunk.fourCC(16))")
        }
        let header = Header(isDeepmap2: isDeepmap2,
                            mode: Int(try chunk.u8(20)),
                            chromaScale: try chunk.u8(21) != 0,
                            pixelCode: Int(try chunk.u8(23)),
                            stripHeight: isDeepmap2 ? Int(try chunk.u16le(26)) : 0,
                            bodyOffset: isDeepmap2 ? 28 : 24)
        return header
    }

    /// Decodes one chunk (a CELM body or one KCBC chunk) of `width` × `rows` pixels.
    public static func decode(_ chunk: ByteSpan, width: Int, rows: Int) throws -> Bitmap {
        let chunk = chunk.named("deepmap chunk")
        let header = try header(chunk)
        guard let code = PixelCode(header.pixelCode) else {
            throw chunk.error(at: 23, "unknown pixel code \(header.pixelCode)")
        }
        if header.isDeepmap2 {
            let storedWidth = Int(try chunk.u16le(24))
            guard storedWidth == width else { throw chunk.error(at: 24, "dmp2 width \(storedWidth), image is \(width)") }
        }
        guard width > 0, rows > 0, width <= maximumDecodedBytes / max(rows, 1) / 16 else {
            throw chunk.error(at: 0, "image size \(width)x\(rows) is out of range")
        }
        var body = header.bodyOffset
        switch header.mode {
        case 1:
            let raw = try chunk.suffix(from: body)
            guard raw.count == width * rows * code.bytesPerPixel else {
                throw raw.error(at: 0, "mode 1 holds \(raw.count) bytes, \(width)x\(rows) needs \(width * rows * code.bytesPerPixel)")
            }
            return Bitmap(width: width, height: rows, layout: code.layout(filtered: false), pixels: raw.bytes)
        case 2:
            let streams = try records(chunk, from: body, budget: width * rows * (code.bytesPerPixel * 2 + 2) + 64 * rows + 4096)
            return try Filtered(header: header, code: code, width: width, rows: rows).decode(streams, chunk: chunk)
        case 3:
            let streams = try records(chunk, from: body, budget: width * rows * code.bytesPerPixel)
            let pixels = try place(streams, header: header, width: width, rows: rows, bytesPerPixel: code.bytesPerPixel, chunk: chunk)
            return Bitmap(width: width, height: rows, layout: code.layout(filtered: false), pixels: pixels)
        case 4:
            guard code.bytesPerPixel == 4 else { throw chunk.error(at: 23, "palette mode with pixel code \(header.pixelCode)") }
            let count = Int(try chunk.u16le(body))
            let type = Int(try chunk.u16le(body + 2))
            let palette = try chunk.slice(body + 4, count * 4, as: "deepmap palette")
            body += 4 + count * 4
            let perPixel: Int
            switch type {
            case 4: perPixel = 1
            case 0, 3: perPixel = 2
            default: throw chunk.error(at: body - 2 - count * 4, "unknown palette type \(type)")
            }
            let streams = try records(chunk, from: body, budget: width * rows * perPixel)
            let planes = try place(streams, header: header, width: width, rows: rows, bytesPerPixel: perPixel, chunk: chunk, planar: true)
            return Bitmap(width: width, height: rows, layout: .bgra8,
                          pixels: try applyPalette(planes, palette: palette, type: type, width: width, rows: rows, chunk: chunk))
        default:
            throw chunk.error(at: 20, "unknown mode \(header.mode)")
        }
    }

    /// The chunk's `u32 length` + stream records, each decoded; `budget` caps their total size.
    static func records(_ chunk: ByteSpan, from offset: Int, budget: Int) throws -> [[UInt8]] {
        var streams: [[UInt8]] = []
        var cursor = offset
        var total = 0
        while cursor < chunk.count {
            let length = try chunk.int32le(cursor)
            let stream = try chunk.slice(cursor + 4, length, as: "deepmap stream")
            let decoded: [UInt8]
            do {
                decoded = LZFSE.isContainer(stream.buffer)
                    ? try decodeContainer(stream, limit: budget - total)
                    : try LZVN.decompress(stream.buffer, limit: budget - total, exact: true)
            } catch let error as FormatError {
                throw FormatError("deepmap stream: \(error.structure)", at: stream.origin + error.offset, error.reason)
            }
            total += decoded.count
            streams.append(decoded)
            cursor += 4 + length
        }
        return streams
    }

    private static func decodeContainer(_ stream: ByteSpan, limit: Int) throws -> [UInt8] {
        let length = try LZFSE.containerLength(stream.buffer)
        guard length == stream.count else {
            throw stream.error(at: length, "LZFSE container ends \(stream.count - length) bytes before its record")
        }
        return try LZFSE.decompress(stream.buffer, limit: limit)
    }

    /// The rectangles (x, y, width, height) that successive streams of a chunk cover.
    static func regions(_ header: Header, width: Int, rows: Int) throws -> [(x: Int, y: Int, width: Int, height: Int)] {
        if header.isDeepmap2 {
            guard header.stripHeight > 0 else { throw FormatError("dmp2 header", at: 26, "strip height is 0") }
            return stride(from: 0, to: rows, by: header.stripHeight).map { (0, $0, width, min(header.stripHeight, rows - $0)) }
        }
        return stride(from: 0, to: rows, by: tileSize).flatMap { y in
            stride(from: 0, to: width, by: tileSize).map { x in (x, y, min(tileSize, width - x), min(tileSize, rows - y)) }
        }
    }

    /// Assembles modes 3 and 4: `dmp2` streams concatenate to whole rows; `dmap` streams are
    /// tiles. With `planar`, a tile's bytes are planes (alpha, then index) rather than pixels.
    static func place(_ streams: [[UInt8]], header: Header, width: Int, rows: Int, bytesPerPixel: Int,
                      chunk: ByteSpan, planar: Bool = false) throws -> [UInt8] {
        let total = width * rows * bytesPerPixel
        if header.isDeepmap2 {
            let held = streams.reduce(0) { $0 + $1.count }
            guard held == total else {
                throw chunk.error(at: header.bodyOffset, "streams hold \(held) bytes, \(width)x\(rows) needs \(total)")
            }
            // Appending whole streams copies memory; `joined()` would copy byte by byte.
            var output: [UInt8] = []
            output.reserveCapacity(total)
            for stream in streams { output.append(contentsOf: stream) }
            return output
        }
        let tiles = try regions(header, width: width, rows: rows)
        guard tiles.count == streams.count else {
            throw chunk.error(at: header.bodyOffset, "\(streams.count) streams for \(tiles.count) tiles")
        }
        var output = [UInt8](repeating: 0, count: total)
        for (tile, stream) in zip(tiles, streams) {
            guard stream.count == tile.width * tile.height * bytesPerPixel else {
                throw chunk.error(at: header.bodyOffset, "tile stream of \(stream.count) bytes for a \(tile.width)x\(tile.height) tile")
            }
            if planar {
                // Each plane of the tile goes to the same plane of the image.
                let planeSize = tile.width * tile.height
                for plane in 0..<bytesPerPixel {
                    for y in 0..<tile.height {
                        let source = plane * planeSize + y * tile.width
                        let target = plane * width * rows + (tile.y + y) * width + tile.x
                        output[target ..< target + tile.width] = stream[source ..< source + tile.width]
                    }
                }
            } else {
                for y in 0..<tile.height {
                    let source = y * tile.width * bytesPerPixel
                    let target = ((tile.y + y) * width + tile.x) * bytesPerPixel
                    output[target ..< target + tile.width * bytesPerPixel] = stream[source ..< source + tile.width * bytesPerPixel]
                }
            }
        }
        return output
    }

    /// Mode 4: pixels from palette entries (B, G, R, A). Type 4 takes the whole entry; types 0 and
    /// 3 take the colour from the entry and alpha from a separate plane.
    static func applyPalette(_ planes: [UInt8], palette: ByteSpan, type: Int, width: Int, rows: Int, chunk: ByteSpan) throws -> [UInt8] {
        let pixelCount = width * rows
        let colours = palette.count / 4
        var output = [UInt8](repeating: 0, count: pixelCount * 4)
        let indexPlane = type == 4 ? 0 : pixelCount
        for pixel in 0..<pixelCount {
            let index = Int(planes[indexPlane + pixel])
            guard index < colours else { throw chunk.error(at: 0, "palette index \(index) is beyond \(colours) colours") }
            output[pixel * 4] = palette.buffer[index * 4]
            output[pixel * 4 + 1] = palette.buffer[index * 4 + 1]
            output[pixel * 4 + 2] = palette.buffer[index * 4 + 2]
            output[pixel * 4 + 3] = type == 4 ? palette.buffer[index * 4 + 3] : planes[pixel]
        }
        return output
    }
}
