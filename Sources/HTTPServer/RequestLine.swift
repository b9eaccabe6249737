#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes

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

    /// What reading a request line found.
    enum Reading {
        case line(RequestLine)
        /// The bytes so far begin a valid request line; its end has not arrived.
        case incomplete
        case failure(RequestParser.Failure)
    }

    /// The one grammar of the request line, read left to right: the method (a token), a space,
    /// the target (no control characters, no spaces), a space, the version (`HTTP/` digit `.`
    /// digit). `complete` false: the line's end has not arrived, and bytes that already cannot
    /// begin a request line (garbage, a TLS ClientHello) are refused at once instead of waiting
    /// for a line feed that may never come.
    static func read(_ bytes: Span<UInt8>, line: Range<Int>, complete: Bool) -> Reading {
        let malformed = RequestParser.Failure(message: "malformed request line")
        // Before the line feed, a CR at the very end is the line's own.
        let line = !complete && !line.isEmpty && bytes[line.upperBound - 1] == .cr ? line.lowerBound ..< line.upperBound - 1 : line
        let firstSpace = bytes.firstIndex(of: .space, in: line)
        let methodEnd = firstSpace ?? line.upperBound
        guard !bytes.contains(in: line.lowerBound ..< methodEnd, where: { !$0.isTokenCharacter }) else { return .failure(malformed) }
        guard let firstSpace else { return complete ? .failure(malformed) : .incomplete }
        guard firstSpace > line.lowerBound else { return .failure(malformed) }

        let secondSpace = bytes.firstIndex(of: .space, in: (firstSpace + 1) ..< line.upperBound)
        let target = (firstSpace + 1) ..< (secondSpace ?? line.upperBound)
        // The target: visible ASCII and UTF-8; no control characters, no spaces (9112 3.2).
        guard !bytes.contains(in: target, where: { $0 < 0x21 || $0 == 0x7F }) else {
            return .failure(RequestParser.Failure(message: "control character or space in the request target"))
        }
        guard let secondSpace else { return complete ? .failure(malformed) : .incomplete }

        let versionBytes = (secondSpace + 1) ..< line.upperBound
        guard versionBytes.count <= 8, Self.fitsVersion(bytes, versionBytes) else { return .failure(malformed) }
        guard complete else { return .incomplete }
        guard versionBytes.count == 8 else { return .failure(malformed) }
        let version: HTTPVersion
        if bytes.equals(versionBytes, Self.http11) {
            version = .http11
        } else if bytes.equals(versionBytes, Self.http10) {
            version = .http10
        } else {
            return .failure(.init(status: .httpVersionNotSupported, message: "unsupported version"))
        }
        guard !target.isEmpty, bytes.isUTF8(in: target), let method = method(bytes, line.lowerBound ..< firstSpace) else {
            return .failure(target.isEmpty ? malformed : RequestParser.Failure(message: "control character or space in the request target"))
        }
        return Self.form(method: method, target: target, version: version, in: bytes).map(Reading.line) ?? .failure(malformed)
    }

    /// Whether `range` is `HTTP/` digit `.` digit, or the beginning of it.
    private static func fitsVersion(_ bytes: Span<UInt8>, _ range: Range<Int>) -> Bool {
        for (offset, index) in range.enumerated() {
            let byte = bytes[index]
            let fits = switch offset {
            case 0..<5: byte == Self.http11[offset]
            case 6: byte == .dot
            default: byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            }
            if !fits { return false }
        }
        return true
    }

    /// The target's form (9112 3.2): origin (`/path?query`), absolute (`http://authority/path`,
    /// which a server MUST accept, reduced to origin form), or `*` for OPTIONS; nil for any other.
    private static func form(method: HTTPRequest.Method, target: Range<Int>, version: HTTPVersion, in bytes: Span<UInt8>) -> RequestLine? {
        if bytes[target.lowerBound] == UInt8(ascii: "/") { return RequestLine(method: method, target: target, version: version) }
        for scheme in schemes where target.count >= scheme.lowercased.count
            && scheme.matches(bytes, in: target.lowerBound ..< target.lowerBound + scheme.lowercased.count) {
            let rest = (target.lowerBound + scheme.lowercased.count) ..< target.upperBound
            let authorityEnd = bytes.firstIndex(in: rest) { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.upperBound
            var reduced: [UInt8] = bytes.extracting(authorityEnd ..< rest.upperBound).withUnsafeBufferPointer { Array($0) }
            if reduced.first != UInt8(ascii: "/") { reduced.insert(UInt8(ascii: "/"), at: 0) }
            return RequestLine(method: method, target: target, reducedTarget: reduced, authority: rest.lowerBound ..< authorityEnd, version: version)
        }
        if target.count == 1 && bytes[target.lowerBound] == UInt8(ascii: "*") && method == .options {
            return RequestLine(method: method, target: target, version: version)
        }
        return nil
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
