import HTTPServer
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
        #expect(try Request(target: "/themes/dark/colors/primary").pathSegments == ["themes", "dark", "colors", "primary"])
    }

    @Test("broken percent-encoding in the path or the query is an error", arguments: ["/a%2", "/a%zz", "/?x=%", "/?%G1=1", "/?x=%FF", "/%FF"])
    func broken(target: String) {
        #expect(throws: Request.TargetError.self) { try Request(target: target) }
    }
}
