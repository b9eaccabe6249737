import BinaryReading

/// One entry of the BITMAPKEYS tree: for one facet identifier, which values each key attribute
/// takes among that facet's renditions.
///
/// car-format.md 4.6 leaves the layout open; the corpus settles it. The value is little-endian
/// u32s: version 1, 0, the byte length of what follows, the number of KEYFORMAT attributes, then
/// one 32-bit set per attribute in KEYFORMAT order, bit `v` set when some rendition of the facet
/// has value `v`. Attributes that identify rather than vary a facet (element, part, identifier,
/// appearance, value, previous value) are all ones in catalogs since Xcode 9 (zero in one older
/// catalog). Every facet has an entry, colours and data included. CoreUI can use the sets to skip
/// impossible keys; nothing here needs them to find a rendition.
public struct BitmapKeySummary: Sendable, Equatable {
    public var identifier: Int
    /// One set per KEYFORMAT attribute, in KEYFORMAT order.
    public var masks: [UInt32]

    /// The set of an attribute that is not summarized.
    public static let untracked: UInt32 = 0xFFFF_FFFF
    /// element, part, value, appearance, identifier, previous value.
    public static let untrackedAttributes: Set<Int> = [1, 2, 6, 7, 17, 18]

    public init(identifier: Int, masks: [UInt32]) {
        self.identifier = identifier
        self.masks = masks
    }

    /// Reads an entry's value.
    public init(identifier: Int, value: ByteSpan) throws {
        let value = value.named("BITMAPKEYS value")
        let version = try value.u32le(0)
        guard version == 1 else { throw value.error(at: 0, "version \(version), expected 1") }
        let length = try value.int32le(8), count = try value.int32le(12)
        guard count <= 64, length == 4 + 4 * count else {
            throw value.error(at: 8, "length \(length) and attribute count \(count) disagree (expected length 4 + 4 × count, count ≤ 64)")
        }
        try value.require(16, 4 * count, "\(count) attribute sets")
        var masks: [UInt32] = []
        for index in 0..<count { masks.append(try value.u32le(16 + 4 * index)) }
        self.init(identifier: identifier, masks: masks)
    }

    /// The entry Xcode would write for a facet whose renditions have `keys` (each a list of
    /// values in `keyFormat` order). A value of 32 or more cannot be placed in the set (Xcode
    /// maps subtype 1792 to a bit whose rule is unknown), so such an attribute is written as
    /// untracked: a reader that prunes by the sets then never skips a rendition that exists.
    public init(identifier: Int, keys: [[Int]], keyFormat: [Int]) {
        let masks = keyFormat.enumerated().map { position, attribute -> UInt32 in
            guard !Self.untrackedAttributes.contains(attribute) else { return Self.untracked }
            var mask: UInt32 = 0
            for key in keys {
                guard position < key.count, (0..<32).contains(key[position]) else { return Self.untracked }
                mask |= 1 << UInt32(key[position])
            }
            return mask
        }
        self.init(identifier: identifier, masks: masks)
    }

    /// The entry's value bytes.
    public var bytes: [UInt8] {
        ([1, 0, UInt32(4 + 4 * masks.count), UInt32(masks.count)] + masks).flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
        }
    }
}
