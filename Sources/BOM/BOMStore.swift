import BinaryReading

/// Apple's BOMStore container: a file of numbered blocks, a table of named variables and B+trees.
///
/// Compiled asset catalogs are BOMStore files. The container is big-endian; what the blocks hold
/// is up to the format inside (CoreUI's structures are little-endian). Nothing here trusts the
/// file: every offset is checked against the mapped bytes before it is followed.
public struct BOMStore: Sendable {
    /// Fields of the 32-byte header.
    public struct Header: Sendable, Equatable {
        public var version: UInt32
        public var blockCount: Int
        public var indexOffset: Int
        public var indexLength: Int
        public var varsOffset: Int
        public var varsLength: Int
    }

    /// A block's place in the file.
    public struct BlockRange: Sendable, Equatable {
        public var offset: Int
        public var length: Int
    }

    public let file: ByteSpan
    public let header: Header
    /// Block index entries by id; id 0 means "none".
    public let blocks: [BlockRange]
    /// Variable names in file order, with the block each names.
    public let vars: [(name: String, block: Int)]

    public init(_ file: ByteSpan) throws {
        let file = file.named("BOM header")
        guard file.has("BOMStore") else {
            throw file.error(at: 0, file.count < 8 ? "file is \(file.count) bytes, too short for a BOMStore" : "magic is not BOMStore")
        }
        header = Header(version: try file.u32be(8), blockCount: try file.int32be(12),
                        indexOffset: try file.int32be(16), indexLength: try file.int32be(20),
                        varsOffset: try file.int32be(24), varsLength: try file.int32be(28))
        self.file = file.named("file")
        blocks = try Self.readBlockIndex(file.named("BOM block index"), at: header.indexOffset)
        vars = try Self.readVars(file.named("BOM vars"), at: header.varsOffset, length: header.varsLength)
    }

    private static func readBlockIndex(_ file: ByteSpan, at offset: Int) throws -> [BlockRange] {
        let capacity = try file.int32be(offset)
        let available = (file.count - offset - 4) / 8
        guard capacity <= available else {
            throw file.error(at: offset, "block index claims \(capacity) entries, file has room for \(available)")
        }
        var blocks: [BlockRange] = []
        blocks.reserveCapacity(capacity)
        for id in 0..<capacity {
            let entry = offset + 4 + id * 8
            blocks.append(BlockRange(offset: try file.int32be(entry), length: try file.int32be(entry + 4)))
        }
        return blocks
    }

    private static func readVars(_ file: ByteSpan, at offset: Int, length: Int) throws -> [(name: String, block: Int)] {
        let table = try file.slice(offset, length, as: "BOM vars")
        let count = try table.int32be(0)
        guard count <= (table.count - 4) / 5 else {
            throw table.error(at: 0, "\(count) vars cannot fit in \(table.count) bytes")
        }
        var vars: [(name: String, block: Int)] = []
        var cursor = 4
        for _ in 0..<count {
            let block = try table.int32be(cursor)
            let nameLength = Int(try table.u8(cursor + 4))
            let name = try table.slice(cursor + 5, nameLength, as: "BOM var name").utf8String
            vars.append((name, block))
            cursor += 5 + nameLength
        }
        return vars
    }

    /// The bytes of block `id`, checked against the file.
    public func block(_ id: Int, as structure: String = "block") throws -> ByteSpan {
        guard id > 0, id < blocks.count else {
            throw FormatError(structure, at: header.indexOffset, "block id \(id) is not in the index of \(blocks.count) entries")
        }
        let range = blocks[id]
        do {
            return try file.slice(range.offset, range.length, as: structure)
        } catch {
            throw FormatError(structure, at: range.offset, "block \(id) (\(range.length) bytes at \(range.offset)) runs past the end of the \(file.count)-byte file")
        }
    }

    /// The block id a variable names, or nil when the file has no such variable.
    public func varBlock(_ name: String) -> Int? {
        vars.first { $0.name == name }?.block
    }

    /// The plain block a variable names.
    public func variable(_ name: String) throws -> ByteSpan? {
        guard let id = varBlock(name) else { return nil }
        return try block(id, as: name)
    }

    /// The B+tree a variable names.
    public func tree(_ name: String, inlineKeys: Bool = false) throws -> BOMTree? {
        guard let id = varBlock(name) else { return nil }
        return try BOMTree(store: self, name: name, headerBlock: id, inlineKeys: inlineKeys)
    }
}
