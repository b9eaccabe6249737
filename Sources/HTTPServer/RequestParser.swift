#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes

/// Incremental HTTP/1.1 request parsing (RFC 9112, with the checks RFC 9110 asks of a server):
/// takes the bytes received so far and returns a complete request, "need more", or the error
/// status to answer with before closing.
///
/// Bytes are checked as they arrive, so a client that sends garbage (or a TLS handshake to the
/// plain port) is answered at once instead of waiting for a blank line that never comes. Lines end
/// with CRLF or a bare LF (9112 2.2); a bare CR elsewhere is an error.
public struct RequestParser: Sendable {
    public struct Limits: Sendable {
        public var requestLineBytes: Int
        public var headerBytes: Int
        public var bodyBytes: Int

        public init(requestLineBytes: Int, headerBytes: Int, bodyBytes: Int) {
            (self.requestLineBytes, self.headerBytes, self.bodyBytes) = (requestLineBytes, headerBytes, bodyBytes)
        }
    }

    public enum Outcome {
        /// A complete request: its checked head (`RequestHead.request()` makes the `Request`).
        case request(RequestHead, keepAlive: Bool, version: HTTPVersion, consumed: Int)
        /// More bytes are needed; `head` says whether the head is complete and the body is being
        /// waited for (and whether the client waits for `100 Continue` before sending it).
        case incomplete(HeadProgress)
        /// The head of an upload route's request (see `BodySpool`): its body, `length` bytes,
        /// follows the `consumed` bytes of the head and goes to a file before the request is handled.
        case spool(Request, length: Int, keepAlive: Bool, version: HTTPVersion, consumed: Int)
        /// Answer with this status and close the connection.
        case failure(HTTPResponse.Status, String)
    }

    public enum HeadProgress: Equatable, Sendable {
        case receivingHead
        case receivingBody(expectsContinue: Bool)
    }

    public let limits: Limits
    /// Upload routes, whose bodies go to a file (nil: every body is read into memory).
    public let spool: BodySpool?

    public init(limits: Limits, spool: BodySpool? = nil) {
        self.limits = limits
        self.spool = spool
    }

    public func parse(_ buffer: ArraySlice<UInt8>, remoteAddress: String) -> Outcome {
        // The head is read through a Span: every read checked, and no reference counted per slice.
        let bytes = buffer.span
        let base = buffer.startIndex
        var cursor = 0
        // 9112 2.2: empty lines before the request line are ignored.
        while cursor < bytes.count, bytes[cursor] == .cr || bytes[cursor] == .lf {
            if bytes[cursor] == .cr, cursor + 1 < bytes.count, bytes[cursor + 1] != .lf { return .failure(.badRequest, "bare CR") }
            cursor += 1
        }
        let start = cursor
        guard let lineEnd = bytes.firstIndex(of: .lf, in: start ..< bytes.count) else {
            if let problem = Self.checkPartialRequestLine(buffer[(base + start)...]) { return .failure(.badRequest, problem) }
            if bytes.count - start > limits.requestLineBytes { return .failure(.uriTooLong, "request line too long") }
            return .incomplete(.receivingHead)
        }
        guard lineEnd - start <= limits.requestLineBytes + 1 else { return .failure(.uriTooLong, "request line too long") }
        let requestLine: RequestLine
        switch RequestLine.parse(bytes, line: Self.line(bytes, from: start, to: lineEnd)) {
        case .success(let line): requestLine = line
        case .failure(let failure): return .failure(failure.status, failure.message)
        }

        // Header fields, up to the empty line that ends the head: each checked, and those that
        // frame the message noted; no String is made of the others here.
        var framingFields = FramingFields()
        cursor = lineEnd + 1
        let fieldsStart = cursor
        while true {
            guard let end = bytes.firstIndex(of: .lf, in: cursor ..< bytes.count) else {
                if bytes.count - fieldsStart > limits.headerBytes { return .failure(.requestHeaderFieldsTooLarge, "headers too large") }
                if let problem = Self.checkPartialField(buffer[(base + cursor)...]) { return .failure(.badRequest, problem) }
                return .incomplete(.receivingHead)
            }
            guard end - fieldsStart <= limits.headerBytes else { return .failure(.requestHeaderFieldsTooLarge, "headers too large") }
            let line = Self.line(bytes, from: cursor, to: end)
            cursor = end + 1
            if line.isEmpty { break }
            switch Self.field(bytes, line: line) {
            case .success(let field): framingFields.note(field, in: bytes)
            case .failure(let failure): return .failure(.badRequest, failure.message)
            }
        }
        var head = RequestHead(method: requestLine.method, bytes: buffer[(base + start) ..< (base + cursor)], start: start,
                               requestLine: requestLine, fieldsStart: fieldsStart, remoteAddress: remoteAddress)

        // An upload route's body goes to a file (see `BodySpool`), under the spool's own limit;
        // its size must be known before a byte of it is read. A GET or HEAD is never an upload.
        var upload: Upload?
        if let spool, head.method != .get, head.method != .head, let request = try? head.request(), spool.accepts(request) {
            upload = Upload(request: request, spool: spool)
        }
        let framing: BodyFraming
        switch BodyFraming.of(framingFields, limit: upload?.spool.maxBytes ?? limits.bodyBytes) {
        case .success(.chunked) where upload != nil: return .failure(.lengthRequired, "an upload here must give Content-Length")
        case .success(let value): framing = value
        case .failure(let failure): return .failure(failure.status, failure.message)
        }
        if case .failure(let failure) = Self.checkHost(framingFields, requestLine: requestLine, in: bytes) { return .failure(.badRequest, failure.message) }
        let expectation = framingFields.expectation
        guard expectation == nil || expectation == "100-continue" else { return .failure(.expectationFailed, "only Expect: 100-continue is supported") }
        if let problem = head.withTarget(Request.problem(withTarget:)) { return .failure(.badRequest, problem.description) }

        let keepAlive = framingFields.keepAlive(version: requestLine.version)
        if let upload {
            let length = if case .length(let count) = framing { count } else { 0 }
            return .spool(upload.request, length: length, keepAlive: keepAlive, version: requestLine.version, consumed: cursor)
        }

        switch framing.read(buffer[(base + cursor)...], limit: limits.bodyBytes) {
        case .complete(let body, let end):
            head.body = body
            return .request(head, keepAlive: keepAlive, version: requestLine.version, consumed: end - base)
        case .incomplete:
            return .incomplete(.receivingBody(expectsContinue: expectation == "100-continue"))
        case .failure(let failure):
            return .failure(failure.status, failure.message)
        }
    }

    /// An upload route's request and the spool its body goes to.
    private struct Upload {
        let request: Request
        let spool: BodySpool
    }

    /// A line without its LF and the CR before it (of a chunked body's framing).
    static func line(_ buffer: ArraySlice<UInt8>, from start: Int, to lineFeed: Int) -> ArraySlice<UInt8> {
        lineFeed > start && buffer[lineFeed - 1] == .cr ? buffer[start ..< lineFeed - 1] : buffer[start ..< lineFeed]
    }

    /// A line without its LF and the CR before it.
    static func line(_ bytes: Span<UInt8>, from start: Int, to lineFeed: Int) -> Range<Int> {
        lineFeed > start && bytes[lineFeed - 1] == .cr ? start ..< lineFeed - 1 : start ..< lineFeed
    }

    /// Whether the start of a request line already cannot become a valid one (garbage, a TLS
    /// ClientHello): a token, a space, a target without control characters, a space, and the
    /// beginning of `HTTP/1.x`.
    static func checkPartialRequestLine(_ bytes: ArraySlice<UInt8>) -> String? {
        var part = 0, version: [UInt8] = []
        for (offset, byte) in bytes.enumerated() {
            if byte == .space {
                part += 1
                if part > 2 || offset == 0 { return "malformed request line" }
                continue
            }
            switch part {
            case 0 where !byte.isTokenCharacter: return "malformed request line"
            case 1 where byte < 0x21 || byte == 0x7F: return "control character in the request target"
            case 2:
                if byte == .cr && offset == bytes.count - 1 { return nil }
                version.append(byte)
                let pattern = Array("HTTP/".utf8)
                let matches = version.count <= 5 ? version.elementsEqual(pattern.prefix(version.count))
                    : version.count <= 8 && version.dropFirst(5).enumerated().allSatisfy { index, byte in
                        index == 1 ? byte == .dot : byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                    }
                if !matches { return "malformed request line" }
            default: continue
            }
        }
        return nil
    }

    /// Whether the start of a header line already cannot become a valid one.
    static func checkPartialField(_ bytes: ArraySlice<UInt8>) -> String? {
        var inName = true
        for (offset, byte) in bytes.enumerated() {
            if inName {
                if byte == .colon, offset > 0 { inName = false; continue }
                if offset == 0 && (byte == .space || byte == .tab) { return "obsolete line folding is not accepted" }
                if !byte.isTokenCharacter && !(byte == .cr && offset == bytes.count - 1) { return "malformed header line" }
            } else if byte.isForbiddenInFieldValue && !(byte == .cr && offset == bytes.count - 1) {
                return "control character in a header value"
            }
        }
        return nil
    }

    struct Failure: Error {
        var status: HTTPResponse.Status = .badRequest
        var message: String
    }

    /// `name: value`, the name a token with no space before the colon (9112 5.1), the value free
    /// of control characters (9110 5.5) and UTF-8: where the name is, and the value without the
    /// white space around it.
    static func field(_ bytes: Span<UInt8>, line: Range<Int>) -> Result<(name: Range<Int>, value: Range<Int>), Failure> {
        if let first = line.first, bytes[first] == .space || bytes[first] == .tab { return .failure(Failure(message: "obsolete line folding is not accepted")) }
        guard let colon = bytes.firstIndex(of: .colon, in: line), colon > line.lowerBound,
              bytes.allSatisfy(in: line.lowerBound ..< colon, \.isTokenCharacter) else {
            return .failure(Failure(message: "malformed header line"))
        }
        let rawValue = (colon + 1) ..< line.upperBound
        guard !bytes.contains(in: rawValue, where: \.isForbiddenInFieldValue) else { return .failure(Failure(message: "control character in a header value")) }
        let value = trimmed(bytes, rawValue)
        guard bytes.isUTF8(in: value) else { return .failure(Failure(message: "header value is not UTF-8")) }
        return .success((line.lowerBound ..< colon, value))
    }

    /// The range without spaces and tabs at either end.
    static func trimmed(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var (start, end) = (range.lowerBound, range.upperBound)
        while start < end, bytes[start] == .space || bytes[start] == .tab { start += 1 }
        while end > start, bytes[end - 1] == .space || bytes[end - 1] == .tab { end -= 1 }
        return start ..< end
    }

    /// The names most requests carry, spelled as clients send them, made once: a field named with
    /// one of them takes it, instead of its name being checked and lowercased again.
    static let commonNames: [(bytes: [UInt8], name: HTTPField.Name)] = [
        HTTPField.Name.hostField, .userAgent, .accept, .acceptEncoding, .acceptLanguage, .connection, .ifNoneMatch, .origin,
        .contentLength, .contentType, .cacheControl, .authorization,
    ].map { (Array($0.rawName.utf8), $0) }

    static func fieldName(_ bytes: Span<UInt8>) -> HTTPField.Name? {
        for common in commonNames where bytes.equals(0 ..< bytes.count, common.bytes) { return common.name }
        return HTTPField.Name(bytes.string(in: 0 ..< bytes.count))
    }

    /// 9112 3.2: an HTTP/1.1 request has exactly one valid Host; with an absolute-form target the
    /// target's authority is the host.
    static func checkHost(_ fields: FramingFields, requestLine: RequestLine, in bytes: Span<UInt8>) -> Result<Void, Failure> {
        guard fields.hostCount <= 1 else { return .failure(Failure(message: "more than one Host header")) }
        if let host = fields.host, !isValidHost(bytes, host) { return .failure(Failure(message: "invalid Host header")) }
        if let authority = requestLine.authority {
            guard isValidHost(bytes, authority), !authority.isEmpty else { return .failure(Failure(message: "invalid authority in the request target")) }
            return .success(())
        }
        guard requestLine.version == .http10 || fields.host != nil else { return .failure(Failure(message: "HTTP/1.1 request without Host")) }
        return .success(())
    }

    /// `host [":" port]`: a registered name, an IPv4 address or a bracketed IPv6 literal.
    static func isValidHost(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Bool {
        var host = range, port = range.upperBound ..< range.upperBound
        if let first = host.first, bytes[first] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]"), in: host) else { return false }
            let literal = (first + 1) ..< close
            guard !literal.isEmpty, bytes.allSatisfy(in: literal, { $0.isHexDigit || $0 == .colon || $0 == .dot }) else { return false }
            let rest = (close + 1) ..< host.upperBound
            guard rest.isEmpty || bytes[rest.lowerBound] == .colon else { return false }
            port = rest.isEmpty ? rest : (rest.lowerBound + 1) ..< rest.upperBound
            host = first ..< first
        } else if let colon = bytes.lastIndex(of: .colon, in: host) {
            port = (colon + 1) ..< host.upperBound
            host = host.lowerBound ..< colon
            guard !port.isEmpty else { return false }
        }
        guard port.count <= 5, bytes.allSatisfy(in: port, { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        // reg-name: unreserved, sub-delims and percent-encodings.
        return bytes.allSatisfy(in: host) { $0.isUnreserved || $0.isSubDelimiter || $0 == UInt8(ascii: "%") }
    }

    static let close = CaselessToken("close"), keepAliveOption = CaselessToken("keep-alive")

    /// Whether a comma-separated list of options names `option` (ASCII, any case), compared as
    /// bytes: every HTTP/1.0 keep-alive request asks this.
    static func hasOption(_ bytes: Span<UInt8>, _ list: Range<Int>, _ option: CaselessToken) -> Bool {
        var start = list.lowerBound
        while start <= list.upperBound {
            let end = bytes.firstIndex(of: UInt8(ascii: ","), in: start ..< list.upperBound) ?? list.upperBound
            if option.matches(bytes, in: trimmed(bytes, start ..< end)) { return true }
            start = end + 1
        }
        return false
    }
}

/// The fields that frame a request and say whether its connection stays (Host, Content-Length,
/// Transfer-Encoding, Expect, Connection), noted as the parser checks the field lines; the others
/// are left as bytes until a `Request` is made.
struct FramingFields {
    var hostCount = 0
    /// Where the (last) Host value is in the bytes parsed.
    var host: Range<Int>?
    /// Values of fields rarely sent with a GET, as text.
    var lengths: [String] = []
    var encodings: [String] = []
    var expectations: [String] = []
    /// Whether a Connection field named `close`, or `keep-alive` (see `keepAlive`).
    private var saysClose = false, saysKeepAlive = false

    static let host = CaselessToken(.hostField), contentLength = CaselessToken(.contentLength)
    static let transferEncoding = CaselessToken(.transferEncoding), expect = CaselessToken(.expect), connection = CaselessToken(.connection)

    mutating func note(_ field: (name: Range<Int>, value: Range<Int>), in bytes: Span<UInt8>) {
        let (name, value) = field
        if Self.host.matches(bytes, in: name) {
            hostCount += 1
            host = value
        } else if Self.contentLength.matches(bytes, in: name) {
            lengths.append(bytes.string(in: value))
        } else if Self.transferEncoding.matches(bytes, in: name) {
            encodings.append(bytes.string(in: value))
        } else if Self.expect.matches(bytes, in: name) {
            expectations.append(bytes.string(in: value))
        } else if Self.connection.matches(bytes, in: name) {
            saysClose = saysClose || RequestParser.hasOption(bytes, value, RequestParser.close)
            saysKeepAlive = saysKeepAlive || RequestParser.hasOption(bytes, value, RequestParser.keepAliveOption)
        }
    }

    /// The Expect fields' values, combined and lowercased (nil without any).
    var expectation: String? {
        expectations.isEmpty ? nil : expectations.joined(separator: ", ").lowercased()
    }

    /// 9112 9.3: HTTP/1.1 stays open unless `close`; HTTP/1.0 closes unless `keep-alive`.
    func keepAlive(version: HTTPVersion) -> Bool {
        version == .http11 ? !saysClose : saysKeepAlive
    }
}

/// A token (a field name, a connection option) as lowercase bytes, matched against bytes as sent,
/// in any case of ASCII letters.
public struct CaselessToken: Sendable {
    public let lowercased: [UInt8]

    public init(_ text: String) {
        lowercased = Array(text.lowercased().utf8)
    }

    public init(_ name: HTTPField.Name) {
        lowercased = Array(name.canonicalName.utf8)
    }

    /// Whether `bytes` spell it.
    public func matches(_ bytes: Span<UInt8>) -> Bool {
        matches(bytes, in: 0 ..< bytes.count)
    }

    /// Whether the bytes of `range` spell it.
    public func matches(_ bytes: Span<UInt8>, in range: Range<Int>) -> Bool {
        range.count == lowercased.count && bytes.extracting(range).withUnsafeBufferPointer { buffer in
            zip(buffer, lowercased).allSatisfy { byte, wanted in
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte) == wanted
            }
        }
    }
}

/// Scans of a range of bytes. Each checks its range once (`extracting`) and then walks the
/// buffer's own elements, which cannot leave it: no check per byte on the request path.
extension Span<UInt8> {
    func firstIndex(in range: Range<Int>, where predicate: (UInt8) -> Bool) -> Int? {
        extracting(range).withUnsafeBufferPointer { buffer in buffer.firstIndex(where: predicate).map { range.lowerBound + $0 } }
    }

    /// With `memchr`: line ends and colons are looked for in every line of every request.
    func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        let offset: Int? = extracting(range).withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(byte), buffer.count) else { return nil }
            return UnsafeRawPointer(found) - base
        }
        return offset.map { range.lowerBound + $0 }
    }

    func lastIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        extracting(range).withUnsafeBufferPointer { buffer in buffer.lastIndex(of: byte).map { range.lowerBound + $0 } }
    }

    func allSatisfy(in range: Range<Int>, _ predicate: (UInt8) -> Bool) -> Bool {
        extracting(range).withUnsafeBufferPointer { buffer in buffer.allSatisfy(predicate) }
    }

    func contains(in range: Range<Int>, where predicate: (UInt8) -> Bool) -> Bool {
        extracting(range).withUnsafeBufferPointer { buffer in buffer.contains(where: predicate) }
    }

    func equals(_ range: Range<Int>, _ expected: [UInt8]) -> Bool {
        range.count == expected.count && extracting(range).withUnsafeBufferPointer { buffer in buffer.elementsEqual(expected) }
    }

    /// Whether the bytes of `range` are UTF-8 (ASCII, nearly every request head, is told by a
    /// plain byte test).
    func isUTF8(in range: Range<Int>) -> Bool {
        extracting(range).withUnsafeBufferPointer { buffer in
            buffer.allSatisfy { $0 < 0x80 } || String(validating: buffer, as: UTF8.self) != nil
        }
    }

    /// The bytes of `range` as text (checked UTF-8, or with replacement characters).
    func string(in range: Range<Int>) -> String {
        extracting(range).withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }
}

/// The protocol versions a request may use.
public enum HTTPVersion: Sendable {
    case http10, http11
}

/// `method SP request-target SP HTTP-version` (9112 3).
struct RequestLine {
    var method: HTTPRequest.Method
    /// Where the target is in the bytes parsed.
    var target: Range<Int>
    /// An absolute-form target reduced to origin form (`/path?query`); nil for any other target.
    var reducedTarget: [UInt8]?
    /// Where the authority of an absolute-form target is (9112 3.2.2): it stands for the Host.
    var authority: Range<Int>?
    var version: HTTPVersion

    static let http11 = Array("HTTP/1.1".utf8), http10 = Array("HTTP/1.0".utf8)
    static let schemes = [CaselessToken("http://"), CaselessToken("https://")]

    static func parse(_ bytes: Span<UInt8>, line: Range<Int>) -> Result<RequestLine, RequestParser.Failure> {
        let malformed = RequestParser.Failure(message: "malformed request line")
        guard let firstSpace = bytes.firstIndex(of: .space, in: line),
              let secondSpace = bytes.firstIndex(of: .space, in: (firstSpace + 1) ..< line.upperBound),
              bytes.firstIndex(of: .space, in: (secondSpace + 1) ..< line.upperBound) == nil, firstSpace > line.lowerBound,
              let method = method(bytes, line.lowerBound ..< firstSpace) else { return .failure(malformed) }
        let versionBytes = (secondSpace + 1) ..< line.upperBound
        let version: HTTPVersion
        if bytes.equals(versionBytes, Self.http11) {
            version = .http11
        } else if bytes.equals(versionBytes, Self.http10) {
            version = .http10
        } else {
            let isVersion = versionBytes.count == 8 && bytes.equals(versionBytes.lowerBound ..< versionBytes.lowerBound + 5, Array(Self.http11.prefix(5)))
            return .failure(isVersion ? .init(status: .httpVersionNotSupported, message: "unsupported version") : malformed)
        }
        // The target: visible ASCII and UTF-8; no control characters, no spaces (9112 3.2).
        let target = (firstSpace + 1) ..< secondSpace
        guard !target.isEmpty, !bytes.contains(in: target, where: { $0 < 0x21 || $0 == 0x7F }), bytes.isUTF8(in: target) else {
            return .failure(RequestParser.Failure(message: "control character or space in the request target"))
        }
        if bytes[target.lowerBound] == UInt8(ascii: "/") { return .success(RequestLine(method: method, target: target, version: version)) }
        // Absolute form: http://authority/path?query (9112 3.2.2), which a server MUST accept.
        for scheme in schemes where target.count >= scheme.lowercased.count
            && scheme.matches(bytes, in: target.lowerBound ..< target.lowerBound + scheme.lowercased.count) {
            let rest = (target.lowerBound + scheme.lowercased.count) ..< target.upperBound
            let authorityEnd = bytes.firstIndex(in: rest) { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.upperBound
            var reduced: [UInt8] = bytes.extracting(authorityEnd ..< rest.upperBound).withUnsafeBufferPointer { Array($0) }
            if reduced.first != UInt8(ascii: "/") { reduced.insert(UInt8(ascii: "/"), at: 0) }
            return .success(RequestLine(method: method, target: target, reducedTarget: reduced, authority: rest.lowerBound ..< authorityEnd, version: version))
        }
        if target.count == 1 && bytes[target.lowerBound] == UInt8(ascii: "*") && method == .options {
            return .success(RequestLine(method: method, target: target, version: version))
        }
        return .failure(malformed)
    }
}

extension RequestLine {
    static let get = Array("GET".utf8), head = Array("HEAD".utf8)

    /// The method token; GET and HEAD, nearly every request, without making a String first.
    static func method(_ bytes: Span<UInt8>, _ token: Range<Int>) -> HTTPRequest.Method? {
        if bytes.equals(token, get) { return .get }
        if bytes.equals(token, head) { return .head }
        return HTTPRequest.Method(bytes.string(in: token))
    }
}

/// How the body of a request is delimited (9112 6).
enum BodyFraming {
    case none
    case length(Int)
    case chunked

    enum Read {
        case complete([UInt8], end: Int)
        case incomplete
        case failure(RequestParser.Failure)
    }

    static func of(_ fields: FramingFields, limit: Int) -> Result<BodyFraming, RequestParser.Failure> {
        let (lengths, encodings) = (fields.lengths, fields.encodings)
        if !encodings.isEmpty {
            // 6.1: Transfer-Encoding with Content-Length is a smuggling attempt; only chunked is read.
            guard lengths.isEmpty else { return .failure(.init(message: "Transfer-Encoding and Content-Length together")) }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters().lowercased() }
            guard codings == ["chunked"] else { return .failure(.init(status: .notImplemented, message: "only the chunked transfer coding is supported")) }
            return .success(.chunked)
        }
        guard let first = lengths.first else { return .success(.none) }
        // 6.3: digits only (no sign, no spaces inside), and every copy the same.
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
              first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let length = Int(first) else {
            return .failure(.init(message: "bad Content-Length"))
        }
        guard length <= limit else { return .failure(.init(status: .contentTooLarge, message: "body too large")) }
        return .success(length == 0 ? .none : .length(length))
    }

    func read(_ bytes: ArraySlice<UInt8>, limit: Int) -> Read {
        switch self {
        case .none:
            return .complete([], end: bytes.startIndex)
        case .length(let length):
            guard bytes.count >= length else { return .incomplete }
            return .complete(Array(bytes.prefix(length)), end: bytes.startIndex + length)
        case .chunked:
            return Self.readChunks(bytes, limit: limit)
        }
    }

    /// `size [;ext] CRLF data CRLF ... 0 CRLF [trailers] CRLF` (9112 7.1).
    static func readChunks(_ bytes: ArraySlice<UInt8>, limit: Int) -> Read {
        var body: [UInt8] = []
        var cursor = bytes.startIndex
        while true {
            guard let lineEnd = bytes[cursor...].firstIndex(of: .lf) else {
                return bytes.endIndex - cursor > 1024 ? .failure(.init(message: "chunk size line too long")) : .incomplete
            }
            let line = RequestParser.line(bytes, from: cursor, to: lineEnd)
            let sizeText = line.prefix { $0 != UInt8(ascii: ";") }
            guard !sizeText.isEmpty, sizeText.count <= 8, sizeText.allSatisfy(\.isHexDigit),
                  let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16) else {
                return .failure(.init(message: "bad chunk size"))
            }
            cursor = lineEnd + 1
            if size == 0 {
                // Trailer fields are read and dropped, up to the empty line.
                while true {
                    guard let end = bytes[cursor...].firstIndex(of: .lf) else { return .incomplete }
                    let trailer = RequestParser.line(bytes, from: cursor, to: end)
                    cursor = end + 1
                    if trailer.isEmpty { return .complete(body, end: cursor) }
                    let span = trailer.span
                    if case .failure(let failure) = RequestParser.field(span, line: 0 ..< span.count) { return .failure(failure) }
                }
            }
            guard body.count + size <= limit else { return .failure(.init(status: .contentTooLarge, message: "body too large")) }
            guard bytes.endIndex - cursor >= size + 1 else { return .incomplete }
            body += bytes[cursor ..< cursor + size]
            cursor += size
            if bytes[cursor] == .cr {
                guard cursor + 1 < bytes.endIndex else { return .incomplete }
                cursor += 1
            }
            guard bytes[cursor] == .lf else { return .failure(.init(message: "chunk data not followed by CRLF")) }
            cursor += 1
        }
    }
}

extension HTTPField.Name {
    /// `Host`: swift-http-types models it as the `:authority` pseudo-header of HTTP/2, but in an
    /// HTTP/1.1 head it is a field like any other.
    static let hostField = HTTPField.Name("Host")!
}

extension UInt8 {
    static let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":"), dot = UInt8(ascii: ".")

    /// tchar (RFC 9110 5.6.2).
    var isTokenCharacter: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"),
             UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"),
             UInt8(ascii: "~"): true
        default: false
        }
    }

    /// Control characters other than HTAB, NUL included (9110 5.5).
    var isForbiddenInFieldValue: Bool { (self < 0x20 && self != .tab) || self == 0x7F }

    var isHexDigit: Bool {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// unreserved (RFC 3986 2.3).
    var isUnreserved: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// sub-delims (RFC 3986 2.2).
    var isSubDelimiter: Bool {
        switch self {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
             UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="): true
        default: false
        }
    }
}

extension StringProtocol {
    /// The text without white space at either end (header values, list items).
    public func trimmingCharacters() -> String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text = text.dropFirst() }
        while text.last?.isWhitespace == true { text = text.dropLast() }
        return String(text)
    }
}
