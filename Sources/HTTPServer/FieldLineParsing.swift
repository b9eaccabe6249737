#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes

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

extension RequestParser {
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

extension HTTPField.Name {
    /// `Host`: swift-http-types models it as the `:authority` pseudo-header of HTTP/2, but in an
    /// HTTP/1.1 head it is a field like any other.
    static let hostField = HTTPField.Name("Host")!
}
