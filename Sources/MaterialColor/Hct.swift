/// A colour by hue and chroma (CAM16's) and tone (L*), material-color-utilities' `Hct`: made
/// from an sRGB colour, or solved for the nearest sRGB colour to a hue, chroma and tone.
public struct Hct: Sendable, Equatable {
    public let hue: Double
    public let chroma: Double
    public let tone: Double
    /// The sRGB colour as 0xAARRGGBB (always opaque).
    public let argb: UInt32

    public init(argb: UInt32) {
        let cam = Cam16(argb)
        (hue, chroma, tone, self.argb) = (cam.hue, cam.chroma, ColorMath.lstar(argb), argb)
    }

    public init(hue: Double, chroma: Double, tone: Double) {
        self.init(argb: HctSolver.solve(hue: hue, chroma: chroma, tone: tone))
    }

    /// "#RRGGBB".
    public var hex: String {
        let digits = String(argb & 0xFF_FFFF, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    static func isYellow(_ hue: Double) -> Bool { hue >= 105 && hue < 125 }
}

/// Tones of one hue and chroma (material-color-utilities' `TonalPalette`), each solved once.
final class TonalPalette {
    let hue: Double
    let chroma: Double
    let keyColor: Hct
    private var tones: [Double: UInt32] = [:]

    init(hct: Hct) { (hue, chroma, keyColor) = (hct.hue, hct.chroma, hct) }

    /// The palette whose key colour has this hue and chroma at the tone nearest 50 that reaches it.
    init(hue: Double, chroma: Double) {
        (self.hue, self.chroma) = (hue, chroma)
        var search = KeyColor(hue: hue, requestedChroma: chroma)
        keyColor = search.create()
    }

    func tone(_ tone: Double) -> UInt32 {
        if let known = tones[tone] { return known }
        let argb = tone == 99 && Hct.isYellow(hue) ? Self.average(self.tone(98), self.tone(100)) : Hct(hue: hue, chroma: chroma, tone: tone).argb
        tones[tone] = argb
        return argb
    }

    func hct(_ tone: Double) -> Hct { Hct(argb: self.tone(tone)) }

    private static func average(_ first: UInt32, _ second: UInt32) -> UInt32 {
        func mean(_ a: Int, _ b: Int) -> Int { Int(ColorMath.round(Double(a + b) / 2)) }
        return ColorMath.argb(red: mean(ColorMath.red(first), ColorMath.red(second)), green: mean(ColorMath.green(first), ColorMath.green(second)),
                              blue: mean(ColorMath.blue(first), ColorMath.blue(second)))
    }
}

/// A palette's key colour: the requested chroma at the tone nearest 50 that has it, found by a
/// binary search over whole tones of the chroma each tone can reach.
private struct KeyColor {
    let hue: Double
    let requestedChroma: Double
    private var maximumChroma: [Int: Double] = [:]

    init(hue: Double, requestedChroma: Double) { (self.hue, self.requestedChroma) = (hue, requestedChroma) }

    mutating func create() -> Hct {
        let (pivotTone, epsilon) = (50, 0.01)
        var (lowerTone, upperTone) = (0, 100)
        while lowerTone < upperTone {
            let midTone = (lowerTone + upperTone) / 2
            let isAscending = maxChroma(midTone) < maxChroma(midTone + 1)
            if maxChroma(midTone) >= requestedChroma - epsilon {
                if abs(lowerTone - pivotTone) < abs(upperTone - pivotTone) {
                    upperTone = midTone
                } else {
                    if lowerTone == midTone { return Hct(hue: hue, chroma: requestedChroma, tone: Double(lowerTone)) }
                    lowerTone = midTone
                }
            } else if isAscending {
                lowerTone = midTone + 1
            } else {
                upperTone = midTone
            }
        }
        return Hct(hue: hue, chroma: requestedChroma, tone: Double(lowerTone))
    }

    private mutating func maxChroma(_ tone: Int) -> Double {
        if let known = maximumChroma[tone] { return known }
        let chroma = Hct(hue: hue, chroma: 200, tone: Double(tone)).chroma
        maximumChroma[tone] = chroma
        return chroma
    }
}
