import BinaryReading
import Codecs
import FuzzTargets
import Testing

/// The size of a HEIF image from its header (`HEIF.size`): catalogs store HEIF renditions with a
/// 0 x 0 CSI header, so this is the only place their size comes from.
@Suite("HEIF header")
struct HEIFTests {
    static func size(_ bytes: [UInt8]) -> (Int, Int)? {
        HEIF.size(of: ByteSpan(copying: bytes)).map { ($0.width, $0.height) }
    }

    @Test("the primary item's ispe, not a thumbnail's listed before it")
    func primary() throws {
        let file = FuzzSeeds.heif(width: 3024, height: 4032, thumbnail: (240, 320))
        #expect(try #require(Self.size(file)) == (3024, 4032))
        #expect(try #require(Self.size(FuzzSeeds.heif(width: 3024, height: 4032, thumbnail: (240, 320), primaryItem: 2))) == (240, 320),
                "pitm naming the other item")
    }

    @Test("without an association for the primary item, the largest ispe")
    func largest() throws {
        let file = FuzzSeeds.heif(width: 6000, height: 4000, thumbnail: (300, 200), primaryItem: 9)
        #expect(try #require(Self.size(file)) == (6000, 4000))
    }

    @Test("every truncation and a size past the end give nil or a size, never a crash or a read out of bounds")
    func truncated() {
        let file = FuzzSeeds.heif(width: 64, height: 48, thumbnail: (16, 12))
        var sized = 0
        for length in 0..<file.count {
            if let size = Self.size(Array(file.prefix(length))) {
                #expect(size == (64, 48) || size == (16, 12))
                sized += 1
            }
        }
        #expect(Self.size(file).map { $0 == (64, 48) } == true)
        // The file ends inside the meta box; nothing past the header is needed or read.
        #expect(sized == 0, "a meta box cut short is not read")
        var lying = file
        lying[3] = 0xFF // ftyp claims 255 bytes
        #expect(Self.size(lying) == nil)
    }

    @Test("sides of 2^32 - 1 (the largest ispe holds): compared without overflow, the larger area wins")
    func hugeSides() throws {
        // No association for item 9: the largest extent is chosen, comparing areas of ~1.8e19.
        let file = FuzzSeeds.heif(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF, thumbnail: (0xFFFF_FFFF, 2), primaryItem: 9)
        #expect(try #require(Self.size(file)) == (0xFFFF_FFFF, 0xFFFF_FFFF))
    }

    @Test("not HEIF: a PNG, a JPEG's start and nothing at all")
    func other() {
        #expect(Self.size([]) == nil)
        #expect(Self.size(FuzzSeeds.seeds(for: "png")[1]) == nil)
        #expect(Self.size(Array("ftypheic".utf8)) == nil)
    }
}
