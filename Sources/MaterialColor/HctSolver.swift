import Foundation

/// The sRGB colour nearest a hue, chroma and tone (material-color-utilities' `HctSolver`): the
/// exact answer by Newton's method on J when it is in gamut, else the gamut's edge at that tone,
/// found by bisecting the critical planes of the cube of linear RGB along the tone's plane.
enum HctSolver {
    static let scaledDiscountFromLinrgb: [[Double]] = [
        [0.001200833568784504, 0.002389694492170889, 0.0002795742885861124],
        [0.0005891086651375999, 0.0029785502573438758, 0.0003270666104008398],
        [0.00010146692491640572, 0.0005364214359186694, 0.0032979401770712076],
    ]

    static let linrgbFromScaledDiscount: [[Double]] = [
        [1373.2198709594231, -1100.4251190754821, -7.278681089101213],
        [-271.815969077903, 559.6580465940733, -32.46047482791194],
        [1.9622899599665666, -57.173814538844006, 308.7233197812385],
    ]

    static let yFromLinrgb = (r: 0.2126, g: 0.7152, b: 0.0722)

    /// Linear light where each 8-bit component steps up: halfway between two codes.
    static let criticalPlanes: [Double] = (0..<255).map { ColorMath.linearized(fraction: (Double($0) + 0.5) / 255) }

    typealias Point = (Double, Double, Double)

    static func solve(hue hueDegrees: Double, chroma: Double, tone lstar: Double) -> UInt32 {
        if chroma < 0.0001 || lstar < 0.0001 || lstar > 99.9999 { return ColorMath.argb(lstar: lstar) }
        let hueRadians = ColorMath.sanitizeDegrees(hueDegrees) / 180 * Double.pi
        let y = ColorMath.yFromLstar(lstar)
        if let exact = resultByJ(hueRadians: hueRadians, chroma: chroma, y: y) { return exact }
        return ColorMath.argb(linear: bisectToLimit(y: y, targetHue: hueRadians))
    }

    private static func resultByJ(hueRadians: Double, chroma: Double, y: Double) -> UInt32? {
        var j = y.squareRoot() * 11
        let vc = ViewingConditions.standard
        let tInnerCoefficient = 1 / pow(1.64 - pow(0.29, vc.n), 0.73)
        let eHue = 0.25 * (cos(hueRadians + 2) + 3.8)
        let p1 = eHue * (50000 / 13) * vc.nc * vc.ncb
        let (hSin, hCos) = (sin(hueRadians), cos(hueRadians))
        for round in 0..<5 {
            let jNormalized = j / 100
            let alpha = chroma != 0 && j != 0 ? chroma / jNormalized.squareRoot() : 0
            let t = pow(alpha * tInnerCoefficient, 1 / 0.9)
            let ac = vc.aw * pow(jNormalized, 1 / vc.c / vc.z)
            let p2 = ac / vc.nbb
            let gamma = 23 * (p2 + 0.305) * t / (23 * p1 + 11 * t * hCos + 108 * t * hSin)
            let (a, b) = (gamma * hCos, gamma * hSin)
            let rA = (460 * p2 + 451 * a + 288 * b) / 1403
            let gA = (460 * p2 - 891 * a - 261 * b) / 1403
            let bA = (460 * p2 - 220 * a - 6300 * b) / 1403
            let linrgb = ColorMath.multiply((inverseChromaticAdaptation(rA), inverseChromaticAdaptation(gA), inverseChromaticAdaptation(bA)),
                                            linrgbFromScaledDiscount)
            if linrgb.0 < 0 || linrgb.1 < 0 || linrgb.2 < 0 { return nil }
            let fnj = yFromLinrgb.r * linrgb.0 + yFromLinrgb.g * linrgb.1 + yFromLinrgb.b * linrgb.2
            if fnj <= 0 { return nil }
            if round == 4 || abs(fnj - y) < 0.002 {
                if linrgb.0 > 100.01 || linrgb.1 > 100.01 || linrgb.2 > 100.01 { return nil }
                return ColorMath.argb(linear: linrgb)
            }
            j = j - (fnj - y) * j / (2 * fnj)
        }
        return nil
    }

    private static func inverseChromaticAdaptation(_ adapted: Double) -> Double {
        let adaptedAbs = abs(adapted)
        let base = max(0, 27.13 * adaptedAbs / (400 - adaptedAbs))
        return ColorMath.signum(adapted) * pow(base, 1 / 0.42)
    }

    private static func chromaticAdaptation(_ component: Double) -> Double {
        let af = pow(abs(component), 0.42)
        return ColorMath.signum(component) * 400 * af / (af + 27.13)
    }

    private static func hue(of linrgb: Point) -> Double {
        let scaled = ColorMath.multiply(linrgb, scaledDiscountFromLinrgb)
        let (rA, gA, bA) = (chromaticAdaptation(scaled.0), chromaticAdaptation(scaled.1), chromaticAdaptation(scaled.2))
        return atan2((rA + gA - 2 * bA) / 9, (11 * rA + -12 * gA + bA) / 11)
    }

    private static func sanitizeRadians(_ angle: Double) -> Double {
        (angle + Double.pi * 8).truncatingRemainder(dividingBy: Double.pi * 2)
    }

    private static func areInCyclicOrder(_ a: Double, _ b: Double, _ c: Double) -> Bool {
        sanitizeRadians(b - a) < sanitizeRadians(c - a)
    }

    private static func component(_ point: Point, _ axis: Int) -> Double { axis == 0 ? point.0 : axis == 1 ? point.1 : point.2 }

    private static func setCoordinate(_ source: Point, _ coordinate: Double, _ target: Point, axis: Int) -> Point {
        let t = (coordinate - component(source, axis)) / (component(target, axis) - component(source, axis))
        return (source.0 + (target.0 - source.0) * t, source.1 + (target.1 - source.1) * t, source.2 + (target.2 - source.2) * t)
    }

    /// The nth of the 12 edges of the RGB cube met by the plane of luminance `y`, or nil.
    private static func nthVertex(y: Double, _ n: Int) -> Point? {
        let (kr, kg, kb) = yFromLinrgb
        let coordA = n % 4 <= 1 ? 0.0 : 100.0
        let coordB = n % 2 == 0 ? 0.0 : 100.0
        let point: Point
        if n < 4 {
            point = ((y - coordA * kg - coordB * kb) / kr, coordA, coordB)
        } else if n < 8 {
            point = (coordB, (y - coordB * kr - coordA * kb) / kg, coordA)
        } else {
            point = (coordA, coordB, (y - coordA * kr - coordB * kg) / kb)
        }
        let free = n < 4 ? point.0 : n < 8 ? point.1 : point.2
        return (0...100).contains(free) ? point : nil
    }

    private static func bisectToSegment(y: Double, targetHue: Double) -> (Point, Point) {
        var left: Point = (-1, -1, -1), right: Point = (-1, -1, -1)
        var (leftHue, rightHue) = (0.0, 0.0)
        var (initialized, uncut) = (false, true)
        for n in 0..<12 {
            guard let mid = nthVertex(y: y, n) else { continue }
            let midHue = hue(of: mid)
            if !initialized {
                (left, right, leftHue, rightHue, initialized) = (mid, mid, midHue, midHue, true)
                continue
            }
            if uncut || areInCyclicOrder(leftHue, midHue, rightHue) {
                uncut = false
                if areInCyclicOrder(leftHue, targetHue, midHue) {
                    (right, rightHue) = (mid, midHue)
                } else {
                    (left, leftHue) = (mid, midHue)
                }
            }
        }
        return (left, right)
    }

    private static func bisectToLimit(y: Double, targetHue: Double) -> Point {
        var (left, right) = bisectToSegment(y: y, targetHue: targetHue)
        var leftHue = hue(of: left)
        for axis in 0..<3 where component(left, axis) != component(right, axis) {
            var lPlane: Double, rPlane: Double
            if component(left, axis) < component(right, axis) {
                lPlane = floor(trueDelinearized(component(left, axis)) - 0.5)
                rPlane = ceil(trueDelinearized(component(right, axis)) - 0.5)
            } else {
                lPlane = ceil(trueDelinearized(component(left, axis)) - 0.5)
                rPlane = floor(trueDelinearized(component(right, axis)) - 0.5)
            }
            for _ in 0..<8 {
                if abs(rPlane - lPlane) <= 1 { break }
                let mPlane = floor((lPlane + rPlane) / 2)
                guard let index = Int(exactly: mPlane), criticalPlanes.indices.contains(index) else { break }
                let mid = setCoordinate(left, criticalPlanes[index], right, axis: axis)
                let midHue = hue(of: mid)
                if areInCyclicOrder(leftHue, targetHue, midHue) {
                    (right, rPlane) = (mid, mPlane)
                } else {
                    (left, leftHue, lPlane) = (mid, midHue, mPlane)
                }
            }
        }
        return ((left.0 + right.0) / 2, (left.1 + right.1) / 2, (left.2 + right.2) / 2)
    }

    /// Linear light (0...100) as an sRGB component on 0...255, unrounded.
    private static func trueDelinearized(_ component: Double) -> Double {
        let normalized = component / 100
        let value = normalized <= 0.0031308 ? normalized * 12.92 : 1.055 * pow(normalized, 1 / 2.4) - 0.055
        return value * 255
    }
}
