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

    /// Red, green, blue, alpha in 0...1 (gray expanded; extended values clipped); black for a
    /// colour of other than 2 to 4 components.
    public var rgba: [Double] {
        (0..<4).map { isRGBA ? min(max(unclippedChannel($0), 0), 1) : $0 == 3 ? 1 : 0 }
    }

    /// Red, green, blue and alpha as stored, gray expanded, not clipped (extended spaces go
    /// past 0...1); nil when there are fewer than 2 components.
    public var unclippedRGBA: [Double]? {
        components.count >= 2 ? (0..<4).map(unclippedChannel) : nil
    }

    /// Whether `rgba` reads the components (gray and alpha, RGB, RGB and alpha).
    private var isRGBA: Bool { (2...4).contains(components.count) }

    /// `rgb(r g b / a)` for sRGB and gray, `color(display-p3 r g b / a)` and `color(srgb ...)`
    /// for the wide and extended spaces, so browsers show what the catalog means.
    public var css: String { String(decoding: ascii(appendCSS), as: UTF8.self) }

    /// `#RRGGBBAA`.
    public var hex: String { String(decoding: ascii(appendHex), as: UTF8.self) }

    /// `css`'s ASCII appended to `bytes`, for writers that copy it into an answer as it is made
    /// (a palette writes hundreds each request: no array or string is made for a number).
    public func appendCSS(to bytes: inout [UInt8]) {
        func append(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
        func number(_ value: Double) {
            let rounded = (value * 10000).rounded() / 10000
            if abs(rounded) < 1e15 && rounded == rounded.rounded() {
                Self.appendDecimal(Int(rounded), to: &bytes)
            } else {
                bytes.append(contentsOf: String(rounded).utf8)
            }
        }
        guard components.count >= 2 else { return }
        // sRGB and gray as bytes; the wide and extended spaces as fractions (they go past 0...1).
        let isByteScale: Bool
        switch colorSpace {
        case .displayP3: append("color(display-p3 "); isByteScale = false
        case .extendedSRGB, .extendedGray: append("color(srgb "); isByteScale = false
        case .extendedLinearSRGB: append("color(srgb-linear "); isByteScale = false
        default: append("rgb("); isByteScale = true
        }
        for channel in 0..<3 {
            if channel > 0 { bytes.append(UInt8(ascii: " ")) }
            let value = unclippedChannel(channel)
            if isByteScale { Self.appendDecimal(Self.byte(value), to: &bytes) } else { number(value) }
        }
        append(" / ")
        number(unclippedChannel(3))
        bytes.append(UInt8(ascii: ")"))
    }

    /// `hex`'s ASCII appended to `bytes`.
    public func appendHex(to bytes: inout [UInt8]) {
        func digit(_ value: Int) -> UInt8 { UInt8(value < 10 ? 48 + value : 55 + value) }
        bytes.append(UInt8(ascii: "#"))
        for channel in 0..<4 {
            let byte = isRGBA ? Self.byte(unclippedChannel(channel)) : channel == 3 ? 255 : 0
            bytes.append(digit(byte >> 4))
            bytes.append(digit(byte & 15))
        }
    }

    /// Red, green, blue or alpha (0...3) as stored, gray expanded, for a colour of 2 or more
    /// components (`unclippedRGBA`'s, without an array).
    private func unclippedChannel(_ channel: Int) -> Double {
        switch components.count {
        case 2: channel == 3 ? components[1] : components[0]
        case 3: channel == 3 ? 1 : components[channel]
        default: components[channel]
        }
    }

    /// A channel in 0...1 (clipped) as a byte.
    private static func byte(_ channel: Double) -> Int {
        Int((min(max(channel, 0), 1) * 255).rounded())
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude, divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
    }

    private func ascii(_ write: (inout [UInt8]) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        write(&bytes)
        return bytes
    }
}
