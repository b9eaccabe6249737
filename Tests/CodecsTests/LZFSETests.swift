import BinaryReading
@testable import Codecs
import Testing
import TestSupport

@Suite("LZFSE")
struct LZFSETests {
    @Test("every vector from Apple's encoder decodes to the recorded bytes", arguments: Vectors.entries.map(\.name))
    func decodesVector(_ name: String) throws {
        let entry = try #require(Vectors.entries.first { $0.name == name })
        let decoded = try LZFSE.decompress(Vectors.bytes("\(name).lzfse"))
        #expect(decoded.count == entry.decodedLength)
        #expect(SHA256.hex(decoded) == entry.sha256)
    }

    @Test("the vectors exercise stored, LZVN and entropy-coded blocks")
    func vectorsCoverEveryBlockKind() {
        let magics = Set(Vectors.entries.flatMap(\.blockMagics))
        #expect(magics.isSuperset(of: ["bvx-", "bvxn", "bvx2", "bvx$"]))
    }

    @Test("a bvx1 block (uncompressed header tables) decodes like the bvx2 block it restates")
    func decodesV1Block() throws {
        let packed = Vectors.bytes("text.lzfse")
        let header = try packed.withUnsafeBytes { try FSEBlockHeader(ByteSpan(copying: Array($0)), at: 0, isV1: false) }
        var v1 = Array("bvx1".utf8) + le32(header.rawBytes) + le32(header.literalPayloadBytes + header.lmdPayloadBytes)
        v1 += le32(header.literalCount) + le32(header.matchCount) + le32(header.literalPayloadBytes) + le32(header.lmdPayloadBytes)
        v1 += le32(header.literalBits & 0xFFFF_FFFF) + header.literalStates.flatMap(le16)
        v1 += le32(header.lmdBits & 0xFFFF_FFFF) + le16(header.lState) + le16(header.mState) + le16(header.dState)
        v1 += header.frequencies.flatMap(le16) + [0, 0]
        #expect(v1.count == 772)
        v1 += packed[header.headerSize ..< header.blockLength] + Array("bvx$".utf8)
        let firstBlock = try LZFSE.decompress(packed).prefix(header.rawBytes)
        #expect(try LZFSE.decompress(v1) == Array(firstBlock))
    }

    @Test("a prefix decodes only the blocks that hold it, and equals the start of the whole")
    func prefix() throws {
        let packed = Vectors.bytes("multiblock.lzfse")
        let whole = try LZFSE.decompress(packed)
        let blocks = try packed.withUnsafeBytes { try LZFSE.scan($0, limit: maximumDecodedBytes).blocks }
        #expect(blocks.count > 1)
        for count in [0, 1, 1024, blocks[0].rawBytes, blocks[0].rawBytes + 1, whole.count, whole.count + 10] {
            let prefix = try packed.withUnsafeBytes { try LZFSE.decompressPrefix($0, count: count) }
            #expect(prefix == Array(whole.prefix(count)), "\(count)")
        }
        // A prefix inside the first block never touches the second: a damaged later block is no error.
        var damaged = packed
        damaged[blocks[1].offset + blocks[1].length - 1] ^= 0xFF
        let head = try damaged.withUnsafeBytes { try LZFSE.decompressPrefix($0, count: 16) }
        #expect(head == Array(whole.prefix(16)))
    }

    @Test("a container cut short anywhere is an error, never a crash or a short result")
    func truncatedContainersFail() {
        let packed = Vectors.bytes("text.lzfse")
        for length in stride(from: 0, to: packed.count, by: 97) {
            #expect(throws: FormatError.self) { try LZFSE.decompress(Array(packed[..<length])) }
        }
    }

    @Test("flipped bits give an error or some output, never a crash")
    func bitFlipsAreSurvived() throws {
        let packed = Vectors.bytes("pixels.lzfse")
        var generator = SplitMix(seed: 7)
        var failures = 0
        for _ in 0..<300 {
            var damaged = packed
            let bit = Int(generator.next() % UInt64(damaged.count * 8))
            damaged[bit / 8] ^= 1 << UInt8(bit % 8)
            do { _ = try LZFSE.decompress(damaged) } catch { failures += 1 }
        }
        #expect(failures > 0, "some flips in headers and tables must be detected")
    }

    @Test("the decoded size is capped before anything is allocated")
    func limitIsEnforced() {
        let packed = Vectors.bytes("zeros.lzfse")
        #expect(throws: FormatError.self) { try LZFSE.decompress(packed, limit: 1000) }
        var hostile = Array("bvx-".utf8) + le32(Int(UInt32.max)) + Array("bvx$".utf8)
        #expect(throws: FormatError.self) { try LZFSE.decompress(hostile) }
        hostile = Array("bvx2".utf8) + [UInt8](repeating: 0xFF, count: 40)
        #expect(throws: FormatError.self) { try LZFSE.decompress(hostile) }
    }

    @Test("input that is not LZFSE is rejected at offset 0")
    func rejectsOtherData() {
        #expect(throws: FormatError("LZFSE container", at: 0, "no LZFSE block magic")) {
            try LZFSE.decompress(Array("PNG data".utf8))
        }
    }
}

