import BinaryReading
import BOM
import Foundation
import Testing

/// Tree nodes written by hand, so that tests can build malformed trees (loops, bad counts)
/// that `BOMWriter.addTree` never produces.
enum Nodes {
    /// A tree node: leaf or index, with (value, key) entries and a forward link.
    static func node(leaf: Bool, entries: [(Int, Int)], forward: Int = 0, extraChild: Int? = nil) -> [UInt8] {
        var bytes = be16(leaf ? 1 : 0) + be16(entries.count) + be32(forward) + be32(0)
        for (value, key) in entries { bytes += be32(value) + be32(key) }
        if let extraChild { bytes += be32(extraChild) + be32(0) }
        return bytes
    }

    static func treeHeader(root: Int, count: Int) -> [UInt8] {
        Array("tree".utf8) + be32(1) + be32(root) + be32(4096) + be32(count) + [0]
    }
}

func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) } }

@Suite("BOMStore")
struct BOMStoreTests {
    /// A tree of five items in two leaves under an index root that holds count + 1 children.
    func sampleStore(cycle: Bool = false) -> [UInt8] {
        var writer = BOMWriter()
        let items = (1...5).map { index in (writer.add(Array("value\(index)".utf8)), writer.add(Array("key\(index)".utf8))) }
        let secondLeafID = writer.blocks.count + 1
        let firstLeaf = writer.add(Nodes.node(leaf: true, entries: Array(items[0..<3]), forward: secondLeafID))
        let secondLeaf = writer.add(Nodes.node(leaf: true, entries: Array(items[3..<5]), forward: cycle ? firstLeaf : 0))
        // count = 1: one separator entry, and the second child in the extra slot.
        let root = writer.add(Nodes.node(leaf: false, entries: [(firstLeaf, items[2].1)], extraChild: secondLeaf))
        writer.addVariable("PLAIN", bytes: [1, 2, 3])
        writer.name("ITEMS", block: writer.add(Nodes.treeHeader(root: root, count: 5)))
        return writer.file()
    }

    @Test("vars name blocks; a plain block reads back")
    func readsVars() throws {
        let store = try BOMStore(ByteSpan(copying: sampleStore()))
        #expect(store.vars.map(\.name) == ["PLAIN", "ITEMS"])
        #expect(try store.variable("PLAIN")?.bytes == [1, 2, 3])
        #expect(try store.variable("MISSING") == nil)
    }

    @Test("trees from BOMWriter.addTree read back in order, with an index root past one leaf")
    func writtenTrees() throws {
        var writer = BOMWriter()
        let items = (0..<1200).map { (key: Array(String(format: "%05d", $0).utf8), value: [UInt8(truncatingIfNeeded: $0)]) }
        writer.addTree("BIG", items: items, keySizeHint: 5)
        let store = try BOMStore(ByteSpan(copying: writer.file()))
        let read = try #require(try store.tree("BIG")).items()
        #expect(read.map(\.key.bytes) == items.map(\.key))
        #expect(read.map(\.value.bytes) == items.map(\.value))
    }

    @Test("inline-key trees (BITMAPKEYS) keep their 32-bit keys in the entries, in 1024-byte nodes")
    func inlineKeyTrees() throws {
        var writer = BOMWriter()
        let items = (0..<300).map { (key: UInt32($0 * 7 + 1), value: [UInt8(truncatingIfNeeded: $0), 9]) }
        writer.addInlineKeyTree("BITS", items: items)
        let store = try BOMStore(ByteSpan(copying: writer.file()))
        let tree = try #require(try store.tree("BITS", inlineKeys: true))
        let read = try tree.items()
        #expect(read.map(\.inlineKey) == items.map(\.key))
        #expect(read.map(\.value.bytes) == items.map(\.value))
        let header = try #require(try store.variable("BITS"))
        #expect(try header.u32be(12) == 1024, "node size")
        #expect(try header.u8(20) == 1, "the inline-key flag Xcode sets")
        #expect(try store.block(tree.rootBlock).u16be(0) == 0, "300 items need an index node over 126-item leaves")
    }

    @Test("a tree iterates every leaf through the forward chain, in key order")
    func iteratesTree() throws {
        let store = try BOMStore(ByteSpan(copying: sampleStore()))
        let tree = try #require(try store.tree("ITEMS"))
        let items = try tree.items()
        #expect(items.map(\.key.utf8String) == ["key1", "key2", "key3", "key4", "key5"])
        #expect(items.map(\.value.utf8String) == ["value1", "value2", "value3", "value4", "value5"])
        #expect(tree.declaredCount == 5)
    }

    @Test("a leaf chain that loops is an error, not a hang")
    func detectsLeafCycle() throws {
        let store = try BOMStore(ByteSpan(copying: sampleStore(cycle: true)))
        #expect(throws: FormatError.self) { try store.tree("ITEMS")?.items() }
    }

    @Test("bad magic, short files and out-of-range blocks name the structure and offset")
    func rejectsBadFiles() throws {
        #expect(throws: FormatError("BOM header", at: 0, "file is 3 bytes, too short for a BOMStore")) {
            try BOMStore(ByteSpan(copying: [1, 2, 3]))
        }
        var wrongMagic = sampleStore()
        wrongMagic[0] = UInt8(ascii: "X")
        #expect(throws: FormatError("BOM header", at: 0, "magic is not BOMStore")) { try BOMStore(ByteSpan(copying: wrongMagic)) }

        let store = try BOMStore(ByteSpan(copying: sampleStore()))
        #expect(throws: FormatError.self) { try store.block(0) }
        #expect(throws: FormatError.self) { try store.block(10_000) }

        var hugeIndex = sampleStore()
        let indexOffset = Int(hugeIndex[16]) << 24 | Int(hugeIndex[17]) << 16 | Int(hugeIndex[18]) << 8 | Int(hugeIndex[19])
        hugeIndex.replaceSubrange(indexOffset ..< indexOffset + 4, with: be32(0x7FFF_FFFF))
        #expect(throws: FormatError.self) { try BOMStore(ByteSpan(copying: hugeIndex)) }
    }

    @Test("a block that runs past the end of the file is an error")
    func rejectsBlockPastEnd() throws {
        var bytes = sampleStore()
        let indexOffset = Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19])
        // Entry 1's length (after the capacity word and entry 0).
        bytes.replaceSubrange(indexOffset + 4 + 8 + 4 ..< indexOffset + 4 + 8 + 8, with: be32(1 << 30))
        let store = try BOMStore(ByteSpan(copying: bytes))
        #expect(throws: FormatError.self) { try store.block(1) }
    }
}
