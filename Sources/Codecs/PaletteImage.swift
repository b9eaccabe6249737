import BinaryReading

/// CoreUI's palette images (catalog compression 8): an LZFSE container holding a colour table and
/// packed indices of 1 to 16 bits.
public enum PaletteImage {
    static let magic: UInt32 = 0xCAFE_F00D

    /// Decodes one chunk into premultiplied B, G, R, A pixels.
    public static func decode(_ chunk: ByteSpan, width: Int, rows: Int) throws -> [UInt8] {
        let unpacked = try LZFSE.decompress(chunk.buffer, limit: 8 + 2 + 4 * 65536 + width * rows * 2 + 16 * rows + 16)
        let data = ByteSpan(copying: unpacked, structure: "palette image")
        guard try data.u32le(0) == magic else { throw data.error(at: 0, "missing 0xCAFEF00D palette magic") }
        let colourCount = Int(try data.u16le(8))
        guard colourCount > 0 else { throw data.error(at: 8, "palette has no colours") }
        let entries = try data.slice(10, colourCount * 4, as: "palette entries")
        guard let bits = [1, 2, 4, 8, 16].first(where: { 1 << $0 >= colourCount }) else {
            throw data.error(at: 8, "\(colourCount) colours need more than 16-bit indices")
        }
        let rowBytes = (width * bits + 15) / 16 * 2
        let indices = try data.suffix(from: 10 + colourCount * 4, as: "palette indices")
        guard indices.count == rowBytes * rows else {
            throw indices.error(at: 0, "\(indices.count) index bytes, \(width)x\(rows) at \(bits) bits needs \(rowBytes * rows)")
        }
        let mask = (1 << bits) - 1
        return try makeBytes(capacity: width * rows * 4) { output throws in
            for y in 0..<rows {
                for x in 0..<width {
                    let bitOffset = x * bits
                    let word = Int(try indices.u16le(y * rowBytes + (bitOffset / 16) * 2))
                    let index = (word >> (16 - bits - bitOffset % 16)) & mask
                    guard index < colourCount else {
                        throw indices.error(at: y * rowBytes, "index \(index) is beyond the \(colourCount)-colour palette")
                    }
                    let target = output + (y * width + x) * 4
                    // Entries are A, R, G, B; pixels are B, G, R, A.
                    target[0] = entries.buffer[index * 4 + 3]
                    target[1] = entries.buffer[index * 4 + 2]
                    target[2] = entries.buffer[index * 4 + 1]
                    target[3] = entries.buffer[index * 4]
                }
            }
            return width * rows * 4
        }
    }
}
