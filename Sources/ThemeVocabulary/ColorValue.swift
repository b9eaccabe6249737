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

    /// `#RRGGBBAA`.
    public var hex: String {
        "#" + rgba.map { channel in
            let byte = UInt8((channel * 255).rounded())
            let digits = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }
}
