import Foundation

/// A colour in any space of the Design Tokens Color module (the CSS Color 4 spaces), and the
/// conversions CSS Color 4 gives for it: to sRGB and Display P3, gamut mapped as CSS does
/// (binary search on OKLCH chroma, keeping the clipped colour within a JND of the original).
public struct CSSColor: Sendable, Equatable {
    public enum Space: String, Sendable, CaseIterable {
        case srgb, srgbLinear = "srgb-linear", hsl, hwb, lab, lch, oklab, oklch, displayP3 = "display-p3"
        case a98RGB = "a98-rgb", prophotoRGB = "prophoto-rgb", rec2020, xyzD65 = "xyz-d65", xyzD50 = "xyz-d50"
    }

    public var space: Space
    /// Three components in the space's own ranges (hsl and hwb in degrees and 0-100); nil is
    /// `none`, which counts as 0.
    public var components: [Double?]
    public var alpha: Double

    public init(space: Space, components: [Double?], alpha: Double = 1) {
        (self.space, self.components, self.alpha) = (space, components, alpha)
    }

    private var values: [Double] { (0..<3).map { components.indices.contains($0) ? components[$0] ?? 0 : 0 } }

    // MARK: - To XYZ D65

    /// The colour in CIE XYZ with the D65 white (the hub every conversion goes through).
    public var xyzD65: [Double] {
        let c = values
        switch space {
        case .srgb: return multiply(Self.linearSRGBToXYZ, c.map(Self.sRGBToLinear))
        case .srgbLinear: return multiply(Self.linearSRGBToXYZ, c)
        case .displayP3: return multiply(Self.linearP3ToXYZ, c.map(Self.sRGBToLinear))
        case .hsl: return multiply(Self.linearSRGBToXYZ, Self.hslToSRGB(c).map(Self.sRGBToLinear))
        case .hwb: return multiply(Self.linearSRGBToXYZ, Self.hwbToSRGB(c).map(Self.sRGBToLinear))
        case .a98RGB: return multiply(Self.linearA98ToXYZ, c.map { copysign(pow(abs($0), 563.0 / 256), $0) })
        case .prophotoRGB:
            let linear = c.map { abs($0) <= 16.0 / 512 ? $0 / 16 : copysign(pow(abs($0), 1.8), $0) }
            return multiply(Self.d50ToD65, multiply(Self.linearProPhotoToXYZD50, linear))
        case .rec2020:
            // CSS Color 4 (since 2024): the BT.1886 display transfer, a pure 2.4 gamma.
            return multiply(Self.linearRec2020ToXYZ, c.map { copysign(pow(abs($0), 2.4), $0) })
        case .xyzD65: return c
        case .xyzD50: return multiply(Self.d50ToD65, c)
        case .lab: return multiply(Self.d50ToD65, Self.labToXYZD50(c))
        case .lch:
            let radians = c[2] * .pi / 180
            return multiply(Self.d50ToD65, Self.labToXYZD50([c[0], c[1] * cos(radians), c[1] * sin(radians)]))
        case .oklab: return Self.oklabToXYZ(c)
        case .oklch:
            let radians = c[2] * .pi / 180
            return Self.oklabToXYZ([c[0], c[1] * cos(radians), c[1] * sin(radians)])
        }
    }

    // MARK: - To sRGB and Display P3

    /// The colour as an sRGB `ColorValue`, gamut mapped into sRGB.
    public var sRGB: ColorValue { mapped(into: .sRGB) }
    /// The colour as a Display P3 `ColorValue`, gamut mapped into P3.
    public var displayP3: ColorValue { mapped(into: .displayP3) }

    /// An sRGB or Display P3 colour as a `ColorValue` with the components as written (`none` as
    /// 0); nil for the other spaces, which are converted.
    public var asWritten: ColorValue? {
        let space: ColorSpace
        switch self.space {
        case .srgb: space = .sRGB
        case .displayP3: space = .displayP3
        default: return nil
        }
        return ColorValue(colorSpace: space, components: values + [min(max(alpha, 0), 1)])
    }

    /// The colour in CIE LCH (D50, as CSS `lch()`): lightness 0-100, chroma, hue in degrees.
    public var lch: [Double] { Self.xyzD50ToLCH(multiply(Self.d65ToD50, xyzD65)) }

    /// The colour in HSL (hue in degrees, saturation and lightness 0-100), from its sRGB value.
    public var hsl: [Double] { Self.sRGBToHSL(Array(sRGB.components.prefix(3))) }

    /// Whether the colour lies in sRGB (within a rounding's margin).
    public var isInSRGB: Bool { Self.inGamut(Self.encoded(xyzD65, into: .sRGB)) }

    private func mapped(into destination: ColorSpace) -> ColorValue {
        // A colour already in the destination's own space keeps its components as written.
        let own = (space == .srgb && destination == .sRGB) || (space == .displayP3 && destination == .displayP3)
        let rgb = own && Self.inGamut(values) ? values.map { min(max($0, 0), 1) } : Self.gamutMapped(xyzD65, into: destination)
        return ColorValue(colorSpace: destination, components: rgb + [min(max(alpha, 0), 1)])
    }

    /// Gamma-encoded RGB of a D65 XYZ colour in sRGB or Display P3 (not clipped).
    static func encoded(_ xyz: [Double], into destination: ColorSpace) -> [Double] {
        let linear = multiply(destination == .displayP3 ? xyzToLinearP3 : xyzToLinearSRGB, xyz)
        return linear.map(linearToSRGB)
    }

    static func inGamut(_ rgb: [Double]) -> Bool { rgb.allSatisfy { $0 >= -0.000_075 && $0 <= 1.000_075 } }

    /// CSS Color 4, 13.2: the gamut mapping algorithm.
    static func gamutMapped(_ xyz: [Double], into destination: ColorSpace) -> [Double] {
        let direct = encoded(xyz, into: destination)
        if inGamut(direct) { return direct.map { min(max($0, 0), 1) } }
        let lab = xyzToOKLab(xyz)
        var lch = [lab[0], hypot(lab[1], lab[2]), atan2(lab[2], lab[1])]
        if lch[0] >= 1 { return [1, 1, 1] }
        if lch[0] <= 0 { return [0, 0, 0] }
        func rgb(_ lch: [Double]) -> [Double] { encoded(oklabToXYZ([lch[0], lch[1] * cos(lch[2]), lch[1] * sin(lch[2])]), into: destination) }
        func clip(_ rgb: [Double]) -> [Double] { rgb.map { min(max($0, 0), 1) } }
        func deltaEOK(_ clipped: [Double], _ lch: [Double]) -> Double {
            let linear = multiply(destination == .displayP3 ? linearP3ToXYZ : linearSRGBToXYZ, clipped.map(sRGBToLinear))
            let a = xyzToOKLab(linear)
            let b = [lch[0], lch[1] * cos(lch[2]), lch[1] * sin(lch[2])]
            return sqrt(zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
        }
        let (jnd, epsilon) = (0.02, 0.0001)
        var clipped = clip(rgb(lch))
        if deltaEOK(clipped, lch) < jnd { return clipped }
        var (low, high, lowInGamut) = (0.0, lch[1], true)
        while high - low > epsilon {
            lch[1] = (low + high) / 2
            let candidate = rgb(lch)
            if lowInGamut && inGamut(candidate) {
                low = lch[1]
                continue
            }
            clipped = clip(candidate)
            let error = deltaEOK(clipped, lch)
            if error < jnd {
                if jnd - error < epsilon { return clipped }
                lowInGamut = false
                low = lch[1]
            } else {
                high = lch[1]
            }
        }
        return clipped
    }

    // MARK: - Transfer functions and models

    static func sRGBToLinear(_ value: Double) -> Double {
        abs(value) <= 0.04045 ? value / 12.92 : copysign(pow((abs(value) + 0.055) / 1.055, 2.4), value)
    }

    static func linearToSRGB(_ value: Double) -> Double {
        abs(value) > 0.003_130_8 ? copysign(1.055 * pow(abs(value), 1 / 2.4) - 0.055, value) : 12.92 * value
    }

    /// Hue in degrees, saturation and lightness in 0-100 (the Color module's ranges).
    static func hslToSRGB(_ c: [Double]) -> [Double] {
        let hue = c[0].truncatingRemainder(dividingBy: 360) + (c[0] < 0 ? 360 : 0)
        let (saturation, lightness) = (c[1] / 100, c[2] / 100)
        return [0.0, 8, 4].map { n in
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
    }

    /// The inverse of `hslToSRGB`.
    static func sRGBToHSL(_ rgb: [Double]) -> [Double] {
        let (high, low) = (rgb.max() ?? 0, rgb.min() ?? 0)
        let lightness = (high + low) / 2
        let chroma = high - low
        guard chroma > 0 else { return [0, 0, lightness * 100] }
        let saturation = lightness == 0 || lightness == 1 ? 0 : (high - lightness) / min(lightness, 1 - lightness)
        let hue: Double = switch high {
        case rgb[0]: (rgb[1] - rgb[2]) / chroma + (rgb[1] < rgb[2] ? 6 : 0)
        case rgb[1]: (rgb[2] - rgb[0]) / chroma + 2
        default: (rgb[0] - rgb[1]) / chroma + 4
        }
        return [hue * 60, saturation * 100, lightness * 100]
    }

    /// Hue in degrees, whiteness and blackness in 0-100.
    static func hwbToSRGB(_ c: [Double]) -> [Double] {
        let (white, black) = (c[1] / 100, c[2] / 100)
        if white + black >= 1 { return Array(repeating: white / (white + black), count: 3) }
        return hslToSRGB([c[0], 100, 50]).map { $0 * (1 - white - black) + white }
    }

    static func labToXYZD50(_ lab: [Double]) -> [Double] {
        let (kappa, epsilon) = (24389.0 / 27, 216.0 / 24389)
        let f1 = (lab[0] + 16) / 116, f0 = lab[1] / 500 + f1, f2 = f1 - lab[2] / 200
        let x = pow(f0, 3) > epsilon ? pow(f0, 3) : (116 * f0 - 16) / kappa
        let y = lab[0] > kappa * epsilon ? pow((lab[0] + 16) / 116, 3) : lab[0] / kappa
        let z = pow(f2, 3) > epsilon ? pow(f2, 3) : (116 * f2 - 16) / kappa
        return zip([x, y, z], whiteD50).map(*)
    }

    /// The inverse of `labToXYZD50`, with a and b as chroma and hue (degrees, 0 to less than 360).
    static func xyzD50ToLCH(_ xyz: [Double]) -> [Double] {
        let (kappa, epsilon) = (24389.0 / 27, 216.0 / 24389)
        let f = zip(xyz, whiteD50).map { value, white in
            let t = value / white
            return t > epsilon ? cbrt(t) : (kappa * t + 16) / 116
        }
        let (a, b) = (500 * (f[0] - f[1]), 200 * (f[1] - f[2]))
        let hue = atan2(b, a) * 180 / .pi
        return [116 * f[1] - 16, hypot(a, b), hue < 0 ? hue + 360 : hue]
    }

    static func oklabToXYZ(_ lab: [Double]) -> [Double] {
        multiply(lmsToXYZ, multiply(oklabToLMS, lab).map { $0 * $0 * $0 })
    }

    static func xyzToOKLab(_ xyz: [Double]) -> [Double] {
        multiply(lmsToOKLab, multiply(xyzToLMS, xyz).map(cbrt))
    }

    // MARK: - Matrices (CSS Color 4, sample code)

    static let whiteD50 = [0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585]
    static let linearSRGBToXYZ = [[0.41239079926595934, 0.357584339383878, 0.1804807884018343],
                                  [0.21263900587151027, 0.715168678767756, 0.07219231536073371],
                                  [0.01933081871559182, 0.11919477979462598, 0.9505321522496607]]
    static let xyzToLinearSRGB = [[3.2409699419045226, -1.537383177570094, -0.4986107602930034],
                                  [-0.9692436362808796, 1.8759675015077202, 0.04155505740717559],
                                  [0.05563007969699366, -0.20397695888897652, 1.0569715142428786]]
    static let linearP3ToXYZ = [[0.4865709486482162, 0.26566769316909306, 0.1982172852343625],
                                [0.2289745640697488, 0.6917385218365064, 0.079286914093745],
                                [0.0, 0.04511338185890264, 1.043944368900976]]
    static let xyzToLinearP3 = [[2.493496911941425, -0.9313836179191239, -0.40271078445071684],
                                [-0.8294889695615747, 1.7626640603183463, 0.023624685841943577],
                                [0.03584583024378447, -0.07617238926804182, 0.9568845240076872]]
    static let linearA98ToXYZ = [[0.5766690429101305, 0.1855582379065463, 0.1882286462349947],
                                 [0.29734497525053605, 0.6273635662554661, 0.07529145849399788],
                                 [0.02703136138641234, 0.07068885253582723, 0.9913375368376388]]
    static let linearProPhotoToXYZD50 = [[0.7977604896723027, 0.13518583717574031, 0.0313493495815248],
                                         [0.2880711282292934, 0.7118432178101014, 0.00008565396060525902],
                                         [0.0, 0.0, 0.8251046025104601]]
    static let linearRec2020ToXYZ = [[0.6369580483012914, 0.14461690358620832, 0.1688809751641721],
                                     [0.2627002120112671, 0.6779980715188708, 0.05930171646986196],
                                     [0.0, 0.028072693049087428, 1.060985057710791]]
    /// Bradford chromatic adaptation, D65 to D50, and back.
    static let d65ToD50 = [[1.0479297925449969, 0.022946870601609652, -0.05019226628920524],
                           [0.02962780877005599, 0.9904344267538799, -0.017073799063418826],
                           [-0.009243040646204504, 0.015055191490298152, 0.7518742814281371]]
    static let d50ToD65 = [[0.955473421488075, -0.02309845494876471, 0.06325924320057072],
                           [-0.0283697093338637, 1.0099953980813041, 0.021041441191917323],
                           [0.012314014864481998, -0.020507649298898964, 1.330365926242124]]
    static let xyzToLMS = [[0.8190224379967030, 0.3619062600528904, -0.1288737815209879],
                           [0.0329836539323885, 0.9292868615863434, 0.0361446663506424],
                           [0.0481771893596242, 0.2642395317527308, 0.6335478284694309]]
    static let lmsToOKLab = [[0.2104542683093140, 0.7936177747023054, -0.0040720430116193],
                             [1.9779985324311684, -2.4285922420485799, 0.4505937096174110],
                             [0.0259040424655478, 0.7827717124575296, -0.8086757549230774]]
    static let oklabToLMS = [[1.0, 0.3963377773761749, 0.2158037573099136],
                             [1.0, -0.1055613458156586, -0.0638541728258133],
                             [1.0, -0.0894841775298119, -1.2914855480194092]]
    static let lmsToXYZ = [[1.2268798758459243, -0.5578149944602171, 0.2813910456659647],
                           [-0.0405757452148008, 1.1122868032803170, -0.0717110580655164],
                           [-0.0763729366746601, -0.4214933324022432, 1.5869240198367816]]
}

private func multiply(_ matrix: [[Double]], _ vector: [Double]) -> [Double] {
    matrix.map { row in zip(row, vector).map(*).reduce(0, +) }
}
