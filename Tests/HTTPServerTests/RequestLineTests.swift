@testable import HTTPServer
import Testing

/// The one grammar of the request line, read whole (its line feed arrived) or as a beginning.
@Suite("The request line")
struct RequestLineTests {
    enum Expected: Equatable {
        case line
        case incomplete
        case failure(status: Int)
    }

    static func read(_ text: String, complete: Bool) -> (Expected, RequestLine?) {
        let bytes = Array(text.utf8)
        switch RequestLine.read(bytes.span, line: 0 ..< bytes.count, complete: complete) {
        case .line(let line): return (.line, line)
        case .incomplete: return (.incomplete, nil)
        case .failure(let failure): return (.failure(status: Int(failure.status.code)), nil)
        }
    }

    @Test("whole lines", arguments: [
        ("GET / HTTP/1.1", Expected.line),
        ("get /lower-case-method HTTP/1.0", .line),
        ("GET /caf\u{E9}?q=\u{1F600} HTTP/1.1", .line),
        ("OPTIONS * HTTP/1.1", .line),
        ("GET * HTTP/1.1", .failure(status: 400)),
        ("GET / HTTP/2.0", .failure(status: 505)),
        ("GET / HTTP/1.1 extra", .failure(status: 400)),
        ("GET  / HTTP/1.1", .failure(status: 400)),
        (" GET / HTTP/1.1", .failure(status: 400)),
        ("GET /", .failure(status: 400)),
        ("GET / HTTPS/1.1", .failure(status: 400)),
        ("G(T / HTTP/1.1", .failure(status: 400)),
        ("GET relative HTTP/1.1", .failure(status: 400)),
    ])
    func whole(_ line: String, _ expected: Expected) {
        #expect(Self.read(line, complete: true).0 == expected)
    }

    @Test("an absolute-form target is read in origin form, its authority standing for the Host")
    func absoluteForm() throws {
        let line = try #require(Self.read("GET HTTP://example.com:8080?x=1 HTTP/1.1", complete: true).1)
        #expect(line.reducedTarget == Array("/?x=1".utf8))
        #expect(line.authority.map { Array(Array("GET HTTP://example.com:8080?x=1 HTTP/1.1".utf8)[$0]) } == Array("example.com:8080".utf8))
    }

    @Test("beginnings: a valid one waits for more; one that cannot become a request line is refused at once", arguments: [
        ("GE", Expected.incomplete),
        ("GET /themes/light/colors/pri", .incomplete),
        ("GET / HTT", .incomplete),
        ("GET / HTTP/1.1\r", .incomplete),
        ("\u{16}\u{03}\u{01}\u{02}", .failure(status: 400)), // a TLS ClientHello
        ("GET /a\u{01}", .failure(status: 400)),
        ("GET / HTTPS", .failure(status: 400)),
        ("GET / HTTP/1.1 ", .failure(status: 400)),
        ("GET / HTTP/1.1x", .failure(status: 400)),
    ])
    func beginnings(_ text: String, _ expected: Expected) {
        #expect(Self.read(text, complete: false).0 == expected)
    }

    @Test("every beginning of a valid line is incomplete: the two readings are one grammar")
    func prefixesOfValidLines() {
        for line in ["GET /themes/dark/colors/primary?appearance=dark HTTP/1.1", "OPTIONS * HTTP/1.0", "PUT http://h/active HTTP/1.1"] {
            #expect(Self.read(line, complete: true).0 == .line)
            for end in 0 ..< line.utf8.count {
                let prefix = String(decoding: Array(line.utf8)[..<end], as: UTF8.self)
                #expect(Self.read(prefix, complete: false).0 == .incomplete, "\(prefix)")
            }
        }
    }
}
