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
        case request(Request, keepAlive: Bool, version: HTTPVersion, consumed: Int)
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
        var cursor = buffer.startIndex
        // 9112 2.2: empty lines before the request line are ignored.
        while cursor < buffer.endIndex, buffer[cursor] == .cr || buffer[cursor] == .lf {
            if buffer[cursor] == .cr, cursor + 1 < buffer.endIndex, buffer[cursor + 1] != .lf { return .failure(.badRequest, "bare CR") }
            cursor += 1
        }
        let start = cursor
        guard let lineEnd = buffer[start...].firstIndex(of: .lf) else {
            if let problem = Self.checkPartialRequestLine(buffer[start...]) { return .failure(.badRequest, problem) }
            if buffer.endIndex - start > limits.requestLineBytes { return .failure(.uriTooLong, "request line too long") }
            return .incomplete(.receivingHead)
        }
        guard lineEnd - start <= limits.requestLineBytes + 1 else { return .failure(.uriTooLong, "request line too long") }
        let requestLine: RequestLine
        switch RequestLine.parse(Self.line(buffer, from: start, to: lineEnd)) {
        case .success(let line): requestLine = line
        case .failure(let failure): return .failure(failure.status, failure.message)
        }

        // Header fields, up to the empty line that ends the head.
        var fields = HTTPFields()
        cursor = lineEnd + 1
        let headStart = cursor
        while true {
            guard let end = buffer[cursor...].firstIndex(of: .lf) else {
                if buffer.endIndex - headStart > limits.headerBytes { return .failure(.requestHeaderFieldsTooLarge, "headers too large") }
                if let problem = Self.checkPartialField(buffer[cursor...]) { return .failure(.badRequest, problem) }
                return .incomplete(.receivingHead)
            }
            guard end - headStart <= limits.headerBytes else { return .failure(.requestHeaderFieldsTooLarge, "headers too large") }
            let line = Self.line(buffer, from: cursor, to: end)
            cursor = end + 1
            if line.isEmpty { break }
            switch Self.field(line) {
            case .success(let field): fields.append(field)
            case .failure(let failure): return .failure(.badRequest, failure.message)
            }
        }

        // An upload route's body goes to a file (see `BodySpool`), under the spool's own limit;
        // its size must be known before a byte of it is read.
        let spooling = spool.flatMap { spool in
            (try? Request(method: requestLine.method, target: requestLine.target, headers: fields, remoteAddress: remoteAddress))
                .flatMap { spool.accepts($0) ? spool : nil }
        }
        let framing: BodyFraming
        switch BodyFraming.of(fields, limit: spooling?.maxBytes ?? limits.bodyBytes) {
        case .success(.chunked) where spooling != nil: return .failure(.lengthRequired, "an upload here must give Content-Length")
        case .success(let value): framing = value
        case .failure(let failure): return .failure(failure.status, failure.message)
        }
        var target = requestLine.target
        switch Self.checkHost(fields, requestLine: requestLine) {
        case .success(let originForm): target = originForm
        case .failure(let failure): return .failure(.badRequest, failure.message)
        }
        let expectation = fields[.expect]?.lowercased()
        guard expectation == nil || expectation == "100-continue" else { return .failure(.expectationFailed, "only Expect: 100-continue is supported") }

        let keepAlive = Self.keepAlive(fields, version: requestLine.version)
        if spooling != nil {
            let length = if case .length(let count) = framing { count } else { 0 }
            do {
                let head = try Request(method: requestLine.method, target: target, headers: fields, remoteAddress: remoteAddress)
                return .spool(head, length: length, keepAlive: keepAlive, version: requestLine.version, consumed: cursor - buffer.startIndex)
            } catch {
                return .failure(.badRequest, error.description)
            }
        }

        let bodyStart = cursor
        let body: [UInt8]
        let consumedEnd: Int
        switch framing.read(buffer[bodyStart...], limit: limits.bodyBytes) {
        case .complete(let bytes, let end):
            (body, consumedEnd) = (bytes, end)
        case .incomplete:
            return .incomplete(.receivingBody(expectsContinue: expectation == "100-continue"))
        case .failure(let failure):
            return .failure(failure.status, failure.message)
        }

        do {
            let request = try Request(method: requestLine.method, target: target, headers: fields, body: body, remoteAddress: remoteAddress)
            return .request(request, keepAlive: keepAlive, version: requestLine.version, consumed: consumedEnd - buffer.startIndex)
        } catch {
            return .failure(.badRequest, error.description)
        }
    }

    /// A line without its LF and the CR before it.
    static func line(_ buffer: ArraySlice<UInt8>, from start: Int, to lineFeed: Int) -> ArraySlice<UInt8> {
        lineFeed > start && buffer[lineFeed - 1] == .cr ? buffer[start ..< lineFeed - 1] : buffer[start ..< lineFeed]
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
    /// of control characters (9110 5.5).
    static func field(_ line: ArraySlice<UInt8>) -> Result<HTTPField, Failure> {
        if let first = line.first, first == .space || first == .tab { return .failure(Failure(message: "obsolete line folding is not accepted")) }
        // HTTPField.Name checks that the name is a token (no space before the colon, 9112 5.1).
        guard let colon = line.firstIndex(of: .colon), colon > line.startIndex,
              let name = fieldName(line[line.startIndex ..< colon]) else {
            return .failure(Failure(message: "malformed header line"))
        }
        var rawValue = line[(colon + 1)...]
        guard !rawValue.contains(where: \.isForbiddenInFieldValue) else { return .failure(Failure(message: "control character in a header value")) }
        while let first = rawValue.first, first == .space || first == .tab { rawValue = rawValue.dropFirst() }
        while let last = rawValue.last, last == .space || last == .tab { rawValue = rawValue.dropLast() }
        guard let value = String(utf8: rawValue) else { return .failure(Failure(message: "header value is not UTF-8")) }
        return .success(HTTPField(name: name, value: value))
    }

    /// The names most requests carry, spelled as clients send them, made once: a field named with
    /// one of them takes it, instead of its name being checked and lowercased again.
    static let commonNames: [(bytes: [UInt8], name: HTTPField.Name)] = [
        HTTPField.Name.hostField, .userAgent, .accept, .acceptEncoding, .acceptLanguage, .connection, .ifNoneMatch, .origin,
        .contentLength, .contentType, .cacheControl, .authorization,
    ].map { (Array($0.rawName.utf8), $0) }

    static func fieldName(_ bytes: ArraySlice<UInt8>) -> HTTPField.Name? {
        for common in commonNames where common.bytes.count == bytes.count && common.bytes.elementsEqual(bytes) { return common.name }
        return HTTPField.Name(String(decoding: bytes, as: UTF8.self))
    }

    /// 9112 3.2: an HTTP/1.1 request has exactly one valid Host; with an absolute-form target the
    /// target's authority is the host. Returns the target in origin form.
    static func checkHost(_ fields: HTTPFields, requestLine: RequestLine) -> Result<String, Failure> {
        var hostCount = 0, host: String?
        for field in fields where field.name == .hostField {
            hostCount += 1
            host = field.value
        }
        guard hostCount <= 1 else { return .failure(Failure(message: "more than one Host header")) }
        if let host, !isValidHost(host) { return .failure(Failure(message: "invalid Host header")) }
        if let authority = requestLine.authority {
            guard isValidHost(authority), !authority.isEmpty else { return .failure(Failure(message: "invalid authority in the request target")) }
            return .success(requestLine.target)
        }
        guard requestLine.version == .http10 || host != nil else { return .failure(Failure(message: "HTTP/1.1 request without Host")) }
        return .success(requestLine.target)
    }

    /// `host [":" port]`: a registered name, an IPv4 address or a bracketed IPv6 literal.
    static func isValidHost(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var host = bytes[...], port: Slice<UnsafeBufferPointer<UInt8>> = bytes[bytes.endIndex...]
            if host.first == UInt8(ascii: "[") {
                guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return false }
                let literal = host[(host.startIndex + 1) ..< close]
                guard !literal.isEmpty, literal.allSatisfy({ $0.isHexDigit || $0 == .colon || $0 == .dot }) else { return false }
                let rest = host[(close + 1)...]
                guard rest.isEmpty || rest.first == .colon else { return false }
                port = rest.dropFirst()
                host = host[host.startIndex ..< host.startIndex]
            } else if let colon = host.lastIndex(of: .colon) {
                port = host[(colon + 1)...]
                host = host[..<colon]
                guard !port.isEmpty else { return false }
            }
            guard port.count <= 5, port.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
            // reg-name: unreserved, sub-delims and percent-encodings.
            return host.allSatisfy { $0.isUnreserved || $0.isSubDelimiter || $0 == UInt8(ascii: "%") }
        }
    }

    /// 9112 9.3: HTTP/1.1 stays open unless `close`; HTTP/1.0 closes unless `keep-alive`.
    static func keepAlive(_ fields: HTTPFields, version: HTTPVersion) -> Bool {
        let wanted = version == .http11 ? close : keepAliveOption
        var named = false
        for field in fields where field.name == .connection {
            named = named || hasOption(field.value, wanted)
        }
        return version == .http11 ? !named : named
    }

    static let close = Array("close".utf8), keepAliveOption = Array("keep-alive".utf8)

    /// Whether a comma-separated list of options names `option` (ASCII, any case), compared as
    /// bytes: every HTTP/1.0 keep-alive request asks this.
    static func hasOption(_ list: String, _ option: [UInt8]) -> Bool {
        list.utf8.split(separator: UInt8(ascii: ",")).contains { item in
            var item = item[...]
            while let first = item.first, first == .space || first == .tab { item = item.dropFirst() }
            while let last = item.last, last == .space || last == .tab { item = item.dropLast() }
            return item.count == option.count && zip(item, option).allSatisfy { byte, wanted in
                (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte) == wanted
            }
        }
    }
}

/// The protocol versions a request may use.
public enum HTTPVersion: Sendable {
    case http10, http11
}

/// `method SP request-target SP HTTP-version` (9112 3).
struct RequestLine {
    var method: HTTPRequest.Method
    /// In origin form (`/path?query`); an absolute-form target is reduced to it.
    var target: String
    /// The authority of an absolute-form target (9112 3.2.2), which stands for the Host.
    var authority: String?
    var version: HTTPVersion

    static let http11 = Array("HTTP/1.1".utf8), http10 = Array("HTTP/1.0".utf8)

    static func parse(_ line: ArraySlice<UInt8>) -> Result<RequestLine, RequestParser.Failure> {
        let malformed = RequestParser.Failure(message: "malformed request line")
        guard let firstSpace = line.firstIndex(of: .space), let secondSpace = line[(firstSpace + 1)...].firstIndex(of: .space),
              !line[(secondSpace + 1)...].contains(.space), firstSpace > line.startIndex,
              let method = method(line[..<firstSpace]) else { return .failure(malformed) }
        let versionBytes = line[(secondSpace + 1)...]
        let version: HTTPVersion
        if versionBytes.elementsEqual(Self.http11) {
            version = .http11
        } else if versionBytes.elementsEqual(Self.http10) {
            version = .http10
        } else {
            let isVersion = versionBytes.starts(with: Self.http11.prefix(5)) && versionBytes.count == 8
            return .failure(isVersion ? .init(status: .httpVersionNotSupported, message: "unsupported version") : malformed)
        }
        // The target: visible ASCII and UTF-8; no control characters, no spaces (9112 3.2).
        let rawTarget = line[(firstSpace + 1) ..< secondSpace]
        guard !rawTarget.isEmpty, !rawTarget.contains(where: { $0 < 0x21 || $0 == 0x7F }),
              let target = String(utf8: rawTarget) else {
            return .failure(RequestParser.Failure(message: "control character or space in the request target"))
        }
        if rawTarget.first == UInt8(ascii: "/") { return .success(RequestLine(method: method, target: target, version: version)) }
        // Absolute form: http://authority/path?query (9112 3.2.2), which a server MUST accept.
        let lowered = target.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            let authority = String(rest[..<authorityEnd])
            var path = String(rest[authorityEnd...])
            if !path.hasPrefix("/") { path = "/" + path }
            return .success(RequestLine(method: method, target: path, authority: authority, version: version))
        }
        if target == "*" && method == .options { return .success(RequestLine(method: method, target: "*", version: version)) }
        return .failure(malformed)
    }
}

extension RequestLine {
    static let get = Array("GET".utf8), head = Array("HEAD".utf8)

    /// The method token; GET and HEAD, nearly every request, without making a String first.
    static func method(_ token: ArraySlice<UInt8>) -> HTTPRequest.Method? {
        if token.elementsEqual(get) { return .get }
        if token.elementsEqual(head) { return .head }
        return HTTPRequest.Method(String(decoding: token, as: UTF8.self))
    }
}

extension String {
    /// The bytes as text when they are UTF-8. ASCII, nearly every request head, is checked with a
    /// plain byte test (the general validation is far slower per byte).
    init?(utf8 bytes: ArraySlice<UInt8>) {
        if bytes.allSatisfy({ $0 < 0x80 }) {
            self = String(decoding: bytes, as: UTF8.self)
        } else {
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            self = text
        }
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

    static func of(_ fields: HTTPFields, limit: Int) -> Result<BodyFraming, RequestParser.Failure> {
        let lengths = fields[values: .contentLength]
        let encodings = fields[values: .transferEncoding]
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
                    if case .failure(let failure) = RequestParser.field(trailer) { return .failure(failure) }
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
