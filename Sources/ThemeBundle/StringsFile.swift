import Foundation

/// A `.strings` table: the old-style text format (`"key" = "value";` in UTF-8 or UTF-16, with
/// comments and escapes) or a property list (binary or XML) of string to string.
///
/// The text parser is ours rather than Foundation's so that a broken file says where it broke
/// (`Localizable.strings:12: expected ';'`) and so that its limits are known.
public struct StringsFile: Sendable, Equatable {
    public var entries: [String: String]

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public var line: Int
        public var message: String
        public var description: String { line > 0 ? "line \(line): \(message)" : message }
    }

    public static let maximumBytes = 16 << 20

    public init(entries: [String: String]) { self.entries = entries }

    public init(bytes: [UInt8]) throws(ParseError) {
        guard bytes.count <= Self.maximumBytes else { throw ParseError(line: 0, message: "larger than \(Self.maximumBytes >> 20) MiB") }
        if bytes.starts(with: Array("bplist00".utf8)) || Self.looksLikeXML(bytes) {
            entries = try Self.propertyList(bytes)
            return
        }
        var parser = Parser(scalars: try Self.decode(bytes))
        entries = try parser.parse()
    }

    private static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        let start = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        return start.starts(with: Array("<?xml".utf8)) || start.starts(with: Array("<plist".utf8))
    }

    private static func propertyList(_ bytes: [UInt8]) throws(ParseError) -> [String: String] {
        let root: Any
        do {
            root = try PropertyList.parse(bytes)
        } catch {
            throw ParseError(line: 0, message: "not a valid property list")
        }
        guard let dictionary = root as? [String: Any] else { throw ParseError(line: 0, message: "the property list's root is not a dictionary") }
        var entries: [String: String] = [:]
        for (key, value) in dictionary {
            guard let value = value as? String else { throw ParseError(line: 0, message: "the value of \"\(key)\" is not a string") }
            entries[key] = value
        }
        return entries
    }

    /// UTF-16 with a byte-order mark, UTF-8 with or without one, or UTF-16 without a mark when
    /// every other byte of the start is zero (what old tools wrote).
    static func decode(_ bytes: [UInt8]) throws(ParseError) -> [Unicode.Scalar] {
        var text: String?
        if bytes.starts(with: [0xFF, 0xFE]) {
            text = String(data: Data(bytes.dropFirst(2)), encoding: .utf16LittleEndian)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            text = String(data: Data(bytes.dropFirst(2)), encoding: .utf16BigEndian)
        } else if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            text = String(validating: bytes.dropFirst(3), as: UTF8.self)
        } else if bytes.count >= 4, bytes.count % 2 == 0, bytes[1] == 0, bytes[3] == 0, bytes[0] != 0 {
            text = String(data: Data(bytes), encoding: .utf16LittleEndian)
        } else if bytes.count >= 4, bytes.count % 2 == 0, bytes[0] == 0, bytes[2] == 0, bytes[1] != 0 {
            text = String(data: Data(bytes), encoding: .utf16BigEndian)
        } else {
            text = String(validating: bytes, as: UTF8.self)
        }
        guard let text else { throw ParseError(line: 0, message: "neither UTF-8 nor UTF-16 text") }
        return Array(text.unicodeScalars)
    }

    /// The old-style grammar: `entry := string ["=" string] ";"`, strings quoted (with
    /// escapes) or bare words, `/* */` and `//` comments, optionally inside `{ }`.
    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0
        var line = 1

        init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

        mutating func parse() throws(ParseError) -> [String: String] {
            var entries: [String: String] = [:]
            try skipSpaceAndComments()
            let braced = peek == "{"
            if braced { position += 1 }
            while true {
                try skipSpaceAndComments()
                guard let next = peek else {
                    if braced { throw error("expected '}' before the end of the file") }
                    return entries
                }
                if braced && next == "}" {
                    position += 1
                    try skipSpaceAndComments()
                    guard peek == nil else { throw error("unexpected text after '}'") }
                    return entries
                }
                let key = try string("a key")
                try skipSpaceAndComments()
                var value = key
                if peek == "=" {
                    position += 1
                    try skipSpaceAndComments()
                    value = try string("a value after '='")
                    try skipSpaceAndComments()
                }
                guard peek == ";" else { throw error("expected ';' after the entry for \"\(key)\"") }
                position += 1
                entries[key] = value
            }
        }

        var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        func error(_ message: String) -> ParseError { ParseError(line: line, message: message) }

        mutating func advance() -> Unicode.Scalar? {
            guard let scalar = peek else { return nil }
            position += 1
            if scalar == "\n" { line += 1 }
            return scalar
        }

        mutating func skipSpaceAndComments() throws(ParseError) {
            while let scalar = peek {
                if scalar.properties.isWhitespace {
                    _ = advance()
                } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "*" {
                    let start = line
                    position += 2
                    while true {
                        guard let next = advance() else { throw ParseError(line: start, message: "comment is not closed") }
                        if next == "*", peek == "/" { position += 1; break }
                    }
                } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "/" {
                    while let next = peek, next != "\n" { position += 1 }
                } else {
                    return
                }
            }
        }

        static func isBareWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_$+/:.-".unicodeScalars.contains(scalar)
        }

        mutating func string(_ what: String) throws(ParseError) -> String {
            guard let first = peek else { throw error("expected \(what) before the end of the file") }
            if first == "\"" || first == "'" {
                return try quoted(first)
            }
            guard Self.isBareWordScalar(first) else { throw error("expected \(what), found '\(first)'") }
            var word = String.UnicodeScalarView()
            while let scalar = peek, Self.isBareWordScalar(scalar) {
                word.append(scalar)
                position += 1
            }
            return String(word)
        }

        mutating func quoted(_ quote: Unicode.Scalar) throws(ParseError) -> String {
            let start = line
            position += 1
            var text = String.UnicodeScalarView()
            var pendingHighSurrogate: UInt32?
            func append(_ value: UInt32) {
                if let high = pendingHighSurrogate {
                    pendingHighSurrogate = nil
                    if (0xDC00...0xDFFF).contains(value), let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)) {
                        text.append(scalar)
                        return
                    }
                    text.append("\u{FFFD}")
                }
                if (0xD800...0xDBFF).contains(value) {
                    pendingHighSurrogate = value
                } else {
                    text.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                }
            }
            while true {
                guard let scalar = advance() else { throw ParseError(line: start, message: "string is not closed") }
                if scalar == quote { break }
                guard scalar == "\\" else {
                    append(scalar.value)
                    continue
                }
                guard let escaped = advance() else { throw ParseError(line: start, message: "string is not closed") }
                switch escaped {
                case "n": append(0x0A)
                case "t": append(0x09)
                case "r": append(0x0D)
                case "a": append(0x07)
                case "b": append(0x08)
                case "f": append(0x0C)
                case "v": append(0x0B)
                case "U", "u":
                    var value: UInt32 = 0
                    for _ in 0..<4 {
                        guard let digit = peek, digit.isASCII, let nibble = UInt32(String(digit), radix: 16) else { break }
                        value = value << 4 | nibble
                        position += 1
                    }
                    append(value)
                case "0"..."7":
                    var value = escaped.value - 0x30
                    for _ in 0..<2 {
                        guard let digit = peek, ("0"..."7").contains(digit) else { break }
                        value = value << 3 | (digit.value - 0x30)
                        position += 1
                    }
                    append(value)
                default: append(escaped.value)
                }
            }
            if pendingHighSurrogate != nil { text.append("\u{FFFD}") }
            return String(text)
        }
    }
}
