import BinaryReading

/// CoreUI's run-length coding (catalog compression 1): per row, packets of literal or repeated
/// pixels, with a row-offset table so that identical rows can share storage.
public enum RLE {
    /// Decodes one chunk covering `rows` rows of `width` pixels of `bytesPerPixel` bytes.
    public static func decode(_ chunk: ByteSpan, width: Int, rows: Int, bytesPerPixel: Int) throws -> [UInt8] {
        let chunk = chunk.named("RLE chunk")
        let kind = try chunk.int32le(0)
        let storedWidth = try chunk.int32le(4)
        let storedRows = try chunk.int32le(8)
        let expectedKind = [1: 1, 2: 3, 4: 4][bytesPerPixel]
        guard kind == expectedKind else {
            throw chunk.error(at: 0, "RLE kind \(kind) does not fit \(bytesPerPixel)-byte pixels")
        }
        guard storedWidth == width, storedRows == rows else {
            throw chunk.error(at: 4, "RLE size \(storedWidth)x\(storedRows), image chunk is \(width)x\(rows)")
        }
        try chunk.require(12, rows * 4, "RLE row table")
        let rowBytes = width * bytesPerPixel
        return try makeBytes(capacity: rowBytes * rows) { output throws in
            for row in 0..<rows {
                var cursor = try chunk.int32le(12 + row * 4)
                var produced = 0
                let rowStart = output + row * rowBytes
                while produced < width {
                    let packet = try chunk.u32le(cursor)
                    let count = Int(packet & 0x00FF_FFFF)
                    let flag = packet >> 24
                    cursor += 4
                    guard count >= 1, count <= width - produced else {
                        throw chunk.error(at: cursor - 4, "run of \(count) pixels overflows the row (\(width - produced) left)")
                    }
                    switch flag {
                    case 0x00:
                        let literal = try chunk.slice(cursor, count * bytesPerPixel)
                        if let source = literal.buffer.baseAddress {
                            (rowStart + produced * bytesPerPixel).update(from: source.assumingMemoryBound(to: UInt8.self), count: count * bytesPerPixel)
                        }
                        cursor += count * bytesPerPixel
                    case 0x80:
                        let pixel = try chunk.slice(cursor, bytesPerPixel)
                        for index in 0..<count {
                            for byte in 0..<bytesPerPixel {
                                rowStart[(produced + index) * bytesPerPixel + byte] = pixel.buffer[byte]
                            }
                        }
                        cursor += bytesPerPixel
                    default:
                        throw chunk.error(at: cursor - 4, "packet flag 0x\(String(flag, radix: 16)) is neither literal (0x00) nor run (0x80)")
                    }
                    produced += count
                }
            }
            return rowBytes * rows
        }
    }
}
