import Foundation
@testable import HTTPServer
import HTTPTypes
import Synchronization
import TestSupport
import Testing

/// An answer kept to be sent many times (`PreparedResponse`) and the fields a request adds to it
/// (`FieldLines`): what a head handler hands the server, and what the client receives.
@Suite("prepared answers and a request's own fields")
struct PreparedResponseTests {
    static let answer = Response(status: .ok, headers: [.contentType: "application/json", .eTag: "\"abc\""], body: Array("{\"a\":1}".utf8))

    @Test("lengths are written as decimal digits after what the head holds")
    func decimals() {
        for value in [0, 7, 10, 99, 12_345, Int.max] {
            var bytes = Array("Content-Length: ".utf8)
            ResponseWriter.appendDecimal(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "Content-Length: \(value)")
        }
    }

    @Test("field lines are written as sent, read back in order, and tell where a value is")
    func fieldLines() throws {
        var lines = FieldLines()
        #expect(lines.isEmpty)
        let id = lines.append(HTTPField.Name("X-Request-Id")!) { $0 += "abc-1f".utf8 }
        lines.append(.vary, "Origin")
        #expect(String(decoding: lines.bytes, as: UTF8.self) == "X-Request-Id: abc-1f\r\nVary: Origin\r\n")
        #expect(lines.text(at: id) == "abc-1f")
        #expect(lines.fields.map { "\($0.name.rawName)=\($0.value)" } == ["X-Request-Id=abc-1f", "Vary=Origin"])
        let capacity = lines.bytes.capacity
        lines.removeAll()
        #expect(lines.isEmpty && lines.bytes.capacity == capacity, "emptied, its storage kept for the next request")
    }

    @Test("a template's answers carry the head prepared() would make, for each body; a changed header drops it")
    func template() throws {
        let template = ResponseTemplate(Self.answer)
        for body in [[], Array("{}".utf8), Array(repeating: UInt8(ascii: "x"), count: 12345)] {
            let made = template.response(body: body)
            #expect(made.preparedHead?.bytes == ResponseWriter.fixedPart(status: .ok, headers: Self.answer.headers, bodyLength: body.count))
            #expect(made.prepared().preparedHead?.bytes == made.preparedHead?.bytes, "kept, not made again")
            #expect(PreparedResponse(made)?.bodyLength == body.count)
        }
        var changed = template.response(body: Array("{}".utf8))
        changed.headers[.cacheControl] = "no-store"
        #expect(changed.preparedHead == nil)
        #expect(changed.prepared().preparedHead?.bytes == ResponseWriter.fixedPart(status: .ok, headers: changed.headers, bodyLength: 2))
    }

    @Test("a prepared answer: its head serialised once; as one request receives it, with that request's fields after the answer's")
    func prepared() throws {
        let prepared = try #require(PreparedResponse(Self.answer))
        #expect(prepared.status == .ok && prepared.bodyLength == 7)
        #expect(prepared.response.preparedHead?.bytes == ResponseWriter.fixedPart(status: .ok, headers: Self.answer.headers, bodyLength: 7))
        var fields = FieldLines()
        fields.append(HTTPField.Name("X-Request-Id")!, "r-1")
        let received = prepared.response(adding: fields)
        #expect(received.allHeaders.map(\.value) == ["application/json", "\"abc\"", "r-1"])
        #expect(prepared.response.requestFields.isEmpty, "the kept answer itself is unchanged")
        let copy = prepared.ownCopy()
        #expect(copy.response.preparedHead?.bytes == prepared.response.preparedHead?.bytes && copy.response.bodyBytes() == Self.answer.bodyBytes())
        #expect(PreparedResponse(Response(status: .ok, stream: { $0.close() })) == nil, "a stream's length is not known: nothing to prepare")
    }

    @Test("the server sends a head handler's prepared answer with the fields each request added, on every kind of request")
    func served() throws {
        let prepared = try #require(PreparedResponse(Self.answer))
        let handedEmpty = Mutex<[Bool]>([])
        let count = Mutex(0)
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        let responder = Responder { head, fields in
            handedEmpty.withLock { $0.append(fields.isEmpty) }
            guard head.withTarget({ $0.count }) == 5 else { return nil } // "/kept"; others go to the handler
            let number = count.withLock { count in
                count += 1
                return count
            }
            fields.append(HTTPField.Name("X-Request-Id")!, "r-\(number)")
            return prepared
        }
        let server = HTTPServer(configuration: configuration, headResponder: responder) { _ in Response(status: .notFound, body: Array("routed".utf8)) }
        try server.start()
        defer { server.shutdown(timeout: .seconds(2)) }

        let client = try TestClient(port: server.port)
        client.send("GET /kept HTTP/1.1\r\nHost: a\r\n\r\nHEAD /kept HTTP/1.1\r\nHost: a\r\n\r\nGET /other HTTP/1.1\r\nHost: a\r\n\r\n")
        let first = try client.readResponse()
        #expect(first.status == 200 && first.text == "{\"a\":1}" && first.headers["x-request-id"] == "r-1" && first.headers["etag"] == "\"abc\"")
        let head = try client.readResponse(headRequest: true)
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "7" && head.headers["x-request-id"] == "r-2")
        let routed = try client.readResponse()
        #expect(routed.status == 404 && routed.text == "routed" && routed.headers["x-request-id"] == nil)

        // HTTP/1.0 keep-alive is answered so; a request that asks to close is closed after it.
        let old = try TestClient(port: server.port)
        old.send("GET /kept HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let kept = try old.readResponse()
        #expect(kept.headers["connection"] == "keep-alive" && kept.headers["x-request-id"] == "r-3")
        old.send("GET /kept HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        #expect(try old.readResponse().headers["connection"] == "close")
        #expect(old.isClosedByServer())
        #expect(handedEmpty.withLock { $0 } == [true, true, true, true, true], "each request's fields start empty")
    }
}

/// A head responder made of a closure, for tests.
struct Responder: HeadResponder {
    let answer: @Sendable (RequestHead, inout FieldLines) -> PreparedResponse?

    init(_ answer: @escaping @Sendable (RequestHead, inout FieldLines) -> PreparedResponse?) { self.answer = answer }

    func answer(_ head: RequestHead, requestFields: inout FieldLines) -> PreparedResponse? { answer(head, &requestFields) }
}
