import Foundation
import JSON
import ThemeVocabulary

/// What converters write that the 2025.10 Format and Color modules do not, read as the value it
/// denotes and reported as a warning, never a lost value:
/// - a value in the forms of the drafts before 2025.10, which Tokens Studio, Style Dictionary 3
///   and 4 and many published design systems still write: a colour as a hex string (`"#0a0a0a"`,
///   `"#0a0a0a80"`, `"#fff"`), a dimension or a duration as a number and its unit in one string
///   (`"16px"`, `"1.5rem"`, `"200ms"`, `"0.2s"`), also inside composite values (a shadow's colour
///   and offsets, a border's width, a typography's font size);
/// - a dimension in a unit converters carry over from their platform (`em`, `dp`, `pt`, `%`),
///   kept as written;
/// - a colour's `hex` fallback of 3, 4 or 8 digits beside valid components: the components win.
/// - a colour as CSS Color 4 writes it in text (`"hsla(210, 50%, 40%, 0.5)"`, `"rgba(0,0,0,.12)"`,
///   `"oklch(70% 0.1 250)"`, `"rebeccapurple"`, `"transparent"`), in the space it names.
/// No other string is guessed at (a unitless `"16"` stays a problem for a dimension), and the
/// token keeps what was written (`ResolvedToken.written`).
struct DraftValues {
    /// One thing read anew, by kind (what a theme's warnings are grouped by).
    struct Slip: Equatable {
        var kind: TokenWarning.Kind
        var detail: String
    }

    /// Dimension units converters write besides the Format module's px and rem.
    static let convertersUnits = ["em", "dp", "pt", "%"]
    static let dimensionUnits = ["px", "rem"] + convertersUnits
    static let durationUnits = ["ms", "s"]

    private(set) var slips: [Slip] = []

    /// The 2025.10 form of `value` as a `type` token, with what was read anew in `slips`; nil
    /// when there is nothing to read anew.
    static func upgraded(_ value: JSONValue, as type: TokenType) -> (value: JSONValue, slips: [Slip])? {
        var reading = DraftValues()
        let upgraded = reading.read(value, as: type)
        guard !reading.slips.isEmpty else { return nil }
        return (upgraded ?? value, reading.slips)
    }

    private mutating func read(_ value: JSONValue, as type: TokenType) -> JSONValue? {
        switch type {
        case .color: return color(value)
        case .dimension: return dimension(value)
        case .duration: return duration(value)
        case .border: return fields(value, ["color": { $0.color($1) }, "width": { $0.dimension($1) }])
        case .typography: return typography(value)
        case .gradient:
            if case .string(let text) = value { return gradient(text) }
            guard case .array(let stops) = value else { return nil }
            return changed(stops.map { fields($0, ["color": { $0.color($1) }]) }, stops).map(JSONValue.array)
        case .shadow:
            if case .string(let text) = value { return shadow(text) }
            guard case .array(let layers) = value else { return shadowLayer(value) }
            return changed(layers.map { shadowLayer($0) }, layers).map(JSONValue.array)
        case .cubicBezier:
            if case .string(let text) = value { return cubicBezier(text) }
            return nil
        case .transition: return fields(value, ["duration": { $0.duration($1) }, "delay": { $0.duration($1) },
                                                "timingFunction": { reading, curve in if case .string(let text) = curve { reading.cubicBezier(text) } else { nil } }])
        case .fontFamily, .fontWeight, .number, .strokeStyle, .other: return nil
        }
    }

    /// CSS's easing keywords as the curves CSS Easing 1 defines them to be.
    static let easingKeywords: [String: [Double]] = [
        "linear": [0, 0, 1, 1], "ease": [0.25, 0.1, 0.25, 1], "ease-in": [0.42, 0, 1, 1], "ease-out": [0, 0, 0.58, 1], "ease-in-out": [0.42, 0, 0.58, 1],
    ]

    /// `cubic-bezier(0.2, 0, 0, 1)` or an easing keyword (`ease-in-out`) as the Format module's
    /// four numbers; nil for anything else (a `steps()` has no Bézier).
    mutating func cubicBezier(_ text: String) -> JSONValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        var points = Self.easingKeywords[trimmed]
        if points == nil, trimmed.hasPrefix("cubic-bezier("), trimmed.hasSuffix(")") {
            let numbers = trimmed.dropFirst("cubic-bezier(".count).dropLast().split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            if numbers.count == 4, numbers.allSatisfy({ $0 != nil }) { points = numbers.compactMap { $0 } }
        }
        guard let points, points[0] >= 0, points[0] <= 1, points[2] >= 0, points[2] <= 1 else { return nil }
        slips.append(Slip(kind: .cssForm, detail: "\"\(text.prefix(40))\" read as CSS writes it, a cubic Bézier"))
        return .array(points.map { $0 == $0.rounded() && abs($0) < 1e15 ? .int(Int($0)) : .double($0) })
    }

    private mutating func shadowLayer(_ layer: JSONValue) -> JSONValue? {
        fields(layer, ["color": { $0.color($1) }, "offsetX": { $0.dimension($1) }, "offsetY": { $0.dimension($1) },
                       "blur": { $0.dimension($1) }, "spread": { $0.dimension($1) }])
    }

    /// `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` as an sRGB colour with its 8-bit hex; a colour
    /// object whose `hex` is one of the other lengths, without it (its components say more).
    mutating func color(_ value: JSONValue) -> JSONValue? {
        if case .object(var members) = value, value["colorSpace"] != nil, value["components"] != nil {
            // A note kept inside the value (`description`, a designer's comment): the colour is
            // what the Color module's members say; the rest is left out of it.
            let extra = members.map(\.0).filter { !Self.colorMembers.contains($0) }
            if !extra.isEmpty {
                slips.append(Slip(kind: .format, detail: "\(extra.prefix(3).joined(separator: ", ")) inside the colour value is no member of a colour; left out of it"))
                members.removeAll { extra.contains($0.0) }
            }
            if case .string(let hex)? = JSONValue.object(members)["hex"], Self.hexBytes(hex) != nil, hex.count != 7 {
                slips.append(Slip(kind: .hexFallback, detail: "hex \"\(hex)\" is not #RRGGBB; the components are served"))
                members.removeAll { $0.0 == "hex" }
            }
            return extra.isEmpty && members.count == Self.count(of: value) ? nil : .object(members)
        }
        guard case .string(let text) = value else { return nil }
        guard let bytes = Self.hexBytes(text) else { return cssColor(text) }
        slips.append(Slip(kind: .draftForm, detail: "\"\(text.prefix(40))\" read as an sRGB colour"))
        let hex = "#" + bytes.prefix(3).map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }.joined()
        var members: [(String, JSONValue)] = [("colorSpace", "srgb"), ("components", .array(bytes.prefix(3).map { .double(Double($0) / 255) }))]
        if bytes.count == 4 { members.append(("alpha", .double(Double(bytes[3]) / 255))) }
        members.append(("hex", .string(hex)))
        return .object(members)
    }

    /// A shadow CSS writes (`inset 0 0 0 1px #d0d7de`, `0 1px 2px rgba(0,0,0,.1), 0 4px 8px
    /// rgba(0,0,0,.1)`): each layer its offsets, blur and spread (0 where not given), colour and
    /// inset, as the Format module's object (a list for several layers). Nil when a layer is not
    /// two to four lengths and one colour.
    mutating func shadow(_ text: String) -> JSONValue? {
        guard text.utf8.count <= 4096 else { return nil }
        var layers: [JSONValue] = []
        for layer in Self.topLevelArguments(text) {
            var inset = false
            var lengths: [JSONValue] = []
            var color: CSSColor?
            // Words, keeping a colour function's spaces together.
            var words: [String] = [], current = "", depth = 0
            for character in layer {
                if character == "(" { depth += 1 } else if character == ")" { depth -= 1 }
                if character.isWhitespace, depth == 0 {
                    if !current.isEmpty { words.append(current) }
                    current = ""
                } else {
                    current.append(character)
                }
            }
            if !current.isEmpty { words.append(current) }
            for word in words {
                if word.lowercased() == "inset" { inset = true; continue }
                if word == "0" || Double(word) == 0 { lengths.append(.object([("value", .int(0)), ("unit", "px")])); continue }
                var probe = DraftValues()
                if let length = probe.measure(.string(word), units: Self.dimensionUnits) { lengths.append(length); continue }
                guard color == nil, let named = CSSColor(css: word) else { return nil }
                color = named
            }
            guard (2...4).contains(lengths.count), let color else { return nil }
            while lengths.count < 4 { lengths.append(.object([("value", .int(0)), ("unit", "px")])) }
            var colorMembers: [(String, JSONValue)] = [("colorSpace", .string(color.space.rawValue)),
                                                       ("components", .array(color.components.map { $0.map(JSONValue.double) ?? "none" }))]
            if color.alpha != 1 { colorMembers.append(("alpha", .double(color.alpha))) }
            layers.append(.object([("color", .object(colorMembers)), ("offsetX", lengths[0]), ("offsetY", lengths[1]), ("blur", lengths[2]),
                                   ("spread", lengths[3]), ("inset", .bool(inset))]))
        }
        guard !layers.isEmpty else { return nil }
        slips.append(Slip(kind: .cssForm, detail: "\"\(text.prefix(40))\" read as CSS writes it, a shadow of \(layers.count) layer\(layers.count == 1 ? "" : "s")"))
        return layers.count == 1 ? layers[0] : .array(layers)
    }

    /// The members of the Color module's colour object.
    static let colorMembers: Set<String> = ["colorSpace", "components", "alpha", "hex"]

    private static func count(of value: JSONValue) -> Int {
        if case .object(let members) = value { return members.count }
        return 0
    }

    /// A typography value with its dimensions read anew, a missing `letterSpacing` as 0 (the
    /// type's default everywhere it is drawn), and a line height given as a length (`"28px"`,
    /// `{"value": 28, "unit": "px"}`, an alias of a sizing token) as the number the Format module
    /// takes: that length over the font size, when both are in one unit.
    private mutating func typography(_ value: JSONValue) -> JSONValue? {
        guard case .object(var members) = value else { return nil }
        var changed = false
        for index in members.indices where ["fontSize", "letterSpacing", "lineHeight"].contains(members[index].0) {
            if let read = dimension(members[index].1) {
                members[index].1 = read
                changed = true
            }
        }
        if !members.contains(where: { $0.0 == "letterSpacing" }) {
            members.append(("letterSpacing", .object([("value", .int(0)), ("unit", "px")])))
            slips.append(Slip(kind: .format, detail: "typography without letterSpacing: 0px, as it is drawn without one"))
            changed = true
        }
        let object = JSONValue.object(members)
        // 1.5em and 150% are the ratio itself.
        if let index = members.firstIndex(where: { $0.0 == "lineHeight" }), let height = object["lineHeight"]?["value"].flatMap(TokenValidation.number),
           case .string(let unit)? = object["lineHeight"]?["unit"], unit == "em" || unit == "%" {
            let ratio = unit == "%" ? height / 100 : height
            members[index].1 = .double(ratio)
            slips.append(Slip(kind: .cssForm, detail: "lineHeight \(AliasResolver.numberText(height))\(unit) read as \(AliasResolver.numberText(ratio))"))
            return .object(members)
        }
        if let index = members.firstIndex(where: { $0.0 == "lineHeight" }), case .object = members[index].1,
           let height = object["lineHeight"]?["value"].flatMap(TokenValidation.number), let size = object["fontSize"]?["value"].flatMap(TokenValidation.number),
           size > 0, let unit = object["lineHeight"]?["unit"], unit == object["fontSize"]?["unit"], case .string(let unitName) = unit {
            let ratio = (height / size * 10_000).rounded() / 10_000
            members[index].1 = .double(ratio)
            slips.append(Slip(kind: .cssForm, detail: "lineHeight \(AliasResolver.numberText(height))\(unitName) read as \(AliasResolver.numberText(ratio)), its ratio to the font size \(AliasResolver.numberText(size))\(unitName)"))
            changed = true
        }
        return changed ? .object(members) : nil
    }

    /// A colour CSS writes in text, as the Color module's object in the space it names (`none`
    /// kept; an sRGB colour also gets its hex).
    private mutating func cssColor(_ text: String) -> JSONValue? {
        guard let color = CSSColor(css: text) else { return nil }
        slips.append(Slip(kind: .cssForm, detail: "\"\(text.prefix(40))\" read as CSS writes it, a colour in \(color.space.rawValue)"))
        var members: [(String, JSONValue)] = [
            ("colorSpace", .string(color.space.rawValue)),
            ("components", .array(color.components.map { $0.map(JSONValue.double) ?? "none" })),
        ]
        if color.alpha != 1 { members.append(("alpha", .double(color.alpha))) }
        if color.space == .srgb, color.components.allSatisfy({ $0 != nil }) { members.append(("hex", .string(color.sRGB.hex.prefix(7).lowercased()))) }
        return .object(members)
    }

    /// The CSS functions of gradients.
    static let gradientFunctions = ["linear-gradient", "radial-gradient", "conic-gradient", "repeating-linear-gradient", "repeating-radial-gradient",
                                    "repeating-conic-gradient"]

    /// Whether `value` is text of a CSS gradient function (`linear-gradient(...)`).
    static func isGradientText(_ value: JSONValue) -> Bool {
        guard case .string(let text) = value, let open = text.firstIndex(of: "(") else { return false }
        return gradientFunctions.contains(text[..<open].trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// A gradient CSS writes (`linear-gradient(90deg, #fff 0%, rgba(0,0,0,.5) 100%)`, also
    /// `radial-gradient` and the repeating ones) as the Format module's stops: each colour at its
    /// position from 0 to 1, a position not given placed as CSS places it. The direction or shape
    /// has no place in a DTCG gradient: the slip says so. Nil when a stop is no colour, or is
    /// placed by a length (only a percentage maps to 0...1).
    mutating func gradient(_ text: String) -> JSONValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 4096, let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")"),
              Self.gradientFunctions.contains(trimmed[..<open].lowercased()) else { return nil }
        var arguments = Self.topLevelArguments(String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]))
        var direction: String?
        if let first = arguments.first, Self.stop(first) == nil {
            direction = first
            arguments.removeFirst()
        }
        var stops: [(color: CSSColor, position: Double?)] = []
        for argument in arguments {
            guard let stop = Self.stop(argument) else { return nil }
            stops.append(stop)
        }
        guard stops.count >= 2 else { return nil }
        let positions = Self.placed(stops.map(\.position))
        let members = zip(stops, positions).map { stop, position -> JSONValue in
            var color: [(String, JSONValue)] = [("colorSpace", .string(stop.color.space.rawValue)),
                                                ("components", .array(stop.color.components.map { $0.map(JSONValue.double) ?? "none" }))]
            if stop.color.alpha != 1 { color.append(("alpha", .double(stop.color.alpha))) }
            return .object([("color", .object(color)), ("position", .double(position))])
        }
        let unplaced = direction.map { "; its direction (\($0.prefix(40))) has no place in a DTCG gradient and is not served" } ?? ""
        slips.append(Slip(kind: .cssForm, detail: "\"\(text.prefix(40))\" read as CSS writes it, a gradient of \(stops.count) stops\(unplaced)"))
        return .array(members)
    }

    /// A colour stop: a colour and an optional percentage (a second position repeats the colour
    /// there, as CSS does; only the first is kept).
    private static func stop(_ text: String) -> (color: CSSColor, position: Double?)? {
        // The colour may hold spaces (`rgb(0 0 0 / 50%)`): the position is the last word, if it is a percentage.
        let words = text.split(whereSeparator: \.isWhitespace)
        if let last = words.last, last.hasSuffix("%"), words.count > 1, let percent = Double(last.dropLast()) {
            var colorWords = words.dropLast()
            // `red 10% 20%`: two positions.
            if let second = colorWords.last, second.hasSuffix("%"), colorWords.count > 1, let first = Double(second.dropLast()) {
                colorWords = colorWords.dropLast()
                return CSSColor(css: colorWords.joined(separator: " ")).map { ($0, first / 100) }
            }
            return CSSColor(css: colorWords.joined(separator: " ")).map { ($0, percent / 100) }
        }
        return CSSColor(css: text).map { ($0, nil) }
    }

    /// Stops' positions with those not given placed as CSS does: the first at 0, the last at 1,
    /// the others evenly between their neighbours; none before the one before it.
    static func placed(_ given: [Double?]) -> [Double] {
        var positions = given
        if positions.first.flatMap({ $0 }) == nil { positions[0] = 0 }
        if positions.last.flatMap({ $0 }) == nil { positions[positions.count - 1] = 1 }
        var index = 0
        while index < positions.count {
            guard positions[index] == nil else { index += 1; continue }
            let start = index - 1
            var end = index
            while positions[end] == nil { end += 1 }
            let from = positions[start] ?? 0, to = positions[end] ?? 1
            for between in index..<end { positions[between] = from + (to - from) * Double(between - start) / Double(end - start) }
            index = end
        }
        var floor = 0.0
        return positions.map { position in
            floor = max(floor, position ?? floor)
            return floor
        }
    }

    /// The arguments of a CSS function, split at its own commas (not those inside `rgb(...)`).
    static func topLevelArguments(_ text: String) -> [String] {
        var arguments: [String] = [], current = "", depth = 0
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0:
                arguments.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        arguments.append(current.trimmingCharacters(in: .whitespaces))
        return arguments
    }

    /// A dimension in one string (`"16px"`), or in a unit converters write (`{"value": 1, "unit": "em"}`).
    mutating func dimension(_ value: JSONValue) -> JSONValue? {
        let measured = measure(value, units: Self.dimensionUnits)
        if case .string(let unit)? = (measured ?? value)["unit"], Self.convertersUnits.contains(unit) {
            slips.append(Slip(kind: .unit, detail: "unit \"\(unit)\" is neither px nor rem; kept as written"))
        }
        return measured
    }

    mutating func duration(_ value: JSONValue) -> JSONValue? {
        measure(value, units: Self.durationUnits)
    }

    /// `"16px"` as `{"value": 16, "unit": "px"}`, for a unit of `units`.
    mutating func measure(_ value: JSONValue, units: [String]) -> JSONValue? {
        guard case .string(let text) = value, let unit = units.sorted(by: { $0.count > $1.count }).first(where: text.hasSuffix) else { return nil }
        let number = text.dropLast(unit.count)
        // Digits with at most one point and an optional sign: what JSON would have written as a number.
        guard number.contains(where: \.isNumber), number.drop(while: { $0 == "-" }).allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              number.filter({ $0 == "." }).count <= 1, number.filter({ $0 == "-" }).count <= 1, let amount = Double(number) else { return nil }
        slips.append(Slip(kind: .draftForm, detail: "\"\(text.prefix(40))\" read as a number and its unit"))
        return .object([("value", amount == amount.rounded() && abs(amount) < 1e15 ? .int(Int(amount)) : .double(amount)), ("unit", .string(unit))])
    }

    /// A composite value with the named fields read anew where they need it; nil when none did.
    private mutating func fields(_ value: JSONValue, _ readers: [String: (inout DraftValues, JSONValue) -> JSONValue?]) -> JSONValue? {
        guard case .object(let members) = value else { return nil }
        var anyChanged = false
        var upgraded: [(String, JSONValue)] = []
        for (name, field) in members {
            guard let reader = readers[name], let new = reader(&self, field) else { upgraded.append((name, field)); continue }
            anyChanged = true
            upgraded.append((name, new))
        }
        return anyChanged ? .object(upgraded) : nil
    }

    /// The elements with those read anew in place; nil when none was.
    private func changed(_ upgraded: [JSONValue?], _ original: [JSONValue]) -> [JSONValue]? {
        guard upgraded.contains(where: { $0 != nil }) else { return nil }
        return zip(upgraded, original).map { $0 ?? $1 }
    }

    /// The bytes of `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (three or four); nil for anything else.
    static func hexBytes(_ text: String) -> [Int]? {
        guard text.hasPrefix("#") else { return nil }
        let digits = Array(text.utf8.dropFirst())
        let nibbles = digits.compactMap(hexValue)
        guard [3, 4, 6, 8].contains(digits.count), nibbles.count == digits.count else { return nil }
        return digits.count <= 4 ? nibbles.map { $0 * 17 } : stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] * 16 + nibbles[$0 + 1] }
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
