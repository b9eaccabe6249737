import BinaryReading

/// A B+tree in a BOMStore: keys and values are blocks, leaves are chained left to right.
///
/// Iteration descends to the leftmost leaf and follows the forward links, which visits every item
/// in key order even when index nodes are malformed in ways a depth-first walk would trip on
/// (index nodes hold `count + 1` children, a detail several public readers miss).
public struct BOMTree: Sendable {
    /// One item: its key bytes (or the inline key for trees such as BITMAPKEYS) and value bytes.
    public struct Item: Sendable {
        public var key: ByteSpan
        /// For inline-key trees, the key is the 32-bit number itself.
        public var inlineKey: UInt32
        public var value: ByteSpan
        public var valueBlock: Int
    }

    public let store: BOMStore
    public let name: String
    public let rootBlock: Int
    public let blockSize: Int
    /// Leaf item count the header promises.
    public let declaredCount: Int
    let inlineKeys: Bool

    static let maximumDepth = 32

    public init(store: BOMStore, name: String, headerBlock: Int, inlineKeys: Bool = false) throws {
        let header = try store.block(headerBlock, as: "\(name) tree header")
        guard header.has("tree") else { throw header.error(at: 0, "magic is not 'tree'") }
        try header.require(0, 21, "tree header")
        self.store = store
        self.name = name
        rootBlock = try header.int32be(8)
        blockSize = try header.int32be(12)
        declaredCount = try header.int32be(16)
        self.inlineKeys = inlineKeys
    }

    private struct Node {
        let span: ByteSpan
        let isLeaf: Bool
        let count: Int
        let forward: Int

        func entry(_ index: Int) throws -> (value: Int, key: Int) {
            (try span.int32be(12 + index * 8), try span.int32be(16 + index * 8))
        }
    }

    private func node(_ id: Int) throws -> Node {
        let span = try store.block(id, as: "\(name) tree node")
        let isLeaf = try span.u16be(0) != 0
        let count = Int(try span.u16be(2))
        // Index nodes carry one extra child after `count` entries.
        let entries = isLeaf ? count : count + 1
        try span.require(12, entries * 8, "\(entries) node entries")
        return Node(span: span, isLeaf: isLeaf, count: count, forward: try span.int32be(4))
    }

    /// Every item in key order. Stops with an error at the first broken node; items before it
    /// have been delivered to `body`.
    public func forEach(_ body: (Item) throws -> Void) throws {
        var id = rootBlock
        var current = try node(id)
        var depth = 0
        while !current.isLeaf {
            depth += 1
            guard depth <= Self.maximumDepth else { throw current.span.error(at: 0, "tree deeper than \(Self.maximumDepth) levels") }
            id = try current.entry(0).value
            current = try node(id)
        }
        var visited: Set<Int> = [id]
        while true {
            for index in 0..<current.count {
                let entry = try current.entry(index)
                let key = inlineKeys ? try current.span.slice(16 + index * 8, 4) : try store.block(entry.key, as: "\(name) key")
                let value = try store.block(entry.value, as: "\(name) value")
                try body(Item(key: key, inlineKey: UInt32(truncatingIfNeeded: entry.key), value: value, valueBlock: entry.value))
            }
            guard current.forward != 0 else { return }
            guard visited.insert(current.forward).inserted else {
                throw current.span.error(at: 4, "leaf chain loops back to block \(current.forward)")
            }
            id = current.forward
            current = try node(id)
            guard current.isLeaf else { throw current.span.error(at: 0, "leaf chain reaches an index node") }
        }
    }

    /// All items, in key order.
    public func items() throws -> [Item] {
        var result: [Item] = []
        try forEach { result.append($0) }
        return result
    }
}
