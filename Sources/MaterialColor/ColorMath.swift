import Foundation

/// The conversions material-color-utilities builds on (its `ColorUtils` and `MathUtils`): 8-bit
/// sRGB as ARGB, linear RGB scaled to 0...100, XYZ under D65, L*a*b* and L* (the "tone").
///
/// Halves are rounded to even where the reference (PyPI `materialyoucolor`, which the tests
/// compare every role with, byte for byte) rounds with Python's `round`.
enum ColorMath {
    static let whitePointD65 = (x: 95.047, y: 100.0, z: 108.883)

    static let srgbToXYZ: [[Double]] = [
        [0.41233895, 0.35762064, 0.18051042],
        [0.2126, 0.7152, 0.0722],
        [0.01932141, 0.11916382, 0.95034478],
    ]

    static func argb(red: Int, green: Int, blue: Int) -> UInt32 {
        0xFF00_0000 | UInt32(red & 255) << 16 | UInt32(green & 255) << 8 | UInt32(blue & 255)
    }

    static func red(_ argb: UInt32) -> Int { Int(argb >> 16 & 255) }
    static func green(_ argb: UInt32) -> Int { Int(argb >> 8 & 255) }
    static func blue(_ argb: UInt32) -> Int { Int(argb & 255) }

    /// An 8-bit component as linear light, 0...100.
    static func linearized(_ component: Int) -> Double { linearized(fraction: Double(component) / 255) }

    /// A component on 0...1 as linear light, 0...100.
    static func linearized(fraction normalized: Double) -> Double {
        normalized <= 0.040449936 ? normalized / 12.92 * 100 : pow((normalized + 0.055) / 1.055, 2.4) * 100
    }

    /// Linear light (0...100) as an 8-bit component, clamped.
    static func delinearized(_ component: Double) -> Int {
        let normalized = component / 100
        let value = normalized <= 0.0031308 ? normalized * 12.92 : 1.055 * pow(normalized, 1 / 2.4) - 0.055
        return min(255, max(0, Int((value * 255).rounded(.toNearestOrEven))))
    }

    static func argb(linear: (Double, Double, Double)) -> UInt32 {
        argb(red: delinearized(linear.0), green: delinearized(linear.1), blue: delinearized(linear.2))
    }

    static func xyz(_ argb: UInt32) -> (x: Double, y: Double, z: Double) {
        let (r, g, b) = (linearized(red(argb)), linearized(green(argb)), linearized(blue(argb)))
        let m = srgbToXYZ
        return (r * m[0][0] + g * m[0][1] + b * m[0][2], r * m[1][0] + g * m[1][1] + b * m[1][2], r * m[2][0] + g * m[2][1] + b * m[2][2])
    }

    static func lab(_ argb: UInt32) -> (l: Double, a: Double, b: Double) {
        let (x, y, z) = xyz(argb)
        let (fx, fy, fz) = (labF(x / whitePointD65.x), labF(y / whitePointD65.y), labF(z / whitePointD65.z))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// The grey of a tone.
    static func argb(lstar: Double) -> UInt32 {
        let component = delinearized(yFromLstar(lstar))
        return argb(red: component, green: component, blue: component)
    }

    static func lstar(_ argb: UInt32) -> Double { 116 * labF(xyz(argb).y / 100) - 16 }
    static func yFromLstar(_ lstar: Double) -> Double { 100 * labInvF((lstar + 16) / 116) }
    static func lstarFromY(_ y: Double) -> Double { labF(y / 100) * 116 - 16 }

    static func labF(_ t: Double) -> Double {
        let (e, kappa) = (216.0 / 24389.0, 24389.0 / 27.0)
        return t > e ? pow(t, 1.0 / 3.0) : (kappa * t + 16) / 116
    }

    static func labInvF(_ ft: Double) -> Double {
        let (e, kappa) = (216.0 / 24389.0, 24389.0 / 27.0)
        let ft3 = ft * ft * ft
        return ft3 > e ? ft3 : (116 * ft - 16) / kappa
    }

    // MARK: Angles and numbers

    static func signum(_ number: Double) -> Double { number < 0 ? -1 : number == 0 ? 0 : 1 }
    static func lerp(_ start: Double, _ stop: Double, _ amount: Double) -> Double { (1 - amount) * start + amount * stop }
    static func clamp(_ low: Double, _ high: Double, _ value: Double) -> Double { min(high, max(low, value)) }

    /// Degrees in 0..<360 (the remainder taken as Python's `%` takes it: towards negative infinity).
    static func sanitizeDegrees(_ degrees: Double) -> Double {
        let remainder = degrees.truncatingRemainder(dividingBy: 360)
        return remainder < 0 ? remainder + 360 : remainder
    }

    static func sanitizeDegrees(_ degrees: Int) -> Int {
        let remainder = degrees % 360
        return remainder < 0 ? remainder + 360 : remainder
    }

    static func multiply(_ row: (Double, Double, Double), _ matrix: [[Double]]) -> (Double, Double, Double) {
        (row.0 * matrix[0][0] + row.1 * matrix[0][1] + row.2 * matrix[0][2],
         row.0 * matrix[1][0] + row.1 * matrix[1][1] + row.2 * matrix[1][2],
         row.0 * matrix[2][0] + row.1 * matrix[2][1] + row.2 * matrix[2][2])
    }

    /// Python's `round`: halves to even.
    static func round(_ value: Double) -> Double { value.rounded(.toNearestOrEven) }
}
