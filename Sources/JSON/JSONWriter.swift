/// JSON written straight into bytes, a value at a time: what `JSONValue.serialized` uses, and
/// what a large answer (a palette of hundreds of colours) writes its members with, without
/// building a tree of values first.
///
/// Commas and, when `pretty`, newlines and two-space indents are placed by the writer: a caller
/// says where containers begin and end, and gives keys and values in order.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    let pretty: Bool
    /// For each open container, whether it has a member yet.
    private var open: [Bool] = []
    /// A key was just written: its value follows without a separator.
    private var afterKey = false

    public init(pretty: Bool = false, reservingCapacity capacity: Int = 256) {
        self.pretty = pretty
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() { member(); bytes.append(UInt8(ascii: "{")); open.append(false) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { member(); bytes.append(UInt8(ascii: "[")); open.append(false) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    public mutating func key(_ key: String) {
        member()
        writeString(key)
        endKey()
    }

    /// A key written in the source (no quote, backslash or control character in it), copied
    /// as it is: the members of a palette's colours and of `/assign`'s answers, each request.
    public mutating func key(literal key: StaticString) {
        member()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        endKey()
    }

    /// After a key's quoted name: the colon, and its value follows without a separator.
    private mutating func endKey() {
        if pretty { append(" : ") } else { bytes.append(UInt8(ascii: ":")) }
        afterKey = true
    }

    public mutating func null() { member(); append("null") }
    public mutating func bool(_ value: Bool) { member(); append(value ? "true" : "false") }

    public mutating func int(_ value: Int) {
        member()
        append(String(value))
    }

    /// Whole numbers as integers; NaN and infinities (which JSON has not) as null.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { null(); return }
        if value == value.rounded(), abs(value) < 1e15 { int(Int(value)); return }
        member()
        append(value.description)
    }

    public mutating func string(_ value: String) { member(); writeString(value) }

    /// A string its caller appends as bytes that need no escape (ASCII without quotes,
    /// backslashes or control characters: a hex colour, a CSS value), with no String made.
    public mutating func plainString(_ write: (inout [UInt8]) -> Void) {
        member()
        bytes.append(UInt8(ascii: "\""))
        write(&bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// An object's members as bytes (`"a":1,"b":[2]`, no braces), written once and then
    /// appended to many objects with `members(_:)`: a palette's kept colours.
    public static func members(_ write: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject()
        write(&json)
        json.endObject()
        return Array(json.bytes.dropFirst().dropLast())
    }

    /// Members made by `members(_:)`, appended to the open object as they are (in pretty output
    /// too, on one line: still the same JSON).
    public mutating func members(_ written: [UInt8]) {
        guard !written.isEmpty else { return }
        member()
        bytes.append(contentsOf: written)
    }

    /// A whole value, as `JSONValue.serialized` writes it.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): bool(flag)
        case .int(let number): int(number)
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .array(let values):
            beginArray()
            for element in values { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, element) in members {
                key(name)
                self.value(element)
            }
            endObject()
        }
    }

    /// Before a value or a key: the comma after the previous member, and in pretty output the
    /// new line and indent. A value right after its key needs neither.
    private mutating func member() {
        if afterKey { afterKey = false; return }
        guard let last = open.indices.last else { return }
        if open[last] { bytes.append(UInt8(ascii: ",")) }
        open[last] = true
        if pretty { newline(indent: open.count) }
    }

    private mutating func close(_ closer: UInt8) {
        let hadMembers = open.removeLast()
        if pretty && hadMembers { newline(indent: open.count) }
        bytes.append(closer)
    }

    private mutating func newline(indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: " ")) }
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private mutating func writeString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            // Most strings (names, paths, hex colours) need no escape: appended whole.
            var start = 0
            for (position, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<position]))
                start = position + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    append("\\u00")
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 15)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
