import Foundation

/// The viewing conditions material-color-utilities assumes (its `ViewingConditions.DEFAULT`):
/// D65 white, an adapting luminance of 200/π times the Y of L* 50, a background of L* 50, an
/// average surround, the illuminant not discounted.
struct ViewingConditions: Sendable {
    let n, aw, nbb, ncb, c, nc, fl, fLRoot, z: Double
    let rgbD: (Double, Double, Double)

    static let standard = ViewingConditions()

    private init() {
        let white = ColorMath.whitePointD65
        let adaptingLuminance = (200 / Double.pi) * ColorMath.yFromLstar(50) / 100
        let (backgroundLstar, surround) = (50.0, 2.0)
        let rW = white.x * 0.401288 + white.y * 0.650173 + white.z * -0.051461
        let gW = white.x * -0.250268 + white.y * 1.204414 + white.z * 0.045854
        let bW = white.x * -0.002079 + white.y * 0.048952 + white.z * 0.953127
        // An average surround (f at least 0.9): c between 0.59 and 0.69.
        let f = 0.8 + surround / 10
        c = ColorMath.lerp(0.59, 0.69, (f - 0.9) * 10)
        let d = ColorMath.clamp(0, 1, f * (1 - (1 / 3.6) * exp((-adaptingLuminance - 42) / 92)))
        nc = f
        rgbD = (d * (100 / rW) + 1 - d, d * (100 / gW) + 1 - d, d * (100 / bW) + 1 - d)
        let k = 1 / (5 * adaptingLuminance + 1)
        let k4 = k * k * k * k
        let k4F = 1 - k4
        fl = k4 * adaptingLuminance + 0.1 * k4F * k4F * pow(5 * adaptingLuminance, 1.0 / 3.0)
        n = ColorMath.yFromLstar(backgroundLstar) / white.y
        z = 1.48 + n.squareRoot()
        nbb = 0.725 / pow(n, 0.2)
        ncb = nbb
        let factors = (pow(fl * rgbD.0 * rW / 100, 0.42), pow(fl * rgbD.1 * gW / 100, 0.42), pow(fl * rgbD.2 * bW / 100, 0.42))
        let rgbA = (400 * factors.0 / (factors.0 + 27.13), 400 * factors.1 / (factors.1 + 27.13), 400 * factors.2 / (factors.2 + 27.13))
        aw = (2 * rgbA.0 + rgbA.1 + 0.05 * rgbA.2) * nbb
        fLRoot = pow(fl, 0.25)
    }
}

/// CAM16's hue and chroma of a colour, the two of HCT's three dimensions it gives.
struct Cam16 {
    var hue: Double
    var chroma: Double

    init(_ argb: UInt32) {
        let vc = ViewingConditions.standard
        let (x, y, z) = ColorMath.xyz(argb)
        let rC = 0.401288 * x + 0.650173 * y - 0.051461 * z
        let gC = -0.250268 * x + 1.204414 * y + 0.045854 * z
        let bC = -0.002079 * x + 0.048952 * y + 0.953127 * z
        let (rD, gD, bD) = (vc.rgbD.0 * rC, vc.rgbD.1 * gC, vc.rgbD.2 * bC)
        func adapted(_ component: Double) -> Double {
            let af = pow(vc.fl * abs(component) / 100, 0.42)
            return ColorMath.signum(component) * 400 * af / (af + 27.13)
        }
        let (rA, gA, bA) = (adapted(rD), adapted(gD), adapted(bD))
        let a = (11 * rA + -12 * gA + bA) / 11
        let b = (rA + gA - 2 * bA) / 9
        let u = (20 * rA + 20 * gA + 21 * bA) / 20
        let p2 = (40 * rA + 20 * gA + bA) / 20
        hue = ColorMath.sanitizeDegrees(atan2(b, a) * 180 / Double.pi)
        let ac = p2 * vc.nbb
        let j = 100 * pow(ac / vc.aw, vc.c * vc.z)
        let huePrime = hue < 20.14 ? hue + 360 : hue
        let eHue = 0.25 * (cos(huePrime * Double.pi / 180 + 2) + 3.8)
        let p1 = 50000 / 13 * eHue * vc.nc * vc.ncb
        let t = p1 * (a * a + b * b).squareRoot() / (u + 0.305)
        let alpha = pow(t, 0.9) * pow(1.64 - pow(0.29, vc.n), 0.73)
        chroma = alpha * (j / 100).squareRoot()
    }
}
