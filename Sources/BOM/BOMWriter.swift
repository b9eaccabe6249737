/// Writes BOMStore containers: numbered blocks, named variables and B+trees, big-endian as
/// Apple's writer lays them out (header, blocks, vars, block index).
public struct BOMWriter {
    public private(set) var blocks: [[UInt8]] = [[]] // id 0 is "none"
    private var vars: [(String, Int)] = []

    /// Leaves hold at most this many items, as in catalogs Xcode writes with 4096-byte nodes.
    public static let itemsPerLeaf = (4096 - 12) / 8

    public init() {}

    /// Adds a block and returns its id.
    @discardableResult
    public mutating func add(_ bytes: [UInt8]) -> Int {
        blocks.append(bytes)
        return blocks.count - 1
    }

    /// Names an existing block.
    public mutating func name(_ name: String, block: Int) {
        vars.append((name, block))
    }

    /// Adds a plain block under a variable name.
    public mutating func addVariable(_ name: String, bytes: [UInt8]) {
        vars.append((name, add(bytes)))
    }

    /// A tree of `items`, which must already be in key order. `inlineKeys` stores each key as the
    /// entry's 32-bit key field (BITMAPKEYS) instead of a block.
    public mutating func addTree(_ name: String, items: [(key: [UInt8], value: [UInt8])], keySizeHint: UInt32) {
        let headerID = add([]) // filled once the root is known
        var leafIDs: [Int] = []
        var lastKeys: [Int] = []
        let chunks = stride(from: 0, to: max(items.count, 1), by: Self.itemsPerLeaf).map { Array(items[$0 ..< min(items.count, $0 + Self.itemsPerLeaf)]) }
        let firstLeaf = blocks.count
        // Leaf ids are allocated in order, so forward links can be written directly.
        var pendingLeaves: [[UInt8]] = []
        var nextID = firstLeaf + chunks.count
        for (number, chunk) in chunks.enumerated() {
            var entries: [UInt8] = []
            for _ in chunk {
                let valueID = nextID, keyID = nextID + 1
                nextID += 2
                entries += be32(valueID) + be32(keyID)
            }
            let forward = number + 1 < chunks.count ? firstLeaf + number + 1 : 0
            let backward = number > 0 ? firstLeaf + number - 1 : 0
            pendingLeaves.append(be16(1) + be16(chunk.count) + be32(forward) + be32(backward) + entries)
            leafIDs.append(firstLeaf + number)
            lastKeys.append(nextID - 1)
        }
        for leaf in pendingLeaves { _ = add(leaf) }
        for item in chunks.joined() {
            _ = add(item.value)
            _ = add(item.key)
        }
        var root = leafIDs.first ?? 0
        if leafIDs.count > 1 {
            // An index node: count separators, and the last child in the extra slot.
            var entries: [UInt8] = []
            for (child, key) in zip(leafIDs.dropLast(), lastKeys.dropLast()) { entries += be32(child) + be32(key) }
            entries += be32(leafIDs[leafIDs.count - 1]) + be32(0)
            root = add(be16(0) + be16(leafIDs.count - 1) + be32(0) + be32(0) + entries)
        }
        blocks[headerID] = Array("tree".utf8) + be32(1) + be32(root) + be32(4096) + be32(items.count) + [0]
            + be32(Int(keySizeHint)) + be32(0)
        vars.append((name, headerID))
    }

    /// The file: header, block data, vars, block index.
    public func file() -> [UInt8] {
        var data = Array("BOMStore".utf8) + be32(1) + be32(blocks.count - 1) + [UInt8](repeating: 0, count: 16)
        var ranges: [(Int, Int)] = [(0, 0)]
        for block in blocks.dropFirst() {
            ranges.append((data.count, block.count))
            data += block
        }
        let varsOffset = data.count
        data += be32(vars.count)
        for (name, block) in vars { data += be32(block) + [UInt8(name.utf8.count)] + Array(name.utf8) }
        let varsLength = data.count - varsOffset
        let indexOffset = data.count
        data += be32(ranges.count)
        for (offset, length) in ranges { data += be32(offset) + be32(length) }
        data += be32(0) // empty free list
        let indexLength = data.count - indexOffset
        data.replaceSubrange(16..<32, with: be32(indexOffset) + be32(indexLength) + be32(varsOffset) + be32(varsLength))
        return data
    }
}

func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> (8 * $0) & 0xFF) } }
