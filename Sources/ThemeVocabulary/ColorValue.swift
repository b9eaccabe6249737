/// A colour as stored: a colour space and straight (not premultiplied) components.
public struct ColorValue: Sendable, Hashable {
    public var colorSpace: ColorSpace
    public var components: [Double]

    public init(colorSpace: ColorSpace, components: [Double]) {
        self.colorSpace = colorSpace
        self.components = components
    }

    /// Red, green, blue, alpha in 0...1 (gray expanded; extended values clipped).
    public var rgba: [Double] {
        let clipped = components.map { min(max($0, 0), 1) }
        switch clipped.count {
        case 2: return [clipped[0], clipped[0], clipped[0], clipped[1]]
        case 4: return clipped
        case 3: return clipped + [1]
        default: return [0, 0, 0, 1]
        }
    }

    /// `rgb(r g b / a)` for sRGB and gray, `color(display-p3 r g b / a)` and `color(srgb ...)`
    /// for the wide and extended spaces, so browsers show what the catalog means.
    public var css: String {
        let c = components
        func number(_ value: Double) -> String {
            let rounded = (value * 10000).rounded() / 10000
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        let rgb: [Double]
        let alpha: Double
        if c.count == 2 { (rgb, alpha) = ([c[0], c[0], c[0]], c[1]) } else if c.count >= 4 { (rgb, alpha) = (Array(c[0..<3]), c[3]) } else { return "" }
        switch colorSpace {
        case .displayP3: return "color(display-p3 \(rgb.map(number).joined(separator: " ")) / \(number(alpha)))"
        case .extendedSRGB, .extendedGray: return "color(srgb \(rgb.map(number).joined(separator: " ")) / \(number(alpha)))"
        case .extendedLinearSRGB: return "color(srgb-linear \(rgb.map(number).joined(separator: " ")) / \(number(alpha)))"
        default:
            let bytes = rgb.map { Int((min(max($0, 0), 1) * 255).rounded()) }
            return "rgb(\(bytes.map(String.init).joined(separator: " ")) / \(number(alpha)))"
        }
    }

    /// `#RRGGBBAA`.
    public var hex: String {
        "#" + rgba.map { channel in
            let byte = UInt8((channel * 255).rounded())
            let digits = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }
}
