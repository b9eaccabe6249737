import AssetCatalog
import BinaryReading
import Testing
import TestSupport

/// Damaged catalogs: truncated, bit-flipped and zeroed copies of every corpus file must give
/// errors (or partial results), never a crash, a hang or an unbounded allocation.
@Suite("damaged catalogs")
struct MutationTests {
    static let catalogs = Corpus.catalogNames

    /// Opens `bytes` as a catalog and decodes everything in it, swallowing the expected errors.
    /// Returns whether the file opened at all.
    @discardableResult
    func readEverything(_ bytes: [UInt8], name: String) -> Bool {
        guard let catalog = try? AssetCatalog(ByteSpan(copying: bytes, structure: "file"), path: name) else { return false }
        for rendition in catalog.renditions {
            _ = try? catalog.image(for: rendition)
        }
        _ = CatalogReport(catalog, decodeImages: false).json
        return true
    }

    @Test("truncated anywhere: an error or fewer renditions, never a crash", arguments: catalogs)
    func truncations(_ name: String) throws {
        let original = try [UInt8](contentsOf: Corpus.path(name))
        var random = SplitMix(seed: UInt64(original.count))
        var opened = 0
        for length in [0, 7, 31, 32, 100] + (0..<12).map({ _ in Int(random.next() % UInt64(original.count)) }) {
            if readEverything(Array(original.prefix(length)), name: name) { opened += 1 }
        }
        // The header names the index and vars, usually near the end: most truncations cannot open.
        #expect(opened < 17)
    }

    @Test("flipped bits and zeroed ranges: errors, never a crash", arguments: catalogs)
    func corruptions(_ name: String) throws {
        let original = try [UInt8](contentsOf: Corpus.path(name))
        var random = SplitMix(seed: UInt64(original.count) ^ 0xC0FFEE)
        for round in 0..<16 {
            var damaged = original
            if round % 2 == 0 {
                for _ in 0..<(1 + round * 4) {
                    let bit = Int(random.next() % UInt64(damaged.count * 8))
                    damaged[bit / 8] ^= 1 << UInt8(bit % 8)
                }
            } else {
                let start = Int(random.next() % UInt64(damaged.count))
                let length = min(damaged.count - start, 1 + Int(random.next() % 4096))
                for index in start ..< start + length { damaged[index] = round % 4 == 1 ? 0 : 0xFF }
            }
            readEverything(damaged, name: name)
        }
    }

    @Test("files that are not catalogs are rejected with the file named in a plain sentence, then the offset")
    func notCatalogs() {
        let cases: [([UInt8], String)] = [
            ([], "junk.car is not a complete asset catalog: it ends at byte 0"),
            (Array("BOMStore".utf8), "junk.car is not a complete asset catalog: it ends at byte 8"),
            (Array("PK\u{3}\u{4} zip file".utf8), "junk.car is not an asset catalog"),
            ([UInt8](repeating: 0, count: 4096), "junk.car is not an asset catalog"),
        ]
        for (bytes, sentence) in cases {
            #expect {
                try AssetCatalog(ByteSpan(copying: bytes, structure: "file"), path: "junk.car")
            } throws: { error in
                "\(error)".hasPrefix(sentence) && "\(error)".contains("(BOM header at offset")
            }
        }
        #expect(throws: CatalogError.self) { try AssetCatalog(path: "/nonexistent/file.car") }
    }
}


extension Array where Element == UInt8 {
    init(contentsOf path: String) throws {
        self = try ByteStorage(mapping: path).bytes
    }
}
