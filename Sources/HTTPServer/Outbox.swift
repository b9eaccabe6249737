#if canImport(Glibc)
import Glibc
#endif

/// A connection's answers not yet written: bytes, and file regions sent with `sendfile`, in order.
///
/// Invariants (checked by `checkInvariants` after every change in debug and test builds, and by
/// `OutboxTests`): no chunk is empty; `written` is less than the first chunk's size; `unsent` is
/// the chunks' sizes less `written`.
struct Outbox {
    enum Chunk {
        case bytes([UInt8])
        case file(FileRegion)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .file(let region): region.count
            }
        }
    }

    private(set) var chunks: [Chunk] = []
    /// How much of the first chunk is written.
    private(set) var written = 0
    /// Bytes not yet written.
    private(set) var unsent = 0
    /// The buffer of answers already written, emptied and kept for the next ones.
    private var spareBuffer: [UInt8] = []
    /// The size of the tail `takeTail` took, while it is off the outbox.
    private var tailTaken = 0

    /// A written buffer of bytes up to this size is kept for the next answers.
    static let spareBufferLimit = 64 << 10

    var isEmpty: Bool { chunks.isEmpty }

    /// The bytes waiting at the end of the outbox, taken off it so that they grow in place
    /// (consecutive bytes go out in one send), or else the buffer of an earlier answer kept for
    /// reuse: answering does not allocate a buffer per response. `putTail` puts it back; nothing
    /// else may change the outbox between the two.
    mutating func takeTail() -> [UInt8] {
        if let last = chunks.indices.last, case .bytes = chunks[last], case .bytes(let bytes) = chunks.removeLast() {
            tailTaken = bytes.count
            return bytes
        }
        tailTaken = 0
        var buffer: [UInt8] = []
        swap(&buffer, &spareBuffer)
        return buffer
    }

    /// Puts the buffer `takeTail` gave back at the end, with what was appended to it. (A tail
    /// that is also the first chunk keeps its `written` prefix: those bytes are unchanged.)
    mutating func putTail(_ buffer: consuming [UInt8]) {
        unsent += buffer.count - tailTaken
        tailTaken = 0
        if !buffer.isEmpty { chunks.append(.bytes(buffer)) }
        checkInvariants()
    }

    mutating func append(_ bytes: [UInt8]) {
        var buffer = takeTail()
        buffer += bytes
        putTail(buffer)
    }

    mutating func append(_ region: FileRegion) {
        guard region.count > 0 else { return }
        unsent += region.count
        chunks.append(.file(region))
        checkInvariants()
    }

    /// `count` bytes of the first chunk's unwritten part reached the socket; a chunk written
    /// whole is dropped (a buffer of bytes of ordinary size kept for reuse).
    mutating func wrote(_ count: Int) {
        written += count
        unsent -= count
        if written == chunks[0].count {
            written = 0
            if case .bytes(var bytes) = chunks.removeFirst(), bytes.capacity <= Self.spareBufferLimit {
                bytes.removeAll(keepingCapacity: true)
                spareBuffer = bytes
            }
        }
        checkInvariants()
    }

    /// Stops on a broken invariant in debug builds and the test build (`make test` defines
    /// CHECK_INVARIANTS); `OutboxTests` also read `invariantsHold` directly.
    func checkInvariants() {
        #if DEBUG || CHECK_INVARIANTS
        precondition(invariantsHold, "the outbox's accounting is broken: \(chunks.count) chunks, \(written) written, \(unsent) unsent")
        #endif
    }

    var invariantsHold: Bool {
        let total = chunks.reduce(0) { $0 + $1.count }
        return chunks.allSatisfy { $0.count > 0 } && (chunks.isEmpty ? written == 0 : written < chunks[0].count) && unsent == total - written
    }

    /// Writes what the socket `fd` takes of the first chunk's unwritten part: the bytes written
    /// (or -1, errno set); nil when its file ended early. The chunk is not held once this returns,
    /// so the spare buffer is the only reference to it and is reused in place. Inlined where it is
    /// called, as when it was the connection's own (each answer's write).
    @inline(__always)
    func writeFirstChunk(to fd: Int32) -> Int? {
        switch chunks[0] {
        case .bytes(let bytes):
            let flags = Int32(MSG_NOSIGNAL) | (chunks.count > 1 ? Int32(MSG_MORE) : 0)
            return bytes.withUnsafeBytes { buffer in send(fd, buffer.baseAddress.map { $0 + written }, bytes.count - written, flags) }
        case .file(let region):
            var position = off_t(region.offset + written)
            let sent = sendfile(fd, region.descriptor, &position, region.count - written)
            return sent == 0 ? nil : sent
        }
    }
}
