import Foundation

/// How Material 3 makes a scheme's palettes from a seed (material-color-utilities' `Variant`).
public enum MaterialVariant: String, Sendable, CaseIterable {
    case tonalSpot, neutral, vibrant, expressive, fidelity, content, monochrome, rainbow, fruitSalad
}

/// theme.json's `material`: the Material 3 colour roles made from a seed
/// (`{"seed": "#6750A4", "variant": "tonalSpot", "spec": "2021", "highContrastLevel": 1}`).
public struct MaterialSettings: Sendable, Equatable {
    /// `#RRGGBB`, or a colour token's alias (`{color.brand}`), resolved in the theme's own tokens.
    public enum Seed: Sendable, Equatable {
        case rgb(UInt32)
        case alias(String)

        public var isAlias: Bool { if case .alias = self { true } else { false } }
    }

    public var seed: Seed
    public var variant: MaterialVariant = .tonalSpot
    /// The contrast level high contrast is made at (material-color-utilities' 0.5 is "medium").
    public var highContrastLevel = 1.0

    public static let keys = ["seed", "variant", "spec", "highContrastLevel"]
    /// The versions of the roles' rules this server computes.
    public static let specs = ["2021"]

    public init(seed: Seed, variant: MaterialVariant = .tonalSpot, highContrastLevel: Double = 1) {
        (self.seed, self.variant, self.highContrastLevel) = (seed, variant, highContrastLevel)
    }

    init(_ value: Any) throws(ThemeSettings.Invalid) {
        typealias Invalid = ThemeSettings.Invalid
        let shape = "\"material\" is {\"seed\": \"#RRGGBB\" or \"{a.color.token}\", \"variant\": \"tonalSpot\", \"spec\": \"2021\", \"highContrastLevel\": 1}"
        guard let fields = value as? [String: Any] else { throw Invalid(reason: shape) }
        for key in fields.keys.sorted() where !Self.keys.contains(key) {
            let hint = Spelling.nearest(to: key, among: Self.keys).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw Invalid(reason: "unknown key \"material.\(key)\"\(hint); \(shape)")
        }
        guard let text = fields["seed"] as? String else { throw Invalid(reason: "\"material.seed\" is missing or not a string; \(shape)") }
        if let rgb = Self.rgb(text) {
            seed = .rgb(rgb)
        } else if text.count > 2, text.hasPrefix("{"), text.hasSuffix("}"), !text.dropFirst().dropLast().contains(where: { "{}".contains($0) }) {
            seed = .alias(String(text.dropFirst().dropLast()))
        } else {
            throw Invalid(reason: "\"material.seed\" is \"\(text.prefix(100))\", neither a colour like \"#6750A4\" nor a colour token's alias like \"{color.brand}\"")
        }
        if let given = fields["variant"] {
            guard let name = given as? String, let variant = MaterialVariant(rawValue: name) else {
                let text = (given as? String).map { "\"\($0.prefix(100))\"" } ?? "not a string"
                let hint = (given as? String).flatMap { Spelling.nearest(to: $0, among: MaterialVariant.allCases.map(\.rawValue)) }.map { " (did you mean \"\($0)\"?)" } ?? ""
                throw Invalid(reason: "\"material.variant\" is \(text)\(hint); it is one of \(MaterialVariant.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.variant = variant
        }
        if let given = fields["spec"] {
            guard let spec = given as? String, Self.specs.contains(spec) else {
                throw Invalid(reason: "\"material.spec\" is \((given as? String).map { "\"\($0.prefix(20))\"" } ?? "not a string"); this server computes the roles of \"2021\"")
            }
        }
        if let given = fields["highContrastLevel"] {
            guard let level = given as? Double, level > 0, level <= 1 else {
                throw Invalid(reason: "\"material.highContrastLevel\" is a number above 0 and at most 1 (0.5 is Material's medium contrast, 1 its high)")
            }
            highContrastLevel = level
        }
    }

    /// `#RRGGBB` (or `#RGB`) as opaque ARGB.
    static func rgb(_ text: String) -> UInt32? {
        guard text.hasPrefix("#") else { return nil }
        let digits = Array(text.dropFirst())
        guard digits.count == 6 || digits.count == 3, digits.allSatisfy(\.isHexDigit) else { return nil }
        let full = digits.count == 3 ? digits.flatMap { [$0, $0] } : digits
        return UInt32(String(full), radix: 16).map { 0xFF00_0000 | $0 }
    }
}
