/// The accent roles: primary, secondary, tertiary and error, their containers, the fixed roles
/// (the same in light and dark) and what is drawn on each.
extension MaterialRoles {
    // MARK: Primary

    static var primary: DynamicColor {
        role("primary", { $0.primary }, isBackground: true, curve: accentCurve, pair: { _ in ToneDeltaPair(roleA: Self.primaryContainer, roleB: Self.primary, delta: 10, polarity: .nearer, stayTogether: false) }) {
            isMonochrome($0) ? dark($0, 100, 0) : dark($0, 80, 40)
        }
    }
    static var onPrimary: DynamicColor {
        role("onPrimary", { $0.primary }, on: { _ in primary }, curve: onAccentCurve) { isMonochrome($0) ? dark($0, 10, 90) : dark($0, 20, 100) }
    }
    static var primaryContainer: DynamicColor {
        role("primaryContainer", { $0.primary }, isBackground: true, curve: containerCurve,
             pair: { _ in ToneDeltaPair(roleA: Self.primaryContainer, roleB: Self.primary, delta: 10, polarity: .nearer, stayTogether: false) }) { s in
            isFidelity(s) ? s.source.tone : isMonochrome(s) ? dark(s, 85, 25) : dark(s, 30, 90)
        }
    }
    static var onPrimaryContainer: DynamicColor {
        role("onPrimaryContainer", { $0.primary }, on: { _ in primaryContainer }, curve: onContainerCurve) { s in
            isFidelity(s) ? DynamicColor.foregroundTone(primaryContainer.tone(s), 4.5) : isMonochrome(s) ? dark(s, 0, 100) : dark(s, 90, 30)
        }
    }
    static var inversePrimary: DynamicColor {
        role("inversePrimary", { $0.primary }, on: { _ in inverseSurface }, curve: accentCurve) { dark($0, 40, 80) }
    }

    // MARK: Secondary

    static var secondary: DynamicColor {
        role("secondary", { $0.secondary }, isBackground: true, curve: accentCurve,
             pair: { _ in ToneDeltaPair(roleA: Self.secondaryContainer, roleB: Self.secondary, delta: 10, polarity: .nearer, stayTogether: false) }) { dark($0, 80, 40) }
    }
    static var onSecondary: DynamicColor {
        role("onSecondary", { $0.secondary }, on: { _ in secondary }, curve: onAccentCurve) { isMonochrome($0) ? dark($0, 10, 100) : dark($0, 20, 100) }
    }
    static var secondaryContainer: DynamicColor {
        role("secondaryContainer", { $0.secondary }, isBackground: true, curve: containerCurve,
             pair: { _ in ToneDeltaPair(roleA: Self.secondaryContainer, roleB: Self.secondary, delta: 10, polarity: .nearer, stayTogether: false) }) { s in
            if isMonochrome(s) { return dark(s, 30, 85) }
            guard isFidelity(s) else { return dark(s, 30, 90) }
            return desiredChromaTone(hue: s.secondary.hue, chroma: s.secondary.chroma, tone: dark(s, 30, 90), byDecreasingTone: !s.isDark)
        }
    }
    static var onSecondaryContainer: DynamicColor {
        role("onSecondaryContainer", { $0.secondary }, on: { _ in secondaryContainer }, curve: onContainerCurve) { s in
            isMonochrome(s) ? dark(s, 90, 10) : isFidelity(s) ? DynamicColor.foregroundTone(secondaryContainer.tone(s), 4.5) : dark(s, 90, 30)
        }
    }

    // MARK: Tertiary

    static var tertiary: DynamicColor {
        role("tertiary", { $0.tertiary }, isBackground: true, curve: accentCurve,
             pair: { _ in ToneDeltaPair(roleA: Self.tertiaryContainer, roleB: Self.tertiary, delta: 10, polarity: .nearer, stayTogether: false) }) {
            isMonochrome($0) ? dark($0, 90, 25) : dark($0, 80, 40)
        }
    }
    static var onTertiary: DynamicColor {
        role("onTertiary", { $0.tertiary }, on: { _ in tertiary }, curve: onAccentCurve) { isMonochrome($0) ? dark($0, 10, 90) : dark($0, 20, 100) }
    }
    static var tertiaryContainer: DynamicColor {
        role("tertiaryContainer", { $0.tertiary }, isBackground: true, curve: containerCurve,
             pair: { _ in ToneDeltaPair(roleA: Self.tertiaryContainer, roleB: Self.tertiary, delta: 10, polarity: .nearer, stayTogether: false) }) { s in
            if isMonochrome(s) { return dark(s, 60, 49) }
            guard isFidelity(s) else { return dark(s, 30, 90) }
            return Dislike.fixed(s.tertiary.hct(s.source.tone)).tone
        }
    }
    static var onTertiaryContainer: DynamicColor {
        role("onTertiaryContainer", { $0.tertiary }, on: { _ in tertiaryContainer }, curve: onContainerCurve) { s in
            isMonochrome(s) ? dark(s, 0, 100) : isFidelity(s) ? DynamicColor.foregroundTone(tertiaryContainer.tone(s), 4.5) : dark(s, 90, 30)
        }
    }

    // MARK: Error

    static var error: DynamicColor {
        role("error", { $0.error }, isBackground: true, curve: accentCurve,
             pair: { _ in ToneDeltaPair(roleA: Self.errorContainer, roleB: Self.error, delta: 10, polarity: .nearer, stayTogether: false) }) { dark($0, 80, 40) }
    }
    static var onError: DynamicColor { role("onError", { $0.error }, on: { _ in error }, curve: onAccentCurve) { dark($0, 20, 100) } }
    static var errorContainer: DynamicColor {
        role("errorContainer", { $0.error }, isBackground: true, curve: containerCurve,
             pair: { _ in ToneDeltaPair(roleA: Self.errorContainer, roleB: Self.error, delta: 10, polarity: .nearer, stayTogether: false) }) { dark($0, 30, 90) }
    }
    static var onErrorContainer: DynamicColor {
        role("onErrorContainer", { $0.error }, on: { _ in errorContainer }, curve: onContainerCurve) { isMonochrome($0) ? dark($0, 90, 10) : dark($0, 90, 30) }
    }

    // MARK: Fixed (the same in light and dark)

    /// `fixed` and `fixedDim` of a palette, kept 10 tones apart with the lighter one nearer.
    private static func fixedPair(_ prefix: String, _ palette: @escaping (MaterialScheme) -> TonalPalette,
                                  fixed: @escaping (MaterialScheme) -> Double, dim: @escaping (MaterialScheme) -> Double) -> (DynamicColor, DynamicColor) {
        func make(_ name: String, _ tone: @escaping (MaterialScheme) -> Double) -> DynamicColor {
            role(name, palette, isBackground: true, curve: containerCurve, pair: { _ in
                let (fixedRole, dimRole) = fixedPair(prefix, palette, fixed: fixed, dim: dim)
                return ToneDeltaPair(roleA: fixedRole, roleB: dimRole, delta: 10, polarity: .lighter, stayTogether: true)
            }, tone: tone)
        }
        return (make("\(prefix)Fixed", fixed), make("\(prefix)FixedDim", dim))
    }

    private static func onFixed(_ name: String, _ palette: @escaping (MaterialScheme) -> TonalPalette, over pair: (DynamicColor, DynamicColor),
                                curve: ContrastCurve, tone: @escaping (MaterialScheme) -> Double) -> DynamicColor {
        role(name, palette, on: { _ in pair.1 }, and: { _ in pair.0 }, curve: curve, tone: tone)
    }

    private static var primaryFixedPair: (DynamicColor, DynamicColor) {
        fixedPair("primary", { $0.primary }, fixed: { isMonochrome($0) ? 40 : 90 }, dim: { isMonochrome($0) ? 30 : 80 })
    }
    private static var secondaryFixedPair: (DynamicColor, DynamicColor) {
        fixedPair("secondary", { $0.secondary }, fixed: { isMonochrome($0) ? 80 : 90 }, dim: { isMonochrome($0) ? 70 : 80 })
    }
    private static var tertiaryFixedPair: (DynamicColor, DynamicColor) {
        fixedPair("tertiary", { $0.tertiary }, fixed: { isMonochrome($0) ? 40 : 90 }, dim: { isMonochrome($0) ? 30 : 80 })
    }

    static var primaryFixed: DynamicColor { primaryFixedPair.0 }
    static var primaryFixedDim: DynamicColor { primaryFixedPair.1 }
    static var onPrimaryFixed: DynamicColor {
        onFixed("onPrimaryFixed", { $0.primary }, over: primaryFixedPair, curve: onAccentCurve) { isMonochrome($0) ? 100 : 10 }
    }
    static var onPrimaryFixedVariant: DynamicColor {
        onFixed("onPrimaryFixedVariant", { $0.primary }, over: primaryFixedPair, curve: onContainerCurve) { isMonochrome($0) ? 90 : 30 }
    }
    static var secondaryFixed: DynamicColor { secondaryFixedPair.0 }
    static var secondaryFixedDim: DynamicColor { secondaryFixedPair.1 }
    static var onSecondaryFixed: DynamicColor { onFixed("onSecondaryFixed", { $0.secondary }, over: secondaryFixedPair, curve: onAccentCurve) { _ in 10 } }
    static var onSecondaryFixedVariant: DynamicColor {
        onFixed("onSecondaryFixedVariant", { $0.secondary }, over: secondaryFixedPair, curve: onContainerCurve) { isMonochrome($0) ? 25 : 30 }
    }
    static var tertiaryFixed: DynamicColor { tertiaryFixedPair.0 }
    static var tertiaryFixedDim: DynamicColor { tertiaryFixedPair.1 }
    static var onTertiaryFixed: DynamicColor {
        onFixed("onTertiaryFixed", { $0.tertiary }, over: tertiaryFixedPair, curve: onAccentCurve) { isMonochrome($0) ? 100 : 10 }
    }
    static var onTertiaryFixedVariant: DynamicColor {
        onFixed("onTertiaryFixedVariant", { $0.tertiary }, over: tertiaryFixedPair, curve: onContainerCurve) { isMonochrome($0) ? 90 : 30 }
    }
}
