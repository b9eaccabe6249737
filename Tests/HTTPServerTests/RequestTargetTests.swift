import HTTPServer
import HTTPTypes
import Testing

/// How a request target becomes a path and query parameters (`Request.init`).
@Suite("request targets")
struct RequestTargetTests {
    @Test("path and query are percent-decoded; + is a space only in the query; the last of a repeated name wins")
    func decoding() throws {
        let request = try Request(target: "/a%20b/c+d?x=1&&y=a+b%26c&z&x=2&k=v=w&%C3%A9=%E2%9C%93&=empty-name")
        #expect(request.path == "/a b/c+d")
        #expect(request.query == ["x": "2", "y": "a b&c", "z": "", "k": "v=w", "é": "✓", "": "empty-name"])
        #expect(try Request(target: "/themes?").query.isEmpty)
        var items: [String] = []
        #expect(request.forEachQueryItem { items.append("\($0)=\($1)") })
        #expect(items == ["x=1", "y=a b&c", "z=", "x=2", "k=v=w", "é=✓", "=empty-name"], "every item in the target's order, repeats included")
        #expect(try Request(target: "/themes/dark/colors/primary").pathSegments == ["themes", "dark", "colors", "primary"])
    }

    @Test("broken percent-encoding in the path or the query is an error", arguments: ["/a%2", "/a%zz", "/?x=%", "/?%G1=1", "/?x=%FF", "/%FF"])
    func broken(target: String) {
        #expect(throws: Request.TargetError.self) { try Request(target: target) }
    }

    @Test("header names are kept as sent, the common ones and any other, and found in any case")
    func fieldNames() throws {
        let parser = RequestParser(limits: .init(requestLineBytes: 8192, headerBytes: 16384, bodyBytes: 1024))
        let head = "GET /themes?x=1 HTTP/1.1\r\nHost: a.example\r\nuser-agent: lower\r\nACCEPT: upper\r\nX-Custom: mine\r\n"
            + "Accept-Language: fr\r\n\r\n"
        guard case .request(let parsed, _, _, _) = parser.parse(Array(head.utf8)[...], remoteAddress: "127.0.0.1:1") else {
            Issue.record("not parsed")
            return
        }
        let request = try parsed.request()
        #expect(request.headers.map(\.name.rawName) == ["Host", "user-agent", "ACCEPT", "X-Custom", "Accept-Language"])
        #expect(request.headers[.userAgent] == "lower" && request.headers[.accept] == "upper" && request.headers[.acceptLanguage] == "fr")
        #expect(request.headers[HTTPField.Name("x-custom")!] == "mine" && request.path == "/themes" && request.query == ["x": "1"])
    }

    @Test("a checked head gives its fields as sent, values trimmed, and its target in origin form before any Request is made")
    func head() throws {
        let parser = RequestParser(limits: .init(requestLineBytes: 8192, headerBytes: 16384, bodyBytes: 1024))
        let text = "GET http://a.example/themes?x=%41 HTTP/1.1\r\nHost: a.example\r\nACCEPT:\t text/plain \r\nX-Empty:\r\n\r\n"
        guard case .request(let head, _, _, _) = parser.parse(Array(text.utf8)[...], remoteAddress: "127.0.0.1:1") else {
            Issue.record("not parsed")
            return
        }
        var fields: [String] = []
        head.forEachField { name, value in
            let text = { (bytes: Span<UInt8>) in bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }
            fields.append(text(name) + "=" + text(value))
        }
        #expect(fields == ["Host=a.example", "ACCEPT=text/plain", "X-Empty="])
        #expect(head.withTarget { $0.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } } == "/themes?x=%41")
        let request = try head.request()
        #expect(request.target == "/themes?x=%41" && request.query == ["x": "A"] && request.headers[.accept] == "text/plain")
        #expect(request.headers.count == 3 && request.method == .get && request.remoteAddress == "127.0.0.1:1")
        // A direct route's request: the same target, peer and method, no fields made.
        let targetOnly = try head.targetOnlyRequest()
        #expect(targetOnly.target == request.target && targetOnly.query == ["x": "A"] && targetOnly.path == "/themes")
        #expect(targetOnly.headers.isEmpty && targetOnly.method == .get && targetOnly.remoteAddress == "127.0.0.1:1")
    }
}
