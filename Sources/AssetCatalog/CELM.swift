import BinaryReading
import Codecs

/// A rendition's CELM bitmap payload: unchunked or a list of KCBC chunks, each compressed on its
/// own, joined top to bottom into one tight bitmap.
public enum CELM {
    /// One independently compressed band of rows.
    public struct Chunk: Sendable {
        public var rows: Int
        public var data: ByteSpan
    }

    /// The compressed chunks of a bitmap rendition, top to bottom.
    public static func chunks(of rendition: Rendition) throws -> [Chunk] {
        try chunks(rendition.payload.named("CELM payload"), height: rendition.header.height)
    }

    static func decode(_ rendition: Rendition) throws -> Bitmap {
        let header = rendition.header
        let payload = rendition.payload.named("CELM payload")
        guard let bytesPerPixel = header.bytesPerPixel else {
            throw UnsupportedRendition(reason: "pixel format '\(header.pixelFormat)' is not a bitmap format")
        }
        let compression = try payload.int32le(8)
        guard header.width > 0, header.height > 0,
              header.width <= maximumDecodedBytes / header.height / max(bytesPerPixel, 16) else {
            throw payload.error(at: 0, "bitmap size \(header.width)x\(header.height) is out of range")
        }
        let chunks = try Self.chunks(payload, height: header.height)
        var pixels: [UInt8] = []
        var layout: PixelLayout?
        for chunk in chunks {
            let decoded = try decodeChunk(chunk, compression: compression, width: header.width,
                                          bytesPerPixel: bytesPerPixel, pixelFormat: header.pixelFormat,
                                          stride: rendition.bytesPerRow)
            guard layout == nil || layout == decoded.layout else {
                throw chunk.data.error(at: 0, "chunk decodes to \(decoded.layout), earlier chunks to \(layout.map { "\($0)" } ?? "")")
            }
            layout = decoded.layout
            // One chunk (the usual case) is the bitmap itself: no copy of a large image.
            if chunks.count == 1 {
                pixels = decoded.pixels
            } else {
                if pixels.isEmpty { pixels.reserveCapacity(decoded.pixels.count / max(chunk.rows, 1) * header.height) }
                pixels += decoded.pixels
            }
        }
        return Bitmap(width: header.width, height: header.height, layout: layout ?? .bgra8, pixels: pixels)
    }

    /// The payload's chunks; rows must add up to the image height.
    static func chunks(_ payload: ByteSpan, height: Int) throws -> [Chunk] {
        guard payload.has("MLEC") else { throw payload.error(at: 0, "expected the CELM tag MLEC") }
        let flags = try payload.u32le(4)
        let countOrLength = try payload.int32le(12)
        guard flags & 1 == 1 else {
            return [Chunk(rows: height, data: try payload.slice(16, countOrLength, as: "CELM data"))]
        }
        guard countOrLength <= (payload.count - 16) / 20 else {
            throw payload.error(at: 12, "\(countOrLength) chunks cannot fit in \(payload.count) bytes")
        }
        var chunks: [Chunk] = []
        var cursor = 16
        var rows = 0
        for _ in 0..<countOrLength {
            guard payload.has("KCBC", at: cursor) else { throw payload.error(at: cursor, "expected the chunk tag KCBC") }
            let chunkRows = try payload.int32le(cursor + 12)
            let length = try payload.int32le(cursor + 16)
            guard chunkRows <= height - rows else {
                throw payload.error(at: cursor + 12, "chunk rows add up past the image height \(height)")
            }
            chunks.append(Chunk(rows: chunkRows, data: try payload.slice(cursor + 20, length, as: "KCBC chunk")))
            rows += chunkRows
            cursor += 20 + length
        }
        guard rows == height else { throw payload.error(at: 12, "chunks cover \(rows) rows of \(height)") }
        return chunks
    }

    static func decodeChunk(_ chunk: Chunk, compression: Int, width: Int, bytesPerPixel: Int,
                            pixelFormat: String, stride: Int?) throws -> Bitmap {
        let rowBytes = width * bytesPerPixel
        let layout: PixelLayout = switch pixelFormat {
        case "GA8 ": .grayAlpha8
        case "RGBW": .rgbaHalf16
        default: .bgra8
        }
        guard pixelFormat == "ARGB" || pixelFormat == "GA8 " || pixelFormat == "RGBW" else {
            throw UnsupportedRendition(reason: "pixel format '\(pixelFormat)' has no decoder")
        }
        let limit = max(rowBytes, min(stride ?? 0, maximumDecodedBytes / max(chunk.rows, 1))) * chunk.rows
        func tight(_ bytes: [UInt8]) throws -> Bitmap {
            Bitmap(width: width, height: chunk.rows, layout: layout,
                   pixels: try removePadding(bytes, rowBytes: rowBytes, rows: chunk.rows, stride: stride, chunk: chunk.data))
        }
        let data = chunk.data
        switch compression {
        case 0: return try tight(data.bytes)
        case 1: return Bitmap(width: width, height: chunk.rows, layout: layout,
                              pixels: try RLE.decode(data, width: width, rows: chunk.rows, bytesPerPixel: bytesPerPixel))
        case 2: return try tight(try Zlib.decompress(data.buffer, limit: limit))
        case 3: return try tight(try LZVN.decompress(data.buffer, limit: limit))
        case 4: return try tight(try LZFSE.decompress(data.buffer, limit: limit))
        case 8:
            guard layout == .bgra8 else { throw UnsupportedRendition(reason: "palette-img for pixel format '\(pixelFormat)'") }
            return Bitmap(width: width, height: chunk.rows, layout: .bgra8, pixels: try PaletteImage.decode(data, width: width, rows: chunk.rows))
        case 10, 11:
            return try Deepmap.decode(data, width: width, rows: chunk.rows)
        default:
            throw UnsupportedRendition(reason: "compression \(Compression.name(compression)) (\(compression)) has no decoder")
        }
    }

    /// Accepts exactly `rowBytes × rows`, or `stride × rows` with the padding stripped.
    static func removePadding(_ bytes: [UInt8], rowBytes: Int, rows: Int, stride: Int?, chunk: ByteSpan) throws -> [UInt8] {
        if bytes.count == rowBytes * rows { return bytes }
        if let stride, stride > rowBytes, bytes.count == stride * rows {
            var tight: [UInt8] = []
            tight.reserveCapacity(rowBytes * rows)
            for row in 0..<rows { tight += bytes[row * stride ..< row * stride + rowBytes] }
            return tight
        }
        throw chunk.error(at: 0, "decoded \(bytes.count) bytes; \(rows) rows need \(rowBytes * rows)\(stride.map { " or \($0 * rows) with stride \($0)" } ?? "")")
    }
}
