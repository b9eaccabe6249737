import Foundation
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
        case .srgb: return Array(color.sRGB.components.prefix(3))
        case .p3: return Array(color.displayP3.components.prefix(3))
        case .hsl: return hsl(Array(color.sRGB.components.prefix(3)))
        case .lch:
            let xyz = color.xyzD65
            let d50 = d65ToD50.map { row in zip(row, xyz).map(*).reduce(0, +) }
            let white = [0.3457 / 0.3585, 1, (1 - 0.3457 - 0.3585) / 0.3585]
            let (epsilon, kappa) = (216.0 / 24389, 24389.0 / 27)
            let f = zip(d50, white).map { value, reference -> Double in
                let t = value / reference
                return t > epsilon ? cbrt(t) : (kappa * t + 16) / 116
            }
            let (l, a, b) = (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))
            var hue = atan2(b, a) * 180 / .pi
            if hue < 0 { hue += 360 }
            return [l, hypot(a, b), hue]
        }
    }

    /// CSS Color 4's Bradford adaptation from D65 to D50.
    static let d65ToD50: [[Double]] = [
        [1.0479297925449969, 0.022946870601609652, -0.05019226628920524],
        [0.02962780877005599, 0.9904344267538799, -0.017073799063418826],
        [-0.009243040646204504, 0.015055191490298152, 0.7518742814281371],
    ]

    static func hsl(_ rgb: [Double]) -> [Double] {
        let (high, low) = (rgb.max() ?? 0, rgb.min() ?? 0)
        let lightness = (high + low) / 2
        let chroma = high - low
        guard chroma > 0 else { return [0, 0, lightness * 100] }
        let saturation = lightness == 0 || lightness == 1 ? 0 : (high - lightness) / min(lightness, 1 - lightness)
        var hue: Double
        switch high {
        case rgb[0]: hue = (rgb[1] - rgb[2]) / chroma + (rgb[1] < rgb[2] ? 6 : 0)
        case rgb[1]: hue = (rgb[2] - rgb[0]) / chroma + 2
        default: hue = (rgb[0] - rgb[1]) / chroma + 4
        }
        hue *= 60
        return [hue, saturation * 100, lightness * 100]
    }
}
