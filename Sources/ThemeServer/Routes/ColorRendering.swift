import JSON
import ThemeIndex
import ThemeVocabulary

/// How a colour variant is shown to clients: components, `#RRGGBBAA` and a CSS value.
enum ColorRendering {
    static func json(_ variant: Variant) -> [(String, JSONValue)] {
        guard let color = variant.color else { return [] }
        if let systemColor = variant.systemColor {
            return [
                ("colorSpace", .string("system:\(systemColor)")),
                ("components", .array(color.components.map(JSONValue.double))),
                ("systemColor", .string(systemColor)),
            ]
        }
        return [
            ("colorSpace", .string(color.colorSpace.name)),
            ("components", .array(color.components.map(JSONValue.double))),
            ("hex", .string(color.hex)),
            ("css", .string(css(color))),
        ]
    }

    static func traits(_ traits: VariantTraits) -> JSONValue {
        .object([
            ("appearance", .string(traits.appearance.label)),
            ("idiom", .string(traits.idiom.name)),
            ("gamut", .string(traits.gamut.name)),
        ])
    }

    /// `rgb(r g b / a)` for sRGB and gray, `color(display-p3 r g b / a)` and `color(srgb ...)`
    /// for the wide and extended spaces, so browsers show what the catalog means.
    static func css(_ color: ColorValue) -> String {
        let c = color.components
        func number(_ value: Double) -> String {
            let rounded = (value * 10000).rounded() / 10000
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        let rgb: [Double]
        let alpha: Double
        if c.count == 2 { (rgb, alpha) = ([c[0], c[0], c[0]], c[1]) } else if c.count >= 4 { (rgb, alpha) = (Array(c[0..<3]), c[3]) } else { return "" }
        switch color.colorSpace {
        case .displayP3: return "color(display-p3 \(rgb.map(number).joined(separator: " ")) / \(number(alpha)))"
        case .extendedSRGB, .extendedGray: return "color(srgb \(rgb.map(number).joined(separator: " ")) / \(number(alpha)))"
        case .extendedLinearSRGB: return "color(srgb-linear \(rgb.map(number).joined(separator: " ")) / \(number(alpha)))"
        default:
            let bytes = rgb.map { Int((min(max($0, 0), 1) * 255).rounded()) }
            return "rgb(\(bytes.map(String.init).joined(separator: " ")) / \(number(alpha)))"
        }
    }
}
