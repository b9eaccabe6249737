@testable import HTTPServer
import Testing

/// The outbox's accounting: what is unsent, how far the first chunk is written, and the tail that
/// grows in place.
@Suite("Outbox")
struct OutboxTests {
    @Test("bytes queued one after another grow one chunk, so they leave in one send")
    func tailGrows() {
        var outbox = Outbox()
        outbox.append(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        outbox.append(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
        #expect(outbox.chunks.count == 1)
        #expect(outbox.unsent == 19 + 27)
        #expect(outbox.invariantsHold)
    }

    @Test("a partly written tail that grows keeps what was written of it")
    func partlyWrittenTail() {
        var outbox = Outbox()
        outbox.append(Array(repeating: 1, count: 100))
        outbox.wrote(60)
        outbox.append(Array(repeating: 2, count: 10))
        #expect(outbox.written == 60)
        #expect(outbox.unsent == 50)
        #expect(outbox.invariantsHold)
        outbox.wrote(50)
        #expect(outbox.isEmpty && outbox.unsent == 0 && outbox.invariantsHold)
    }

    @Test("a file region is a chunk of its own between bytes; an empty one is not queued")
    func fileRegions() {
        // The outbox only counts a region's bytes; sending them is the connection's.
        let file = FileRegion(descriptor: -1, offset: 0, count: 300, owner: 0)
        var outbox = Outbox()
        outbox.append(Array(repeating: 0, count: 40))
        outbox.append(file)
        outbox.append(FileRegion(descriptor: -1, offset: 0, count: 0, owner: 0))
        outbox.append(Array(repeating: 0, count: 5))
        #expect(outbox.chunks.count == 3)
        #expect(outbox.unsent == 345)
        outbox.wrote(40)
        outbox.wrote(299)
        #expect(outbox.written == 299 && outbox.unsent == 6 && outbox.invariantsHold)
        outbox.wrote(1)
        #expect(outbox.chunks.count == 1 && outbox.written == 0 && outbox.unsent == 5)
    }

    @Test("a written buffer is kept for the next answer: queueing after it does not allocate")
    func spareBufferReused() {
        var outbox = Outbox()
        outbox.append(Array(repeating: 7, count: 1000))
        let storage = outbox.chunks.first.map { chunk -> UnsafeRawPointer? in
            guard case .bytes(let bytes) = chunk else { return nil }
            return bytes.withUnsafeBytes { $0.baseAddress }
        } ?? nil
        outbox.wrote(1000)
        var reused = outbox.takeTail()
        #expect(reused.isEmpty && reused.capacity >= 1000)
        #expect(reused.withUnsafeBytes { $0.baseAddress } == storage)
        reused += [1, 2, 3]
        outbox.putTail(reused)
        #expect(outbox.unsent == 3 && outbox.invariantsHold)
    }
}
