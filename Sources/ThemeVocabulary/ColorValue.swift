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
    public var css: String { String(decoding: ascii(appendCSS), as: UTF8.self) }

    /// `#RRGGBBAA`.
    public var hex: String { String(decoding: ascii(appendHex), as: UTF8.self) }

    /// `css`'s ASCII appended to `bytes`, for writers that copy it into an answer as it is made.
    public func appendCSS(to bytes: inout [UInt8]) {
        func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        func number(_ value: Double) {
            let rounded = (value * 10000).rounded() / 10000
            append(abs(rounded) < 1e15 && rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded))
        }
        guard let rgba = unclippedRGBA else { return }
        // sRGB and gray as bytes; the wide and extended spaces as fractions (they go past 0...1).
        let isByteScale: Bool
        switch colorSpace {
        case .displayP3: append("color(display-p3 "); isByteScale = false
        case .extendedSRGB, .extendedGray: append("color(srgb "); isByteScale = false
        case .extendedLinearSRGB: append("color(srgb-linear "); isByteScale = false
        default: append("rgb("); isByteScale = true
        }
        for (position, channel) in rgba[0..<3].enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: " ")) }
            if isByteScale { append(String(Int((min(max(channel, 0), 1) * 255).rounded()))) } else { number(channel) }
        }
        append(" / ")
        number(rgba[3])
        bytes.append(UInt8(ascii: ")"))
    }

    /// `hex`'s ASCII appended to `bytes`.
    public func appendHex(to bytes: inout [UInt8]) {
        let digits = Array("0123456789ABCDEF".utf8)
        bytes.append(UInt8(ascii: "#"))
        for channel in rgba {
            let byte = Int((channel * 255).rounded())
            bytes.append(digits[byte >> 4])
            bytes.append(digits[byte & 15])
        }
    }

    private func ascii(_ write: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        write(&bytes)
        return bytes
    }
}
