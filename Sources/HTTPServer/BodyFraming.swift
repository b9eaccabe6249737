#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes

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
