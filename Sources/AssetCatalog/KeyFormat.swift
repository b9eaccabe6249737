import BinaryReading

/// KEYFORMAT: which attribute each position of a rendition key holds.
public struct KeyFormat: Sendable, Equatable {
    /// Attribute ids by key position, after KEYFORMATWORKAROUND has been applied.
    public var attributeIDs: [Int]

    init(_ block: ByteSpan, workaround: ByteSpan?) throws {
        guard block.has("tmfk") else { throw block.error(at: 0, "expected the KEYFORMAT tag tmfk, found \(try block.fourCC(0))") }
        let count = try block.int32le(8)
        guard count <= (block.count - 12) / 4 else { throw block.error(at: 8, "\(count) attributes do not fit in \(block.count) bytes") }
        var ids: [Int] = []
        for index in 0..<count { ids.append(try block.int32le(12 + 4 * index)) }
        // Some CoreUI 498/499 catalogs list attribute 5 twice and name the real ones here.
        if let workaround {
            for index in ids.indices where index * 4 + 4 <= workaround.count {
                let replacement = try workaround.int32le(index * 4)
                if replacement != 0 { ids[index] = replacement }
            }
        }
        attributeIDs = ids
    }

    /// The position of `attribute` in a key, if the format has it.
    public func position(of attribute: RenditionAttribute) -> Int? {
        attributeIDs.firstIndex(of: attribute.rawValue)
    }

    /// The attribute names for reports, with unknown ids as numbers.
    public var attributeNames: [String] {
        attributeIDs.map { RenditionAttribute(rawValue: $0)?.coreUIName ?? "kCRThemeUnknown\($0)Name" }
    }
}
