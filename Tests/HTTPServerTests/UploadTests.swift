import Foundation
import HTTPServer
import HTTPTypes
import Synchronization
import Testing
import TestSupport

/// Upload routes' bodies go to files as they arrive (`BodySpool`): sized before a byte is
/// written, never whole in memory, and gone when the client leaves half way.
@Suite("uploads spooled to disk")
struct UploadTests {
    static func spool(_ folder: String, maxBytes: Int = 8 << 20) -> BodySpool {
        BodySpool(directory: folder, maxBytes: maxBytes) { head in head.method == .post && head.path == "/upload" }
    }

    @Test("the parser hands an upload's head on with its length; a chunked upload is 411, one past the limit 413")
    func parserOutcomes() throws {
        let parser = RequestParser(limits: .init(requestLineBytes: 8192, headerBytes: 16384, bodyBytes: 1024), spool: Self.spool("/tmp", maxBytes: 4096))
        let head = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3000\r\n\r\n"
        guard case .spool(let request, let length, let keepAlive, _, let consumed) = parser.parse(Array((head + "abc").utf8)[...], remoteAddress: "a") else {
            Issue.record("an upload's head is handed on before its body")
            return
        }
        #expect(request.path == "/upload" && length == 3000 && keepAlive && consumed == head.utf8.count)
        let chunked = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        guard case .failure(let status, _) = parser.parse(Array(chunked.utf8)[...], remoteAddress: "a") else { Issue.record("chunked refused"); return }
        #expect(status == .lengthRequired)
        let large = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4097\r\n\r\n"
        guard case .failure(let tooLarge, _) = parser.parse(Array(large.utf8)[...], remoteAddress: "a") else { Issue.record("too large refused"); return }
        #expect(tooLarge == .contentTooLarge)
        // Another route keeps the in-memory limit.
        let other = "POST /other HTTP/1.1\r\nHost: x\r\nContent-Length: 3000\r\n\r\n"
        guard case .failure(let otherStatus, _) = parser.parse(Array(other.utf8)[...], remoteAddress: "a") else { Issue.record("in-memory limit"); return }
        #expect(otherStatus == .contentTooLarge)
        // A GET is never asked about (even of a spool that would take any request): a read's head
        // stays a head, with no Request made for the question.
        let anything = RequestParser(limits: parser.limits, spool: BodySpool(directory: "/tmp", maxBytes: 4096) { _ in true })
        guard case .request = anything.parse(Array("GET /upload HTTP/1.1\r\nHost: x\r\n\r\n".utf8)[...], remoteAddress: "a") else {
            Issue.record("a GET is not an upload")
            return
        }
        guard case .spool = anything.parse(Array("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".utf8)[...], remoteAddress: "a") else {
            Issue.record("another method is asked")
            return
        }
    }

    @Test("a 3 MB upload arrives whole in a file the handler reads; the file is gone after; a body cut off leaves nothing")
    func spooledOverSocket() throws {
        let folder = NSTemporaryDirectory() + "themed-spool-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let handled = Atomic<Int>(0)
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        configuration.spool = Self.spool(folder)
        let server = HTTPServer(configuration: configuration) { request in
            handled.add(1, ordering: .relaxed)
            guard let body = request.spooledBody, let bytes = FileManager.default.contents(atPath: body.path) else {
                return Response(status: .badRequest)
            }
            let sum = bytes.reduce(0) { ($0 &+ Int($1)) & 0xffff_ffff }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: Array("\(body.count) \(bytes.count) \(sum)".utf8))
        }
        try server.start()
        defer { server.shutdown(timeout: .seconds(2)) }

        let body = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let expected = body.reduce(0) { ($0 &+ Int($1)) & 0xffff_ffff }
        let client = try TestClient(port: server.port)
        client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
        for start in stride(from: 0, to: body.count, by: 100_000) { client.send(Array(body[start..<min(body.count, start + 100_000)])) }
        let answer = try client.readResponse()
        #expect(answer.status == 200 && answer.text == "3000000 3000000 \(expected)", "\(answer.text)")
        // The connection stays usable, and the request (with its file) is gone once answered.
        #expect(try client.request("/other").status == 400)
        #expect(waitUntil(2) { (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true })

        let cut = try TestClient(port: server.port)
        cut.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n")
        cut.send(Array(body[0..<500_000]))
        #expect(waitUntil(2) { (try? FileManager.default.contentsOfDirectory(atPath: folder))?.count == 1 }, "the body goes to a file as it arrives")
        let before = handled.load(ordering: .relaxed)
        shutdown(cut.fd, Int32(SHUT_RDWR))
        #expect(waitUntil(2) { (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true }, "a body cut off leaves no file")
        #expect(handled.load(ordering: .relaxed) == before, "and no handler saw it")
    }
}
