#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes

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
