import BinaryReading
import Codecs
import Testing

@Suite("RLE and palette images")
struct PixelCodecTests {
    /// An RLE chunk of GA8 pixels: row 0 is a literal pair then a run, row 1 reuses row 0.
    func rleChunk(flag: UInt8 = 0x80) -> [UInt8] {
        let header = le32(3) + le32(4) + le32(2)
        let rowTable = le32(20) + le32(20)
        let row: [UInt8] = le32(2) + [10, 20, 30, 40] + [2, 0, 0, flag] + [5, 6]
        return header + rowTable + row
    }

    @Test("RLE literal and run packets fill rows; rows may share storage")
    func decodesRLE() throws {
        let pixels = try RLE.decode(ByteSpan(copying: rleChunk()), width: 4, rows: 2, bytesPerPixel: 2)
        let row: [UInt8] = [10, 20, 30, 40, 5, 6, 5, 6]
        #expect(pixels == row + row)
    }

    @Test("RLE packets with an unknown flag, overlong runs or a wrong size are errors")
    func rejectsBadRLE() {
        #expect(throws: FormatError.self) { try RLE.decode(ByteSpan(copying: rleChunk(flag: 0x40)), width: 4, rows: 2, bytesPerPixel: 2) }
        #expect(throws: FormatError.self) { try RLE.decode(ByteSpan(copying: rleChunk()), width: 3, rows: 2, bytesPerPixel: 2) }
        #expect(throws: FormatError.self) { try RLE.decode(ByteSpan(copying: rleChunk()), width: 4, rows: 2, bytesPerPixel: 4) }
        #expect(throws: FormatError.self) { try RLE.decode(ByteSpan(copying: Array(rleChunk().prefix(30))), width: 4, rows: 2, bytesPerPixel: 2) }
    }

    /// A palette image of `colours` entries (A, R, G, B) with the given indices, packed MSB first.
    func paletteChunk(colours: Int, indices: [[Int]]) -> [UInt8] {
        let bits = [1, 2, 4, 8, 16].first { 1 << $0 >= colours }!
        var data = le32(0xCAFE_F00D) + le32(1) + le16(colours)
        for index in 0..<colours { data += [255, UInt8(index & 0xFF), UInt8(index >> 8), 7] }
        for row in indices {
            var words = [UInt16](repeating: 0, count: (row.count * bits + 15) / 16)
            for (x, value) in row.enumerated() {
                let bit = x * bits
                words[bit / 16] |= UInt16(value) << UInt16(16 - bits - bit % 16)
            }
            data += words.flatMap { le16(Int($0)) }
        }
        return storedContainer(data)
    }

    @Test("palette images with 2-, 8- and 16-bit indices", arguments: [3, 200, 300])
    func decodesPalette(colours: Int) throws {
        let indices = [[0, 1, 2, colours - 1, 1], [2, 2, 0, 1, colours - 2]]
        let pixels = try PaletteImage.decode(ByteSpan(copying: paletteChunk(colours: colours, indices: indices)), width: 5, rows: 2)
        let expected = indices.flatMap { $0 }.flatMap { [7, UInt8($0 >> 8), UInt8($0 & 0xFF), 255] as [UInt8] }
        #expect(pixels == expected)
    }

    @Test("a palette index past the table is an error")
    func rejectsIndexPastPalette() {
        let chunk = paletteChunk(colours: 3, indices: [[0, 3]])
        #expect(throws: FormatError.self) { try PaletteImage.decode(ByteSpan(copying: chunk), width: 2, rows: 1) }
    }
}
