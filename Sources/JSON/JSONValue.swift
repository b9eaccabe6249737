/// A JSON document with ordered object keys, written without Foundation.
///
/// Reports keep their keys in a fixed order so that output diffs cleanly and reads like
/// assetutil's; the server writes responses with the same type.
public indirect enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The value for `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Serialised text; `pretty` indents by two spaces.
    public func serialized(pretty: Bool = false) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: Int) {
        let newline = pretty ? "\n" : ""
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let closePad = pretty ? String(repeating: "  ", count: indent) : ""
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value):
            output += value.isFinite ? (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)") : "null"
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            if values.isEmpty { output += "[]"; return }
            output += "[" + newline
            for (index, value) in values.enumerated() {
                output += pad
                value.write(to: &output, pretty: pretty, indent: indent + 1)
                output += (index < values.count - 1 ? "," : "") + newline
            }
            output += closePad + "]"
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            output += "{" + newline
            for (index, (key, value)) in members.enumerated() {
                output += pad
                Self.writeString(key, to: &output)
                output += pretty ? " : " : ":"
                value.write(to: &output, pretty: pretty, indent: indent + 1)
                output += (index < members.count - 1 ? "," : "") + newline
            }
            output += closePad + "}"
        }
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        // Most strings (names, paths, hex colours) need no escape: appended whole, not a scalar at a time.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
