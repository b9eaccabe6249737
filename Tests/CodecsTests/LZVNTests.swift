import BinaryReading
import Codecs
import Testing
import TestSupport

@Suite("LZVN")
struct LZVNTests {
    @Test("raw streams from Apple's encoder decode to the recorded bytes", arguments: ["small-text", "small-pixels"])
    func decodesVector(_ name: String) throws {
        let entry = try #require(Vectors.entries.first { $0.name == name })
        let decoded = try LZVN.decompress(Vectors.bytes("\(name).lzvn"), limit: entry.decodedLength)
        #expect(SHA256.hex(decoded) == entry.sha256)
    }

    @Test("literals, a small-distance match, a repeated-distance match and end of stream")
    func decodesHandWrittenStream() throws {
        // 0x48 is LL=1, MMM=1 (M=4), DDD=0: a small distance in the next byte (3).
        let stream: [UInt8] = [0xE3, 0x61, 0x62, 0x63,   // "abc"
                               0x48, 0x03, 0x64,          // L=1 "d", M=4, D=3 -> "bcdb"
                               0xF2,                      // M=2 from D=3 -> "cd"
                               0x06, 0, 0, 0, 0, 0, 0, 0]
        #expect(try LZVN.decompress(stream, limit: 100) == Array("abcdbcdbcd".utf8))
    }

    @Test("a match before the start of the output is an error")
    func rejectsDistanceBeyondOutput() {
        #expect(throws: FormatError.self) { try LZVN.decompress([0xE1, 0x61, 0x48, 0x09, 0x62, 0x06, 0, 0, 0, 0, 0, 0, 0], limit: 100) }
    }

    @Test("invalid opcodes, missing end of stream and overlong output are errors")
    func rejectsMalformedStreams() throws {
        #expect(throws: FormatError.self) { try LZVN.decompress([0x1E, 0x06, 0, 0, 0, 0, 0, 0, 0], limit: 10) }
        #expect(throws: FormatError.self) { try LZVN.decompress([0xE2, 0x61, 0x62], limit: 10) }
        #expect(throws: FormatError.self) { try LZVN.decompress(literalLZVN([UInt8](repeating: 7, count: 40)), limit: 39) }
        #expect(throws: FormatError.self) { try LZVN.decompress([], limit: 10) }
        #expect(throws: FormatError.self) { try LZVN.decompress([0xE1, 0x61, 0x06, 0, 0], limit: 10) }
        #expect(throws: FormatError.self) { try LZVN.decompress(literalLZVN([1, 2]) + [0], limit: 10, exact: true) }
        #expect(try LZVN.decompress(literalLZVN([1, 2]) + [0], limit: 10) == [1, 2])
    }

    @Test("every truncation of a real stream is an error")
    func truncationsFail() {
        let stream = Vectors.bytes("small-text.lzvn")
        for length in 0..<stream.count where length % 7 == 0 {
            #expect(throws: FormatError.self) { try LZVN.decompress(Array(stream[..<length]), limit: 3000) }
        }
    }
}
