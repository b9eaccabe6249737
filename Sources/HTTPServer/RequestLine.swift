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

extension RequestParser {
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
}
