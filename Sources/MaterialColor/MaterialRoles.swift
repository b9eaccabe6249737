/// The 49 colour roles of Material 3 as material-color-utilities' 2021 spec defines them
/// (`ColorSpecDelegateImpl2021`), in its order.
enum MaterialRoles {
    static var all: [DynamicColor] { [
        background, onBackground, surface, surfaceDim, surfaceBright,
        surfaceContainerLowest, surfaceContainerLow, surfaceContainer, surfaceContainerHigh, surfaceContainerHighest,
        onSurface, surfaceVariant, onSurfaceVariant, outline, outlineVariant, inverseSurface, inverseOnSurface, shadow, scrim, surfaceTint,
        primary, onPrimary, primaryContainer, onPrimaryContainer, inversePrimary,
        primaryFixed, primaryFixedDim, onPrimaryFixed, onPrimaryFixedVariant,
        secondary, onSecondary, secondaryContainer, onSecondaryContainer,
        secondaryFixed, secondaryFixedDim, onSecondaryFixed, onSecondaryFixedVariant,
        tertiary, onTertiary, tertiaryContainer, onTertiaryContainer,
        tertiaryFixed, tertiaryFixedDim, onTertiaryFixed, onTertiaryFixedVariant,
        error, onError, errorContainer, onErrorContainer,
    ] }

    // MARK: Rules shared by many roles

    static func isFidelity(_ s: MaterialScheme) -> Bool { s.variant == .fidelity || s.variant == .content }
    static func isMonochrome(_ s: MaterialScheme) -> Bool { s.variant == .monochrome }
    private static func highestSurface(_ s: MaterialScheme) -> DynamicColor { s.isDark ? surfaceBright : surfaceDim }
    static func dark(_ s: MaterialScheme, _ dark: Double, _ light: Double) -> Double { s.isDark ? dark : light }

    private static func surfaceRole(_ name: String, _ tone: @escaping (MaterialScheme) -> Double) -> DynamicColor {
        DynamicColor(name: name, palette: { $0.neutral }, tone: tone, isBackground: true)
    }

    /// A role drawn on `background` (the highest surface unless another is named).
    static func role(_ name: String, _ palette: @escaping (MaterialScheme) -> TonalPalette, isBackground: Bool = false,
                             on background: ((MaterialScheme) -> DynamicColor)? = nil, and second: ((MaterialScheme) -> DynamicColor)? = nil,
                             curve: ContrastCurve, pair: ((MaterialScheme) -> ToneDeltaPair)? = nil,
                             tone: @escaping (MaterialScheme) -> Double) -> DynamicColor {
        DynamicColor(name: name, palette: palette, tone: tone, isBackground: isBackground, background: background ?? highestSurface,
                     secondBackground: second, contrastCurve: curve, toneDeltaPair: pair)
    }

    /// The tone near `tone` at which the palette reaches its chroma, walking towards darker or lighter.
    static func desiredChromaTone(hue: Double, chroma: Double, tone: Double, byDecreasingTone: Bool) -> Double {
        var answer = tone
        var closest = Hct(hue: hue, chroma: chroma, tone: tone)
        guard closest.chroma < chroma else { return answer }
        var peak = closest.chroma
        while closest.chroma < chroma {
            answer += byDecreasingTone ? -1 : 1
            let candidate = Hct(hue: hue, chroma: chroma, tone: answer)
            if peak > candidate.chroma || abs(candidate.chroma - chroma) < 0.4 { break }
            if abs(candidate.chroma - chroma) < abs(closest.chroma - chroma) { closest = candidate }
            peak = max(peak, candidate.chroma)
        }
        return answer
    }

    static let containerCurve = ContrastCurve(1, 1, 3, 4.5)
    static let accentCurve = ContrastCurve(3, 4.5, 7, 7)
    static let onAccentCurve = ContrastCurve(4.5, 7, 11, 21)
    static let onContainerCurve = ContrastCurve(3, 4.5, 7, 11)

    // MARK: Surfaces

    static var background: DynamicColor { surfaceRole("background") { dark($0, 6, 98) } }
    static var onBackground: DynamicColor {
        role("onBackground", { $0.neutral }, on: { _ in background }, curve: ContrastCurve(3, 3, 4.5, 7)) { dark($0, 90, 10) }
    }
    static var surface: DynamicColor { surfaceRole("surface") { dark($0, 6, 98) } }
    static var surfaceDim: DynamicColor { surfaceRole("surfaceDim") { dark($0, 6, ContrastCurve(87, 87, 80, 75).get($0.contrastLevel)) } }
    static var surfaceBright: DynamicColor { surfaceRole("surfaceBright") { dark($0, ContrastCurve(24, 24, 29, 34).get($0.contrastLevel), 98) } }
    static var surfaceContainerLowest: DynamicColor {
        surfaceRole("surfaceContainerLowest") { dark($0, ContrastCurve(4, 4, 2, 0).get($0.contrastLevel), 100) }
    }
    static var surfaceContainerLow: DynamicColor {
        surfaceRole("surfaceContainerLow") { dark($0, ContrastCurve(10, 10, 11, 12).get($0.contrastLevel), ContrastCurve(96, 96, 96, 95).get($0.contrastLevel)) }
    }
    static var surfaceContainer: DynamicColor {
        surfaceRole("surfaceContainer") { dark($0, ContrastCurve(12, 12, 16, 20).get($0.contrastLevel), ContrastCurve(94, 94, 92, 90).get($0.contrastLevel)) }
    }
    static var surfaceContainerHigh: DynamicColor {
        surfaceRole("surfaceContainerHigh") { dark($0, ContrastCurve(17, 17, 21, 25).get($0.contrastLevel), ContrastCurve(92, 92, 88, 85).get($0.contrastLevel)) }
    }
    static var surfaceContainerHighest: DynamicColor {
        surfaceRole("surfaceContainerHighest") { dark($0, ContrastCurve(22, 22, 26, 30).get($0.contrastLevel), ContrastCurve(90, 90, 84, 80).get($0.contrastLevel)) }
    }
    static var onSurface: DynamicColor { role("onSurface", { $0.neutral }, curve: onAccentCurve) { dark($0, 90, 10) } }
    static var surfaceVariant: DynamicColor {
        DynamicColor(name: "surfaceVariant", palette: { $0.neutralVariant }, tone: { dark($0, 30, 90) }, isBackground: true)
    }
    static var onSurfaceVariant: DynamicColor { role("onSurfaceVariant", { $0.neutralVariant }, curve: ContrastCurve(3, 4.5, 7, 11)) { dark($0, 80, 30) } }
    static var inverseSurface: DynamicColor { surfaceRole("inverseSurface") { dark($0, 90, 20) } }
    static var inverseOnSurface: DynamicColor {
        role("inverseOnSurface", { $0.neutral }, on: { _ in inverseSurface }, curve: onAccentCurve) { dark($0, 20, 95) }
    }
    static var outline: DynamicColor { role("outline", { $0.neutralVariant }, curve: ContrastCurve(1.5, 3, 4.5, 7)) { dark($0, 60, 50) } }
    static var outlineVariant: DynamicColor { role("outlineVariant", { $0.neutralVariant }, curve: containerCurve) { dark($0, 30, 80) } }
    static var shadow: DynamicColor { DynamicColor(name: "shadow", palette: { $0.neutral }, tone: { _ in 0 }) }
    static var scrim: DynamicColor { DynamicColor(name: "scrim", palette: { $0.neutral }, tone: { _ in 0 }) }
    static var surfaceTint: DynamicColor { DynamicColor(name: "surfaceTint", palette: { $0.primary }, tone: { dark($0, 80, 40) }, isBackground: true) }
}
