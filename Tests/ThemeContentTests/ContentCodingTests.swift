import Testing
import ThemeContent

@Suite("content codings")
struct ContentCodingTests {
    @Test("Accept-Encoding chooses the coding of highest weight, brotli first on equal weight; spaces and tabs around a part, and letter case, do not matter")
    func preferredByAcceptEncoding() {
        #expect(ContentCoding.preferred(byAcceptEncoding: "gzip, deflate, br, zstd") == .brotli)
        #expect(ContentCoding.preferred(byAcceptEncoding: "gzip") == .gzip)
        #expect(ContentCoding.preferred(byAcceptEncoding: " \tGZIP ;\tq=0.5 , br ; q=0.4\t") == .gzip)
        #expect(ContentCoding.preferred(byAcceptEncoding: "x-gzip") == .gzip)
        #expect(ContentCoding.preferred(byAcceptEncoding: "*;q=0.1, br;q=0") == .gzip, "* stands for the codings not named")
    }

    @Test("identity when nothing we make is acceptable: no header value, identity alone, every coding refused, empty parts")
    func identity() {
        for header in ["", "identity", "gzip;q=0, br;q=0", " , ;, \t", "*;q=0", "deflate"] {
            #expect(ContentCoding.preferred(byAcceptEncoding: header) == nil, "\(header)")
        }
    }
}
