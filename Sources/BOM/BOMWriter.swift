/// Writes BOMStore containers: numbered blocks, named variables and B+trees, big-endian as
/// Apple's writer lays them out (header, blocks, vars, block index).
public struct BOMWriter {
    public private(set) var blocks: [[UInt8]] = [[]] // id 0 is "none"
    private var vars: [(String, Int)] = []

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

    /// A tree of `items`, which must already be in key order, each key in a block of its own,
    /// in 4096-byte nodes as Xcode writes RENDITIONS, FACETKEYS and APPEARANCEKEYS.
    public mutating func addTree(_ name: String, items: [(key: [UInt8], value: [UInt8])], keySizeHint: UInt32) {
        addTree(name, values: items.map(\.value), keys: .blocks(items.map(\.key)), blockSize: 4096, keySizeHint: keySizeHint)
    }

    /// A tree whose keys are 32-bit numbers stored in the entries themselves (BITMAPKEYS: the
    /// facet identifier), in 1024-byte nodes, as Xcode writes it.
    public mutating func addInlineKeyTree(_ name: String, items: [(key: UInt32, value: [UInt8])]) {
        addTree(name, values: items.map(\.value), keys: .inline(items.map(\.key)), blockSize: 1024, keySizeHint: 0)
    }

    private enum Keys {
        case blocks([[UInt8]])
        case inline([UInt32])
    }

    /// Leaves of `blockSize` bytes hold (blockSize - 12) / 8 entries; more leaves get one index
    /// node above them (count separators, the last child in the extra slot).
    private mutating func addTree(_ name: String, values: [[UInt8]], keys: Keys, blockSize: Int, keySizeHint: UInt32) {
        let headerID = add([]) // filled once the root is known
        let itemsPerLeaf = (blockSize - 12) / 8
        let ranges = stride(from: 0, to: max(values.count, 1), by: itemsPerLeaf).map { $0 ..< min(values.count, $0 + itemsPerLeaf) }
        let firstLeaf = blocks.count
        // Leaf ids are allocated first and in order, so forward links can be written directly;
        // then each item's value block, and its key block unless keys are inline.
        var nextID = firstLeaf + ranges.count
        var valueIDs: [Int] = [], entryKeys: [Int] = []
        for index in values.indices {
            valueIDs.append(nextID)
            switch keys {
            case .blocks: entryKeys.append(nextID + 1); nextID += 2
            case .inline(let inline): entryKeys.append(Int(inline[index])); nextID += 1
            }
        }
        var leafIDs: [Int] = []
        var separators: [Int] = []
        for (number, range) in ranges.enumerated() {
            var entries: [UInt8] = []
            for index in range { entries += be32(valueIDs[index]) + be32(entryKeys[index]) }
            let forward = number + 1 < ranges.count ? firstLeaf + number + 1 : 0
            let backward = number > 0 ? firstLeaf + number - 1 : 0
            add(be16(1) + be16(range.count) + be32(forward) + be32(backward) + entries)
            leafIDs.append(firstLeaf + number)
            separators.append(range.isEmpty ? 0 : entryKeys[range.upperBound - 1])
        }
        for index in values.indices {
            add(values[index])
            if case .blocks(let keyBytes) = keys { add(keyBytes[index]) }
        }
        var root = leafIDs.first ?? 0
        if leafIDs.count > 1 {
            var entries: [UInt8] = []
            for (child, key) in zip(leafIDs.dropLast(), separators.dropLast()) { entries += be32(child) + be32(key) }
            entries += be32(leafIDs[leafIDs.count - 1]) + be32(0)
            root = add(be16(0) + be16(leafIDs.count - 1) + be32(0) + be32(0) + entries)
        }
        let inlineFlag: UInt8 = if case .inline = keys { 1 } else { 0 }
        blocks[headerID] = Array("tree".utf8) + be32(1) + be32(root) + be32(blockSize) + be32(values.count) + [inlineFlag]
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
