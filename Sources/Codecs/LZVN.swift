import BinaryReading

/// Apple's LZVN: a byte-oriented LZ77 used on its own (catalog compression 3), inside LZFSE
/// containers (`bvxn` blocks) and in deepmap streams.
///
/// The decoder writes into caller-provided memory so that LZFSE can place a block directly after
/// the previous one and matches can reach back across block boundaries, as Apple's decoder allows.
public enum LZVN {
    /// Decodes the raw stream in `input` into a new buffer of at most `limit` bytes. The stream
    /// must end with the 8-byte end-of-stream marker; with `exact`, nothing may follow it.
    public static func decompress(_ input: UnsafeRawBufferPointer, limit: Int, exact: Bool = false) throws -> [UInt8] {
        try makeBytes(capacity: limit) { output throws in
            let (produced, consumed) = try decode(input, into: output, start: 0, capacity: limit)
            guard !exact || consumed == input.count else {
                throw FormatError("LZVN stream", at: consumed, "\(input.count - consumed) bytes follow the end-of-stream marker")
            }
            return produced
        }
    }

    public static func decompress(_ input: [UInt8], limit: Int, exact: Bool = false) throws -> [UInt8] {
        try input.withUnsafeBytes { bytes throws in try decompress(bytes, limit: limit, exact: exact) }
    }

    /// Decodes `input` into `output[start ..< capacity]` until the end-of-stream marker and
    /// returns the new end of the output and the bytes consumed. Matches may refer to anything in
    /// `output[0 ..< start]`.
    static func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<UInt8>,
                       start: Int, capacity: Int) throws -> (produced: Int, consumed: Int) {
        guard let source = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw FormatError("LZVN stream", at: 0, "empty stream has no end-of-stream opcode")
        }
        let end = input.count
        var position = 0
        var produced = start
        var distance = 0

        func failure(_ reason: String) -> FormatError { FormatError("LZVN stream", at: position, reason) }

        while true {
            guard position < end else { throw failure("stream ends without an end-of-stream opcode") }
            let op = source[position]
            var literalCount = 0
            var matchCount = 0
            var opcodeLength = 1

            switch op {
            case 0x06:
                guard end - position >= 8 else { throw failure("end-of-stream marker is cut off") }
                return (produced, position + 8)
            case 0x0E, 0x16:
                position += 1
                continue
            case 0x1E, 0x26, 0x2E, 0x36, 0x3E, 0x70...0x7F, 0xD0...0xDF:
                throw failure("invalid opcode 0x\(String(op, radix: 16))")
            case 0xA0...0xBF:
                opcodeLength = 3
                guard position + 3 <= end else { throw failure("medium-distance opcode is cut off") }
                let operand = Int(source[position + 1]) | Int(source[position + 2]) << 8
                literalCount = Int((op >> 3) & 3)
                matchCount = ((Int(op & 7) << 2) | (operand & 3)) + 3
                distance = operand >> 2
            case 0xE0:
                opcodeLength = 2
                guard position + 2 <= end else { throw failure("large-literal opcode is cut off") }
                literalCount = Int(source[position + 1]) + 16
            case 0xE1...0xEF:
                literalCount = Int(op & 0x0F)
            case 0xF0:
                opcodeLength = 2
                guard position + 2 <= end else { throw failure("large-match opcode is cut off") }
                matchCount = Int(source[position + 1]) + 16
            case 0xF1...0xFF:
                matchCount = Int(op & 0x0F)
            default:
                literalCount = Int(op >> 6)
                matchCount = Int((op >> 3) & 7) + 3
                switch op & 7 {
                case 7:
                    opcodeLength = 3
                    guard position + 3 <= end else { throw failure("large-distance opcode is cut off") }
                    distance = Int(source[position + 1]) | Int(source[position + 2]) << 8
                case 6:
                    break
                default:
                    opcodeLength = 2
                    guard position + 2 <= end else { throw failure("small-distance opcode is cut off") }
                    distance = Int(op & 7) << 8 | Int(source[position + 1])
                }
            }

            position += opcodeLength
            if literalCount > 0 {
                guard literalCount <= end - position else { throw failure("\(literalCount) literal bytes run past the stream") }
                guard literalCount <= capacity - produced else { throw failure("output exceeds the expected \(capacity) bytes") }
                (output + produced).update(from: source + position, count: literalCount)
                position += literalCount
                produced += literalCount
            }
            if matchCount > 0 {
                guard distance > 0, distance <= produced else {
                    throw failure("match distance \(distance) reaches before the start of the output (\(produced) bytes)")
                }
                guard matchCount <= capacity - produced else { throw failure("output exceeds the expected \(capacity) bytes") }
                copyMatch(output, at: produced, distance: distance, count: matchCount)
                produced += matchCount
            }
        }
    }
}

/// Copies `count` bytes from `distance` bytes back; overlapping copies repeat the pattern.
/// May write up to 7 bytes past `position + count` (see `outputSlack`).
@inline(__always)
func copyMatch(_ output: UnsafeMutablePointer<UInt8>, at position: Int, distance: Int, count: Int) {
    let destination = output + position
    let source = destination - distance
    if distance >= 8 {
        copyWide(destination, distance: distance, from: 0, to: count)
    } else if distance == 1 {
        destination.update(repeating: source[0], count: count)
    } else {
        // The output repeats with period `distance`, so it also repeats with any multiple of it:
        // write one multiple >= 8 byte by byte, then copy eight bytes at a time from that far back.
        let period = distance * ((8 + distance - 1) / distance)
        let head = min(count, period)
        for index in 0..<head { destination[index] = source[index] }
        if count > head { copyWide(destination, distance: period, from: head, to: count) }
    }
}

/// `destination[i] = destination[i - distance]` for i in `start ..< end`, eight bytes at a time
/// (distance >= 8, so each load reads only bytes already written).
@inline(__always)
private func copyWide(_ destination: UnsafeMutablePointer<UInt8>, distance: Int, from start: Int, to end: Int) {
    var index = start
    repeat {
        UnsafeMutableRawPointer(destination + index).storeBytes(
            of: UnsafeRawPointer(destination + index - distance).loadUnaligned(as: UInt64.self), as: UInt64.self)
        index &+= 8
    } while index < end
}

/// Copies `count` literal bytes; may write up to 7 bytes past the end, and read up to 7 past
/// the source's end (callers keep slack in both buffers).
@inline(__always)
func copyLiterals(_ destination: UnsafeMutablePointer<UInt8>, from source: UnsafePointer<UInt8>, count: Int) {
    var index = 0
    while index < count {
        UnsafeMutableRawPointer(destination + index).storeBytes(
            of: UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self), as: UInt64.self)
        index &+= 8
    }
}
