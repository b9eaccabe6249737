import BinaryReading

/// The largest buffer any decoder will produce, whatever a file claims: a crafted header cannot
/// make the daemon allocate more than this.
public let maximumDecodedBytes = 256 << 20

/// Bytes a decoder may write past the end of its output: room for copying literals and matches
/// eight bytes at a time, as fast LZ decoders do, without a bounds check per byte.
let outputSlack = 16

/// Runs `fill` over `capacity` (+ `outputSlack`) bytes of uninitialised memory and returns the
/// first bytes it reports as written. Decoders write straight into the array they return.
func makeBytes(capacity: Int, _ fill: (UnsafeMutablePointer<UInt8>) throws -> Int) throws -> [UInt8] {
    guard capacity >= 0, capacity <= maximumDecodedBytes else {
        throw FormatError("output", at: 0, "\(capacity) bytes is over the \(maximumDecodedBytes)-byte cap")
    }
    var failure: (any Error)?
    let bytes = [UInt8](unsafeUninitializedCapacity: capacity + outputSlack) { buffer, count in
        count = 0
        guard let base = buffer.baseAddress else { return }
        do {
            let written = try fill(base)
            // Only hand out what was initialised.
            count = min(max(written, 0), capacity)
        } catch {
            failure = error
        }
    }
    if let failure { throw failure }
    return bytes
}
