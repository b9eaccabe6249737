import ThemeVocabulary

/// One Material 3 colour scheme (material-color-utilities' `DynamicScheme` with the 2021 spec):
/// a seed, a variant, light or dark and a contrast level give six tonal palettes, from which
/// every role's tone is worked out (`MaterialRoles`).
public final class MaterialScheme {
    public let source: Hct
    public let variant: MaterialVariant
    public let isDark: Bool
    /// -1 (less) through 0 (standard) to 1 (the most).
    public let contrastLevel: Double
    let primary, secondary, tertiary, neutral, neutralVariant, error: TonalPalette

    public init(source: Hct, variant: MaterialVariant, isDark: Bool, contrastLevel: Double) {
        (self.source, self.variant, self.isDark, self.contrastLevel) = (source, variant, isDark, contrastLevel)
        let (hue, chroma) = (source.hue, source.chroma)
        func rotated(_ breakpoints: [Double], _ rotations: [Double]) -> Double {
            Self.rotatedHue(hue, breakpoints: breakpoints, rotations: rotations)
        }
        switch variant {
        case .content, .fidelity:
            primary = TonalPalette(hue: hue, chroma: chroma)
            secondary = TonalPalette(hue: hue, chroma: max(chroma - 32, chroma * 0.5))
            tertiary = TonalPalette(hct: Dislike.fixed(variant == .content ? Temperature(source).analogous(count: 3, divisions: 6)[2]
                                                                            : Temperature(source).complement))
            neutral = TonalPalette(hue: hue, chroma: chroma / 8)
            neutralVariant = TonalPalette(hue: hue, chroma: chroma / 8 + 4)
        case .fruitSalad:
            primary = TonalPalette(hue: ColorMath.sanitizeDegrees(hue - 50), chroma: 48)
            secondary = TonalPalette(hue: ColorMath.sanitizeDegrees(hue - 50), chroma: 36)
            tertiary = TonalPalette(hue: hue, chroma: 36)
            neutral = TonalPalette(hue: hue, chroma: 10)
            neutralVariant = TonalPalette(hue: hue, chroma: 16)
        case .monochrome:
            (primary, secondary, tertiary) = (TonalPalette(hue: hue, chroma: 0), TonalPalette(hue: hue, chroma: 0), TonalPalette(hue: hue, chroma: 0))
            (neutral, neutralVariant) = (TonalPalette(hue: hue, chroma: 0), TonalPalette(hue: hue, chroma: 0))
        case .neutral:
            (primary, secondary, tertiary) = (TonalPalette(hue: hue, chroma: 12), TonalPalette(hue: hue, chroma: 8), TonalPalette(hue: hue, chroma: 16))
            (neutral, neutralVariant) = (TonalPalette(hue: hue, chroma: 2), TonalPalette(hue: hue, chroma: 2))
        case .rainbow:
            primary = TonalPalette(hue: hue, chroma: 48)
            secondary = TonalPalette(hue: hue, chroma: 16)
            tertiary = TonalPalette(hue: ColorMath.sanitizeDegrees(hue + 60), chroma: 24)
            (neutral, neutralVariant) = (TonalPalette(hue: hue, chroma: 0), TonalPalette(hue: hue, chroma: 0))
        case .tonalSpot:
            primary = TonalPalette(hue: hue, chroma: 36)
            secondary = TonalPalette(hue: hue, chroma: 16)
            tertiary = TonalPalette(hue: ColorMath.sanitizeDegrees(hue + 60), chroma: 24)
            (neutral, neutralVariant) = (TonalPalette(hue: hue, chroma: 6), TonalPalette(hue: hue, chroma: 8))
        case .expressive:
            let breakpoints: [Double] = [0, 21, 51, 121, 151, 191, 271, 321, 360]
            primary = TonalPalette(hue: ColorMath.sanitizeDegrees(hue + 240), chroma: 40)
            secondary = TonalPalette(hue: rotated(breakpoints, [45, 95, 45, 20, 45, 90, 45, 45, 45]), chroma: 24)
            tertiary = TonalPalette(hue: rotated(breakpoints, [120, 120, 20, 45, 20, 15, 20, 120, 120]), chroma: 32)
            neutral = TonalPalette(hue: ColorMath.sanitizeDegrees(hue + 15), chroma: 8)
            neutralVariant = TonalPalette(hue: ColorMath.sanitizeDegrees(hue + 15), chroma: 12)
        case .vibrant:
            let breakpoints: [Double] = [0, 41, 61, 101, 131, 181, 251, 301, 360]
            primary = TonalPalette(hue: hue, chroma: 200)
            secondary = TonalPalette(hue: rotated(breakpoints, [18, 15, 10, 12, 15, 18, 15, 12, 12]), chroma: 24)
            tertiary = TonalPalette(hue: rotated(breakpoints, [35, 30, 20, 25, 30, 35, 30, 25, 25]), chroma: 32)
            (neutral, neutralVariant) = (TonalPalette(hue: hue, chroma: 10), TonalPalette(hue: hue, chroma: 12))
        }
        error = TonalPalette(hue: 25, chroma: 84)
    }

    /// The hue turned by the rotation of the range of breakpoints it falls in.
    static func rotatedHue(_ hue: Double, breakpoints: [Double], rotations: [Double]) -> Double {
        let ranges = min(breakpoints.count - 1, rotations.count)
        for index in 0..<max(0, ranges) where hue >= breakpoints[index] && hue < breakpoints[index + 1] {
            return ColorMath.sanitizeDegrees(hue + ColorMath.sanitizeDegrees(rotations[index]))
        }
        return hue
    }

    /// Every role of the 2021 spec, by name, as 0xAARRGGBB.
    public var roles: [(name: String, argb: UInt32)] {
        MaterialRoles.all.map { ($0.name, $0.argb(in: self)) }
    }
}
