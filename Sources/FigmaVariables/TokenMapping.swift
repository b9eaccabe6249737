import DesignTokens
import JSON
import ThemeVocabulary

/// How one Figma variable's value becomes a DTCG 2025.10 token value (docs/TOKENS.md, "Figma
/// variables"): the type follows `resolvedType` and, for numbers and strings, the scopes the
/// designer gave the variable.
enum TokenMapping: Equatable {
    case color
    case dimension
    case number
    case fontFamily
    case fontWeight(Int)
    /// No DTCG type means it: kept under the file's `$extensions`, said in a note.
    case unmapped

    /// Scopes whose numbers are lengths: a FLOAT used only for them is a dimension in px.
    static let lengthScopes: Set<String> = [
        "WIDTH_HEIGHT", "GAP", "CORNER_RADIUS", "STROKE_FLOAT", "EFFECT_FLOAT", "FONT_SIZE", "LINE_HEIGHT", "LETTER_SPACING",
        "PARAGRAPH_SPACING", "PARAGRAPH_INDENT",
    ]

    /// The mapping of `literal`, a value of `variable` (the end of an alias chain).
    static func of(_ variable: FigmaFile.Variable, literal: FigmaFile.Value) -> TokenMapping {
        let scopes = Set(variable.scopes)
        switch literal {
        case .color: return .color
        case .number(let number):
            if !scopes.isEmpty, scopes.isSubset(of: lengthScopes) { return .dimension }
            // A weight is a number from 1 to 1000 in DTCG too; out of range it stays a number.
            if scopes == ["FONT_WEIGHT"], number >= 1, number <= 1000, number == number.rounded() { return .fontWeight(Int(number)) }
            return .number
        case .string(let text):
            if scopes == ["FONT_FAMILY"] { return .fontFamily }
            if scopes == ["FONT_STYLE"], let weight = FontWeightName.weight(of: text) { return .fontWeight(weight) }
            return .unmapped
        case .boolean, .alias: return .unmapped
        }
    }

    /// The DTCG `$type`; nil for what is not a token.
    var type: String? {
        switch self {
        case .color: "color"
        case .dimension: "dimension"
        case .number: "number"
        case .fontFamily: "fontFamily"
        case .fontWeight: "fontWeight"
        case .unmapped: nil
        }
    }

    /// The `$value` of `literal` under this mapping.
    func value(of literal: FigmaFile.Value) -> JSONValue? {
        switch (self, literal) {
        case (.color, .color(let red, let green, let blue, let alpha)):
            // The 8-bit #RRGGBB fallback DTCG allows beside the components (ColorValue's hex, without alpha).
            let hex = String(ColorValue(colorSpace: .sRGB, components: [red, green, blue, 1]).hex.prefix(7))
            return .object([("colorSpace", "srgb"), ("components", .array([.double(red), .double(green), .double(blue)])),
                            ("alpha", .double(alpha)), ("hex", .string(hex))])
        case (.dimension, .number(let number)): return .object([("value", .double(number)), ("unit", "px")])
        case (.number, .number(let number)): return .double(number)
        case (.fontFamily, .string(let text)): return .string(text)
        case (.fontWeight(let weight), _): return .int(weight)
        default: return nil
        }
    }
}
