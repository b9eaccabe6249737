import JSON
import ThemeVocabulary

/// Tokens Studio's colour modifiers (`$extensions["studio.tokens"].modify`): `lighten`,
/// `darken`, `mix` and `alpha` by an amount from 0 to 1, in the space they name (`lch`, `srgb`,
/// `p3`, `hsl`), as its plugin computes them: lighten moves lightness (or each channel) that
/// share of the way to white and takes as much chroma away, darken towards black, mix
/// interpolates towards another colour, alpha sets the opacity. The result is written in that
/// space; the colour routes convert it as any colour of the Color module.
struct ColorModifier {
    enum Operation: String { case lighten, darken, mix, alpha }
    enum Space: String { case lch, srgb, p3, hsl }

    var operation: Operation
    var space: Space
    var amount: Double
    /// For `mix`: the other colour.
    var other: CSSColor?

    /// The modifier described by `modify` once its aliases are replaced (amount a number or a
    /// numeric string, colour a DTCG colour), or why it cannot be used.
    static func parse(_ modify: JSONValue, color other: CSSColor?) -> Result<ColorModifier, Failure> {
        guard case .string(let kind)? = modify["type"], let operation = Operation(rawValue: kind) else {
            return .failure(Failure("modify.type must be lighten, darken, mix or alpha"))
        }
        let spaceName = modify["space"]?.stringValue ?? "srgb"
        guard let space = Space(rawValue: spaceName.lowercased()) else { return .failure(Failure("modify.space \(spaceName) is none of lch, srgb, p3, hsl")) }
        let amount: Double?
        switch modify["value"] {
        case .int(let number)?: amount = Double(number)
        case .double(let number)?: amount = number
        case .string(let text)?: amount = TokenMath.evaluate(text).flatMap { $0.unit == nil ? $0.value : nil }
        default: amount = nil
        }
        guard let amount, amount.isFinite, (0...1).contains(amount) else { return .failure(Failure("modify.value must be a number from 0 to 1")) }
        if operation == .mix, other == nil { return .failure(Failure("modify.color must be a colour to mix with")) }
        return .success(ColorModifier(operation: operation, space: space, amount: amount, other: other))
    }

    struct Failure: Error { var reason: String; init(_ reason: String) { self.reason = reason } }

    /// `color` modified, as a DTCG colour value in the modifier's space.
    func applied(to color: CSSColor) -> JSONValue {
        var coordinates = Self.coordinates(of: color, in: space)
        var alpha = color.alpha
        switch (operation, space) {
        case (.lighten, .lch):
            coordinates = [min(100, coordinates[0] + (100 - coordinates[0]) * amount), max(0, coordinates[1] - amount * coordinates[1]), coordinates[2]]
        case (.darken, .lch):
            coordinates = [max(0, coordinates[0] - coordinates[0] * amount), max(0, coordinates[1] - amount * coordinates[1]), coordinates[2]]
        case (.lighten, .hsl): coordinates[2] = min(100, coordinates[2] + (100 - coordinates[2]) * amount)
        case (.darken, .hsl): coordinates[2] = max(0, coordinates[2] - coordinates[2] * amount)
        case (.lighten, _): coordinates = coordinates.map { min(1, $0 + (1 - $0) * amount) }
        case (.darken, _): coordinates = coordinates.map { max(0, $0 - $0 * amount) }
        case (.mix, _):
            guard let other else { break }
            let target = Self.coordinates(of: other, in: space)
            let hue = space == .lch ? 2 : space == .hsl ? 0 : nil
            coordinates = coordinates.indices.map { index in
                guard index == hue else { return coordinates[index] + (target[index] - coordinates[index]) * amount }
                // Hue the shorter way round.
                var delta = (target[index] - coordinates[index]).truncatingRemainder(dividingBy: 360)
                if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
                return (coordinates[index] + delta * amount + 360).truncatingRemainder(dividingBy: 360)
            }
            alpha += (other.alpha - alpha) * amount
        case (.alpha, _): alpha = amount
        }
        let name = switch space { case .lch: "lch"; case .srgb: "srgb"; case .p3: "display-p3"; case .hsl: "hsl" }
        return .object([("colorSpace", .string(name)), ("components", .array(coordinates.map { .double($0) })), ("alpha", .double(alpha))])
    }

    /// A colour's coordinates in `space`: LCH (D50, as CSS), sRGB or Display P3 channels from 0 to
    /// 1, or HSL with saturation and lightness from 0 to 100.
    static func coordinates(of color: CSSColor, in space: Space) -> [Double] {
        switch space {
        case .srgb: Array(color.sRGB.components.prefix(3))
        case .p3: Array(color.displayP3.components.prefix(3))
        case .hsl: color.hsl
        case .lch: color.lch
        }
    }
}
