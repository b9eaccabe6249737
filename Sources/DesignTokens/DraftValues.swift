import JSON

/// Values written in the forms of the DTCG drafts before 2025.10, which Tokens Studio, Style
/// Dictionary 3 and 4 and many published design systems still write: a colour as a hex string
/// (`"#0a0a0a"`, `"#0a0a0a80"`, `"#fff"`), a dimension or a duration as a number and its unit in
/// one string (`"16px"`, `"1.5rem"`, `"200ms"`, `"0.2s"`), also inside composite values (a
/// shadow's colour and offsets, a border's width, a typography's font size). Each is read as the
/// 2025.10 value it denotes, exactly; no other string is guessed at (`"rgb(...)"`, `"red"`, a
/// unitless `"16"` stay problems), and the token keeps what was written (`ResolvedToken.written`).
enum DraftValues {
    /// The 2025.10 form of `value` as a `type` token; nil when there is nothing to read anew.
    static func upgraded(_ value: JSONValue, as type: TokenType) -> JSONValue? {
        let dimension = { (value: JSONValue) in measure(value, units: ["px", "rem"]) }
        switch type {
        case .color: return color(value)
        case .dimension: return dimension(value)
        case .duration: return measure(value, units: ["ms", "s"])
        case .border: return fields(value, ["color": color, "width": dimension])
        case .transition: return fields(value, ["duration": { measure($0, units: ["ms", "s"]) }, "delay": { measure($0, units: ["ms", "s"]) }])
        case .typography: return fields(value, ["fontSize": dimension, "letterSpacing": dimension])
        case .gradient:
            guard case .array(let stops) = value else { return nil }
            return changed(stops.map { fields($0, ["color": color]) }, stops).map(JSONValue.array)
        case .shadow:
            let layer = { (layer: JSONValue) in fields(layer, ["color": color, "offsetX": dimension, "offsetY": dimension, "blur": dimension, "spread": dimension]) }
            guard case .array(let layers) = value else { return layer(value) }
            return changed(layers.map(layer), layers).map(JSONValue.array)
        case .fontFamily, .fontWeight, .cubicBezier, .number, .strokeStyle, .other: return nil
        }
    }

    /// `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` as an sRGB colour with its 8-bit hex.
    static func color(_ value: JSONValue) -> JSONValue? {
        guard case .string(let text) = value, text.hasPrefix("#") else { return nil }
        let digits = Array(text.utf8.dropFirst())
        let nibbles = digits.compactMap(hexValue)
        guard [3, 4, 6, 8].contains(digits.count), nibbles.count == digits.count else { return nil }
        let bytes: [Int] = digits.count <= 4 ? nibbles.map { $0 * 17 } : stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] * 16 + nibbles[$0 + 1] }
        let hex = "#" + bytes.prefix(3).map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
        var members: [(String, JSONValue)] = [("colorSpace", "srgb"), ("components", .array(bytes.prefix(3).map { .double(Double($0) / 255) }))]
        if bytes.count == 4 { members.append(("alpha", .double(Double(bytes[3]) / 255))) }
        members.append(("hex", .string(hex)))
        return .object(members)
    }

    /// `"16px"` as `{"value": 16, "unit": "px"}`, for a unit of `units`.
    static func measure(_ value: JSONValue, units: [String]) -> JSONValue? {
        guard case .string(let text) = value, let unit = units.sorted(by: { $0.count > $1.count }).first(where: text.hasSuffix) else { return nil }
        let number = text.dropLast(unit.count)
        // Digits with at most one point and an optional sign: what JSON would have written as a number.
        guard number.contains(where: \.isNumber), number.drop(while: { $0 == "-" }).allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              number.filter({ $0 == "." }).count <= 1, number.filter({ $0 == "-" }).count <= 1, let amount = Double(number) else { return nil }
        return .object([("value", amount == amount.rounded() && abs(amount) < 1e15 ? .int(Int(amount)) : .double(amount)), ("unit", .string(unit))])
    }

    /// A composite value with the named fields read anew where they need it; nil when none did.
    private static func fields(_ value: JSONValue, _ readers: [String: (JSONValue) -> JSONValue?]) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        var anyChanged = false
        let upgraded = members.map { name, field -> (String, JSONValue) in
            guard let reader = readers[name], let new = reader(field) else { return (name, field) }
            anyChanged = true
            return (name, new)
        }
        return anyChanged ? .object(upgraded) : nil
    }

    /// The elements with those read anew in place; nil when none was.
    private static func changed(_ upgraded: [JSONValue?], _ original: [JSONValue]) -> [JSONValue]? {
        guard upgraded.contains(where: { $0 != nil }) else { return nil }
        return zip(upgraded, original).map { $0 ?? $1 }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
