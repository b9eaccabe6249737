import DesignTokens
import Foundation
import JSON
import ThemeVocabulary

/// A design token's resolved `$value` written as a CSS value, by its `$type` (DTCG 2025.10):
/// what `colors.css` declares for every token that is not a colour. nil for a value CSS cannot
/// say (a stroke style made of a dash array, a gradient) or that does not have its type's shape;
/// the export lists those in its leading comment.
enum CSSTokenValue {
    static func css(type: String, value: JSONValue) -> String? {
        switch type {
        case "dimension", "duration": measure(value)
        case "number": value.number.map(\.exportText)
        case "fontFamily": fontFamily(value)
        case "fontWeight": fontWeight(value)
        case "cubicBezier": cubicBezier(value)
        case "strokeStyle": strokeStyle(value)
        case "border": border(value)
        case "shadow": shadow(value)
        case "transition": transition(value)
        case "color": color(value)
        case "gradient": gradient(value)
        // Tokens Studio's `text` (content), and its text case and decoration keywords.
        case "text": if case .string(let text) = value { quoted(text) } else { nil }
        case "textCase", "textDecoration": if case .string(let keyword) = value, !keyword.isEmpty,
                                                keyword.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) { keyword } else { nil }
        default: nil
        }
    }

    /// A DTCG gradient (stops of a colour and a position from 0 to 1) as `linear-gradient()`
    /// in CSS's own direction (top to bottom): the Format module gives a gradient no direction.
    static func gradient(_ value: JSONValue) -> String? {
        guard case .array(let stops) = value, !stops.isEmpty else { return nil }
        let written = stops.compactMap { stop -> String? in
            guard let color = stop["color"].flatMap(color), let position = stop["position"]?.number else { return nil }
            return "\(color) \(((min(max(position, 0), 1) * 1_000_000).rounded() / 10_000).exportText)%"
        }
        guard written.count == stops.count else { return nil }
        return "linear-gradient(" + written.joined(separator: ", ") + ")"
    }

    /// A CSS string: quotes and backslashes escaped, line breaks and other controls as escapes.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": out += "\\" + String(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\" + String(scalar.value, radix: 16) + " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `{"value": 4, "unit": "px"}` as `4px`, `{"value": 150, "unit": "ms"}` as `150ms`.
    static func measure(_ value: JSONValue) -> String? {
        guard let amount = value["value"]?.number, case .string(let unit)? = value["unit"], unit == "%" || unit.allSatisfy(\.isLetter) else { return nil }
        return amount.exportText + unit
    }

    /// `Inter, "Helvetica Neue", sans-serif`: a family that is not a plain identifier is quoted;
    /// CSS's generic families stay keywords.
    static func fontFamily(_ value: JSONValue) -> String? {
        let names: [String]
        switch value {
        case .string(let name): names = [name]
        case .array(let members):
            names = members.compactMap { if case .string(let name) = $0 { name } else { nil } }
            guard names.count == members.count, !names.isEmpty else { return nil }
        default: return nil
        }
        return names.map { name in
            if genericFamilies.contains(name) { return name }
            let plain = name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "-" || ("0"..."9").contains($0) }
                && !(name.first?.isNumber ?? true) && !name.hasPrefix("--")
            return plain ? name : "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }.joined(separator: ", ")
    }

    static let genericFamilies: Set<String> = ["serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif", "ui-sans-serif",
                                               "ui-monospace", "ui-rounded", "math", "emoji", "fangsong"]

    /// A number from 1 to 1000, or a weight's name (`semi-bold`) as its number.
    static func fontWeight(_ value: JSONValue) -> String? {
        switch value {
        case .int(let weight) where (1...1000).contains(weight): String(weight)
        case .double(let weight) where (1...1000).contains(weight): weight.exportText
        case .string(let name): FontWeightName.weight(of: name).map(String.init)
        default: nil
        }
    }

    static func cubicBezier(_ value: JSONValue) -> String? {
        guard case .array(let members) = value, members.count == 4 else { return nil }
        let points = members.compactMap(\.number)
        guard points.count == 4 else { return nil }
        return "cubic-bezier(" + points.map(\.exportText).joined(separator: ", ") + ")"
    }

    /// A keyword style; one made of a dash array has no CSS value.
    static func strokeStyle(_ value: JSONValue) -> String? {
        guard case .string(let style) = value, strokeStyles.contains(style) else { return nil }
        return style
    }

    static let strokeStyles: Set<String> = ["solid", "dashed", "dotted", "double", "groove", "ridge", "outset", "inset"]

    /// `1px solid rgb(...)`: the `border` shorthand's width, style and colour.
    static func border(_ value: JSONValue) -> String? {
        guard let width = value["width"].flatMap(measure), case .string(let style)? = value["style"], strokeStyles.contains(style),
              let color = value["color"].flatMap(color) else { return nil }
        return "\(width) \(style) \(color)"
    }

    /// `box-shadow`: each layer as `[inset] x y blur spread colour`, layers joined by commas.
    static func shadow(_ value: JSONValue) -> String? {
        let layers: [JSONValue] = if case .array(let members) = value { members } else { [value] }
        let written = layers.compactMap { layer -> String? in
            guard let x = layer["offsetX"].flatMap(measure), let y = layer["offsetY"].flatMap(measure),
                  let blur = layer["blur"].flatMap(measure), let spread = layer["spread"].flatMap(measure),
                  let color = layer["color"].flatMap(color) else { return nil }
            let inset = if case .bool(true)? = layer["inset"] { "inset " } else { "" }
            return "\(inset)\(x) \(y) \(blur) \(spread) \(color)"
        }
        guard !layers.isEmpty, written.count == layers.count else { return nil }
        return written.joined(separator: ", ")
    }

    /// The `transition` shorthand without a property (it applies to all): duration, timing
    /// function, delay.
    static func transition(_ value: JSONValue) -> String? {
        guard let duration = value["duration"].flatMap(measure), let delay = value["delay"].flatMap(measure),
              let timing = value["timingFunction"].flatMap(cubicBezier) else { return nil }
        return "\(duration) \(timing) \(delay)"
    }

    /// A colour inside a composite token, as `colors.css` writes colours: sRGB and Display P3 as
    /// written, other spaces mapped into sRGB (what the colour route answers in sRGB).
    static func color(_ value: JSONValue) -> String? {
        cssColor(value).map { ($0.asWritten ?? $0.sRGB).css }
    }

    /// A DTCG colour value (`colorSpace`, `components`, each a number or `none`, `alpha`).
    static func cssColor(_ value: JSONValue) -> CSSColor? {
        guard case .string(let spaceName)? = value["colorSpace"], let space = CSSColor.Space(rawValue: spaceName),
              case .array(let members)? = value["components"], members.count == 3,
              members.allSatisfy({ $0.number != nil || $0 == .string("none") }) else { return nil }
        return CSSColor(space: space, components: members.map(\.number), alpha: value["alpha"]?.number ?? 1)
    }

    /// A typography token as the declarations of a class: the `font` shorthand where the style
    /// has a size and a family (CSS needs both), else each property on its own; letter spacing
    /// apart (the shorthand has none). nil when the value is not an object.
    static func typography(_ value: JSONValue) -> [(property: String, value: String)]? {
        guard case .object = value else { return nil }
        let family = value["fontFamily"].flatMap(fontFamily)
        let size = value["fontSize"].flatMap(measure)
        let weight = value["fontWeight"].flatMap(fontWeight)
        let lineHeight = value["lineHeight"].flatMap { $0.number.map(\.exportText) ?? measure($0) }
        let letterSpacing = value["letterSpacing"].flatMap(measure)
        var declarations: [(String, String)] = []
        if let family, let size {
            let parts = [weight, size + (lineHeight.map { "/" + $0 } ?? ""), family].compactMap { $0 }
            declarations.append(("font", parts.joined(separator: " ")))
        } else {
            if let family { declarations.append(("font-family", family)) }
            if let size { declarations.append(("font-size", size)) }
            if let weight { declarations.append(("font-weight", weight)) }
            if let lineHeight { declarations.append(("line-height", lineHeight)) }
        }
        if let letterSpacing { declarations.append(("letter-spacing", letterSpacing)) }
        return declarations
    }
}
