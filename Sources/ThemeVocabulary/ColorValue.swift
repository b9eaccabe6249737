/// A colour as stored: a colour space and straight (not premultiplied) components.
public struct ColorValue: Sendable, Hashable {
    public var colorSpace: ColorSpace
    public var components: [Double]

    /// A component that is not a finite number (a crafted file can hold NaN or infinity) is
    /// kept as 0, so that every form of the value (JSON, hex, CSS, exports) stays valid.
    public init(colorSpace: ColorSpace, components: [Double]) {
        self.colorSpace = colorSpace
        self.components = components.map { $0.isFinite ? $0 : 0 }
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

    /// Red, green, blue and alpha as stored, gray expanded, not clipped (extended spaces go
    /// past 0...1); nil when there are fewer than 2 components.
    public var unclippedRGBA: [Double]? {
        let c = components
        if c.count == 2 { return [c[0], c[0], c[0], c[1]] }
        if c.count == 3 { return c + [1] }
        if c.count >= 4 { return Array(c[0..<4]) }
        return nil
    }

    /// `rgb(r g b / a)` for sRGB and gray, `color(display-p3 r g b / a)` and `color(srgb ...)`
    /// for the wide and extended spaces, so browsers show what the catalog means.
    public var css: String {
        func number(_ value: Double) -> String {
            let rounded = (value * 10000).rounded() / 10000
            return abs(rounded) < 1e15 && rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        guard let rgba = unclippedRGBA else { return "" }
        let rgb = rgba[0..<3], alpha = rgba[3]
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
