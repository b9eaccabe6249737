/// A small deterministic random generator (SplitMix64), so that mutation and fuzz-style tests
/// reproduce exactly.
public struct SplitMix {
    var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One way a mutation test damages bytes.
public enum ByteMutation: Sendable {
    /// Flip some bits of one byte.
    case flip
    /// Drop one byte.
    case delete
    /// Insert one of these bytes.
    case insert([UInt8])
    /// Overwrite one byte with one of these.
    case overwrite([UInt8])
    /// Cut everything from one position on.
    case truncate
}

extension SplitMix {
    /// `bytes` after 1 to `maximum` mutations drawn from `kinds`, each at a random position.
    public mutating func mutated(_ bytes: [UInt8], by kinds: [ByteMutation], maximum: Int) -> [UInt8] {
        var bytes = bytes
        for _ in 0..<(1 + Int(next() % UInt64(max(maximum, 1)))) {
            guard !bytes.isEmpty, !kinds.isEmpty else { break }
            let position = Int(next() % UInt64(bytes.count))
            switch kinds[Int(next() % UInt64(kinds.count))] {
            case .flip: bytes[position] ^= UInt8(truncatingIfNeeded: next() | 1)
            case .delete: bytes.remove(at: position)
            case .insert(let choices) where !choices.isEmpty: bytes.insert(choices[Int(next() % UInt64(choices.count))], at: position)
            case .overwrite(let choices) where !choices.isEmpty: bytes[position] = choices[Int(next() % UInt64(choices.count))]
            case .truncate: bytes.removeSubrange(position...)
            default: break
            }
        }
        return bytes
    }
}
