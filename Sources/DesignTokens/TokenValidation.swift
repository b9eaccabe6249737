import JSON
import ThemeVocabulary

/// Whether a resolved value fits its type (Format module 2025.10, sections 8 and 9, and the Color
/// module): nil when it does, else the reason. A type the module does not define takes any value.
enum TokenValidation {
    static func problem(with value: JSONValue, as type: TokenType) -> String? {
        switch type {
        case .color: color(value)
        case .dimension: dimension(value)
        case .duration: duration(value)
        case .fontFamily: fontFamily(value)
        case .fontWeight: fontWeight(value)
        case .cubicBezier: cubicBezier(value)
        case .number: number(value) == nil ? "must be a number" : nil
        case .strokeStyle: strokeStyle(value)
        case .border: fields(value, [("color", color), ("width", dimension), ("style", strokeStyle)])
        case .transition:
            fields(value, [("duration", duration), ("delay", duration),
                           ("timingFunction", cubicBezier)])
        case .shadow: shadow(value)
        case .gradient: gradient(value)
        case .typography:
            fields(value, [("fontFamily", fontFamily), ("fontSize", dimension), ("fontWeight", fontWeight),
                           ("letterSpacing", dimension), ("lineHeight", { number($0) == nil ? "must be a number" : nil })])
        case .other: nil
        }
    }

    static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// A colour whose components lie outside its space's ranges (Color module 2025.10): it still
    /// means one colour (an extended sRGB value, a hue of 360 is 0), said as a warning; nil
    /// when every component is in range.
    static func rangeNote(_ value: JSONValue) -> String? {
        guard case .string(let space)? = value["colorSpace"], case .array(let written)? = value["components"] else { return nil }
        let components = written.map(number)
        let bounded: [ClosedRange<Double>?]
        switch space {
        case "srgb", "srgb-linear", "display-p3", "a98-rgb", "prophoto-rgb", "rec2020": bounded = [0...1, 0...1, 0...1]
        case "hsl", "hwb": bounded = [nil, 0...100, 0...100]
        case "lab": bounded = [0...100, nil, nil]
        case "lch": bounded = [0...100, 0...Double.infinity, nil]
        case "oklab": bounded = [0...1, nil, nil]
        case "oklch": bounded = [0...1, 0...Double.infinity, nil]
        default: return nil
        }
        let hue = ["hsl", "hwb"].contains(space) ? 0 : ["lch", "oklch"].contains(space) ? 2 : nil
        if let hue, components.indices.contains(hue), let degrees = components[hue], !(0..<360).contains(degrees) {
            return "hue \(degrees.formatted()) is outside 0 to less than 360 (the same hue as \((degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360).formatted())); served as that hue"
        }
        for (index, range) in bounded.enumerated() {
            guard let range, components.indices.contains(index), let component = components[index], !range.contains(component) else { continue }
            return "component \(index + 1), \(component.formatted()), is outside \(space)'s range (\(range.lowerBound.formatted()) to \(range.upperBound.formatted())); served as written"
        }
        return nil
    }

    /// A colour value of the Color module as a colour of its space (`none` components as nil).
    static func cssColor(_ value: JSONValue) -> CSSColor? {
        guard case .string(let name)? = value["colorSpace"], let space = CSSColor.Space(rawValue: name),
              case .array(let components)? = value["components"] else { return nil }
        return CSSColor(space: space, components: components.map(number), alpha: value["alpha"].flatMap(number) ?? 1)
    }

    static func color(_ value: JSONValue) -> String? {
        guard case .object(let members) = value else { return "must be an object with colorSpace and components" }
        guard case .string(let space)? = value["colorSpace"] else { return "colorSpace is missing" }
        guard CSSColor.Space(rawValue: space) != nil else { return "colorSpace \"\(space.prefix(40))\" is not one the Color module defines" }
        guard case .array(let components)? = value["components"] else { return "components must be an array" }
        guard components.count == 3 else { return "\(space) takes 3 components, not \(components.count)" }
        for component in components where number(component) == nil && component != .string("none") {
            return "each component must be a number or \"none\""
        }
        if let alpha = value["alpha"] {
            guard let number = number(alpha), (0...1).contains(number) else { return "alpha must be a number from 0 to 1" }
        }
        if let hex = value["hex"] {
            guard case .string(let text) = hex, text.count == 7, text.hasPrefix("#"), text.dropFirst().allSatisfy(\.isHexDigit) else {
                return "hex must be #RRGGBB"
            }
        }
        if let extra = members.first(where: { !["colorSpace", "components", "alpha", "hex"].contains($0.0) }) {
            return "\(extra.0) is not a property of a colour"
        }
        return nil
    }

    /// px or rem, as the Format module says, or a unit converters write (`DraftValues` says it).
    static func dimension(_ value: JSONValue) -> String? {
        measure(value, units: ["px", "rem"], alsoTaken: DraftValues.convertersUnits, name: "dimension")
    }

    static func duration(_ value: JSONValue) -> String? {
        measure(value, units: DraftValues.durationUnits, name: "duration")
    }

    /// `{"value": number, "unit": ...}` in one of `units`, or of `alsoTaken` (read with a warning).
    private static func measure(_ value: JSONValue, units: [String], alsoTaken: [String] = [], name: String) -> String? {
        guard case .object = value, let amount = value["value"], number(amount) != nil else { return "a \(name) is {\"value\": number, \"unit\": ...}" }
        guard case .string(let unit)? = value["unit"], (units + alsoTaken).contains(unit) else {
            return "a \(name)'s unit is \(units.joined(separator: " or "))" + (alsoTaken.isEmpty ? "" : " (\(alsoTaken.joined(separator: ", ")) are read with a warning)")
        }
        return nil
    }

    static func fontFamily(_ value: JSONValue) -> String? {
        switch value {
        case .string(let name): name.isEmpty ? "a font family name may not be empty" : nil
        case .array(let names) where !names.isEmpty && names.allSatisfy({ if case .string(let name) = $0 { !name.isEmpty } else { false } }): nil
        default: "must be a font name or a list of them"
        }
    }

    static let fontWeightNames: [String: Int] = [
        "thin": 100, "hairline": 100, "extra-light": 200, "ultra-light": 200, "light": 300, "normal": 400, "regular": 400, "book": 400,
        "medium": 500, "semi-bold": 600, "demi-bold": 600, "bold": 700, "extra-bold": 800, "ultra-bold": 800, "black": 900, "heavy": 900,
        "extra-black": 950, "ultra-black": 950,
    ]

    static func fontWeight(_ value: JSONValue) -> String? {
        if let weight = number(value) { return (1...1000).contains(weight) ? nil : "must be from 1 to 1000" }
        if case .string(let name) = value, fontWeightNames[name] != nil { return nil }
        return "must be 1-1000 or one of thin, light, normal, medium, bold, black, ... (case matters)"
    }

    static func cubicBezier(_ value: JSONValue) -> String? {
        guard case .array(let points) = value, points.count == 4 else { return "must be [P1x, P1y, P2x, P2y]" }
        let numbers = points.compactMap(number)
        guard numbers.count == 4 else { return "must be four numbers" }
        guard (0...1).contains(numbers[0]), (0...1).contains(numbers[2]) else { return "the x coordinates must be from 0 to 1" }
        return nil
    }

    static let strokeStyles: Set<String> = ["solid", "dashed", "dotted", "double", "groove", "ridge", "outset", "inset"]

    static func strokeStyle(_ value: JSONValue) -> String? {
        if case .string(let name) = value { return strokeStyles.contains(name) ? nil : "\"\(name.prefix(40))\" is not a stroke style" }
        guard case .object = value, case .array(let dashes)? = value["dashArray"], !dashes.isEmpty else { return "must be a style name or {dashArray, lineCap}" }
        if let bad = dashes.lazy.compactMap(dimension).first { return "dashArray: \(bad)" }
        guard case .string(let cap)? = value["lineCap"], ["round", "butt", "square"].contains(cap) else { return "lineCap is round, butt or square" }
        return nil
    }

    static func shadow(_ value: JSONValue) -> String? {
        let layers: [JSONValue] = if case .array(let elements) = value { elements } else { [value] }
        guard !layers.isEmpty else { return "an array of shadows may not be empty" }
        for layer in layers {
            if let problem = fields(layer, [("color", color), ("offsetX", dimension), ("offsetY", dimension), ("blur", dimension), ("spread", dimension)],
                                    optional: [("inset", { if case .bool = $0 { nil } else { "must be true or false" } })]) {
                return problem
            }
        }
        return nil
    }

    static func gradient(_ value: JSONValue) -> String? {
        guard case .array(let stops) = value, !stops.isEmpty else { return "must be a list of stops" }
        for stop in stops {
            if let problem = fields(stop, [("color", color), ("position", { number($0) == nil ? "must be a number" : nil })]) { return problem }
        }
        return nil
    }

    /// An object with exactly these fields (and optionally those), each checked.
    static func fields(_ value: JSONValue, _ required: [(String, (JSONValue) -> String?)], optional: [(String, (JSONValue) -> String?)] = []) -> String? {
        guard case .object(let members) = value else { return "must be an object with \(required.map(\.0).joined(separator: ", "))" }
        for (name, check) in required {
            guard let field = value[name] else { return "\(name) is missing" }
            if let problem = check(field) { return "\(name): \(problem)" }
        }
        for (name, check) in optional {
            if let field = value[name], let problem = check(field) { return "\(name): \(problem)" }
        }
        let known = Set(required.map(\.0) + optional.map(\.0))
        if let extra = members.first(where: { !known.contains($0.0) }) { return "\(extra.0) is not one of its fields" }
        return nil
    }
}
