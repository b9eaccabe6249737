import AssetCatalog
import JSON
import ThemeIndex

/// How a colour variant is shown to clients: components, `#RRGGBBAA` and a CSS value.
enum ColorRendering {
    static func json(_ variant: Variant) -> [(String, JSONValue)] {
        let value = ColorValue(colorSpaceID: colorSpaceID(variant.colorSpace), components: variant.components)
        var members: [(String, JSONValue)] = [
            ("colorSpace", .string(variant.colorSpace)),
            ("components", .array(variant.components.map(JSONValue.double))),
        ]
        if variant.colorSpace.hasPrefix("system:") {
            members.append(("systemColor", .string(String(variant.colorSpace.dropFirst(7)))))
        } else {
            members.append(("hex", .string(value.hex)))
            members.append(("css", .string(css(variant))))
        }
        return members
    }

    static func traits(_ traits: VariantTraits) -> JSONValue {
        .object([
            ("appearance", .string(traits.appearance.label)),
            ("idiom", .string(Idiom.name(traits.idiom))),
            ("gamut", .string(traits.gamut == 1 ? "p3" : "srgb")),
        ])
    }

    static func colorSpaceID(_ name: String) -> Int {
        ["generic": 0, "srgb": 1, "gray": 2, "display-p3": 3, "extended-srgb": 4, "extended-linear-srgb": 5, "extended-gray": 6][name] ?? 1
    }

    /// `rgb(r g b / a)` for sRGB and gray, `color(display-p3 r g b / a)` and `color(srgb ...)`
    /// for the wide and extended spaces, so browsers show what the catalog means.
    static func css(_ variant: Variant) -> String {
        let c = variant.components
        func number(_ value: Double) -> String {
            let rounded = (value * 10000).rounded() / 10000
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        let rgb: [Double]
        let alpha: Double
        if c.count == 2 { (rgb, alpha) = ([c[0], c[0], c[0]], c[1]) } else if c.count >= 4 { (rgb, alpha) = (Array(c[0..<3]), c[3]) } else { return "" }
        switch variant.colorSpace {
        case "display-p3": return "color(display-p3 \(rgb.map(number).joined(separator: " ")) / \(number(alpha)))"
        case "extended-srgb", "extended-gray": return "color(srgb \(rgb.map(number).joined(separator: " ")) / \(number(alpha)))"
        case "extended-linear-srgb": return "color(srgb-linear \(rgb.map(number).joined(separator: " ")) / \(number(alpha)))"
        default:
            let bytes = rgb.map { Int((min(max($0, 0), 1) * 255).rounded()) }
            return "rgb(\(bytes.map(String.init).joined(separator: " ")) / \(number(alpha)))"
        }
    }
}
