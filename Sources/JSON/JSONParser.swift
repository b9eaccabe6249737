/// Reads JSON text (RFC 8259) into `JSONValue`s, keeping the order of object members, for files
/// that are untrusted and read by people: a design token file, a resolver document. An error
/// names the line and column; depth, size and the length of strings are capped, and nothing
/// traps on any input.
public struct JSONParser {
    /// Why text is not JSON, and where.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var reason: String
        public var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// Nesting deeper than this is refused (a crafted file cannot exhaust the stack).
    public static let maximumDepth = 128

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON text (a UTF-8 byte order mark is skipped).
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.position == bytes.count else { throw parser.failure("text after the JSON value") }
        return value
    }

    private func failure(_ reason: String) -> Failure {
        var line = 1, column = 1
        for byte in bytes.prefix(position) {
            if byte == UInt8(ascii: "\n") { (line, column) = (line + 1, 1) } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return Failure(line: line, column: column, reason: reason)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        let expected = Array(literal.utf8)
        guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected) else {
            throw failure("expected \(literal)")
        }
        position += expected.count
        return value
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let byte = current else { throw failure("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func nested<Result>(_ body: (inout JSONParser) throws(Failure) -> Result) throws(Failure) -> Result {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
        return try body(&self)
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nested { parser throws(Failure) in
            parser.position += 1
            var members: [(String, JSONValue)] = []
            parser.skipSpace()
            if parser.current == UInt8(ascii: "}") { parser.position += 1; return .object(members) }
            while true {
                parser.skipSpace()
                guard parser.current == UInt8(ascii: "\"") else { throw parser.failure("expected a member name in quotes") }
                let key = try parser.string()
                parser.skipSpace()
                guard parser.current == UInt8(ascii: ":") else { throw parser.failure("expected ':' after the member name \"\(key.prefix(60))\"") }
                parser.position += 1
                parser.skipSpace()
                let value = try parser.value()
                // A repeated name: the last wins, as in JavaScript (and every token tool).
                if let index = members.firstIndex(where: { $0.0 == key }) { members.remove(at: index) }
                members.append((key, value))
                parser.skipSpace()
                switch parser.current {
                case UInt8(ascii: ","): parser.position += 1
                case UInt8(ascii: "}"): parser.position += 1; return .object(members)
                default: throw parser.failure("expected ',' or '}' in an object")
                }
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nested { parser throws(Failure) in
            parser.position += 1
            var elements: [JSONValue] = []
            parser.skipSpace()
            if parser.current == UInt8(ascii: "]") { parser.position += 1; return .array(elements) }
            while true {
                parser.skipSpace()
                elements.append(try parser.value())
                parser.skipSpace()
                switch parser.current {
                case UInt8(ascii: ","): parser.position += 1
                case UInt8(ascii: "]"): parser.position += 1; return .array(elements)
                default: throw parser.failure("expected ',' or ']' in an array")
                }
            }
        }
    }

    private mutating func string() throws(Failure) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var run = position
        func flush(_ parser: JSONParser, upTo end: Int) {
            scalars.append(contentsOf: String(decoding: parser.bytes[run..<end], as: UTF8.self).unicodeScalars)
        }
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                flush(self, upTo: position)
                position += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush(self, upTo: position)
                position += 1
                guard let escape = current else { throw failure("the text ends inside a string") }
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hexQuad()
                    if (0xD800...0xDBFF).contains(code), bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try hexQuad()
                        guard (0xDC00...0xDFFF).contains(low) else { throw failure("a high surrogate not followed by a low one") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    // A lone surrogate becomes U+FFFD, as browsers read it.
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: throw failure("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
                run = position
            case 0..<0x20:
                throw failure("a control character inside a string (escape it)")
            default:
                position += 1
            }
        }
        throw failure("the text ends inside a string")
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard bytes.count - position >= 4 else { throw failure("\\u needs four hex digits") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("\\u needs four hex digits")
            }
            code = code << 4 | UInt32(digit)
            position += 1
        }
        return code
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = position
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.position
            while let byte = parser.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { parser.position += 1 }
            return parser.position - from
        }
        if current == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        guard digits(&self) > 0 else { throw failure("a number needs digits") }
        if bytes[integerStart] == UInt8(ascii: "0"), position - integerStart > 1 { throw failure("a number may not start with 0") }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            position += 1
            isInteger = false
            guard digits(&self) > 0 else { throw failure("a number needs digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            isInteger = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw failure("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { throw failure("\(text.prefix(40)) is not a number JSON can hold") }
        return .double(double)
    }
}
