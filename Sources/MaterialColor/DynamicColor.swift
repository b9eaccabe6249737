/// A role's rules (material-color-utilities' `DynamicColor`): its palette, the tone it would
/// take, and what it must stand out from, by how much at each contrast level, and the role it
/// keeps a distance from.
struct DynamicColor {
    let name: String
    let palette: (MaterialScheme) -> TonalPalette
    let tone: (MaterialScheme) -> Double
    var isBackground = false
    var background: ((MaterialScheme) -> DynamicColor)?
    var secondBackground: ((MaterialScheme) -> DynamicColor)?
    var contrastCurve: ContrastCurve?
    var toneDeltaPair: ((MaterialScheme) -> ToneDeltaPair)?

    func argb(in scheme: MaterialScheme) -> UInt32 { palette(scheme).tone(tone(in: scheme)) }

    /// The tone once contrast with its backgrounds and the distance to its pair are met.
    func tone(in scheme: MaterialScheme) -> Double {
        let decreasingContrast = scheme.contrastLevel < 0
        if let pair = toneDeltaPair?(scheme) {
            return pairedTone(pair, in: scheme, decreasingContrast: decreasingContrast)
        }
        var answer = tone(scheme)
        guard let background = background?(scheme), let curve = contrastCurve else { return answer }
        let backgroundTone = background.tone(in: scheme)
        let desired = curve.get(scheme.contrastLevel)
        if ToneContrast.ratio(backgroundTone, answer) < desired { answer = Self.foregroundTone(backgroundTone, desired) }
        if decreasingContrast { answer = Self.foregroundTone(backgroundTone, desired) }
        if isBackground && answer >= 50 && answer < 60 {
            answer = ToneContrast.ratio(49, backgroundTone) >= desired ? 49 : 60
        }
        guard let second = secondBackground?(scheme) else { return answer }
        let (first, other) = (backgroundTone, second.tone(in: scheme))
        let (upper, lower) = (max(first, other), min(first, other))
        if ToneContrast.ratio(upper, answer) >= desired && ToneContrast.ratio(lower, answer) >= desired { return answer }
        let lightOption = ToneContrast.lighter(upper, desired)
        let darkOption = ToneContrast.darker(lower, desired)
        let available = [lightOption, darkOption].filter { $0 != -1 }
        if Self.prefersLightForeground(first) || Self.prefersLightForeground(other) { return lightOption < 0 ? 100 : lightOption }
        if available.count == 1 { return available[0] }
        return darkOption < 0 ? 0 : darkOption
    }

    private func pairedTone(_ pair: ToneDeltaPair, in scheme: MaterialScheme, decreasingContrast: Bool) -> Double {
        let aIsNearer = pair.polarity == .nearer || (pair.polarity == .lighter && !scheme.isDark) || (pair.polarity == .darker && scheme.isDark)
        let (nearer, farther) = aIsNearer ? (pair.roleA, pair.roleB) : (pair.roleB, pair.roleA)
        let amNearer = name == nearer.name
        let expansion: Double = scheme.isDark ? 1 : -1
        var (nTone, fTone) = (nearer.tone(scheme), farther.tone(scheme))
        if let background = background?(scheme), let nCurve = nearer.contrastCurve, let fCurve = farther.contrastCurve {
            let backgroundTone = background.tone(in: scheme)
            let (nContrast, fContrast) = (nCurve.get(scheme.contrastLevel), fCurve.get(scheme.contrastLevel))
            if ToneContrast.ratio(backgroundTone, nTone) < nContrast { nTone = Self.foregroundTone(backgroundTone, nContrast) }
            if ToneContrast.ratio(backgroundTone, fTone) < fContrast { fTone = Self.foregroundTone(backgroundTone, fContrast) }
            if decreasingContrast {
                nTone = Self.foregroundTone(backgroundTone, nContrast)
                fTone = Self.foregroundTone(backgroundTone, fContrast)
            }
        }
        let delta = pair.delta
        if (fTone - nTone) * expansion < delta {
            fTone = ColorMath.clamp(0, 100, nTone + delta * expansion)
            if (fTone - nTone) * expansion < delta { nTone = ColorMath.clamp(0, 100, fTone - delta * expansion) }
        }
        // Tones 50 to 59 are avoided: they stand out from neither light nor dark.
        func moveNearer() {
            nTone = expansion > 0 ? 60 : 49
            fTone = expansion > 0 ? max(fTone, nTone + delta * expansion) : min(fTone, nTone + delta * expansion)
        }
        if nTone >= 50 && nTone < 60 {
            moveNearer()
        } else if fTone >= 50 && fTone < 60 {
            if pair.stayTogether { moveNearer() } else { fTone = expansion > 0 ? 60 : 49 }
        }
        return amNearer ? nTone : fTone
    }

    /// The tone nearest the ratio against a background, lighter or darker as the background prefers.
    static func foregroundTone(_ backgroundTone: Double, _ ratio: Double) -> Double {
        let lighterTone = ToneContrast.lighterUnsafe(backgroundTone, ratio)
        let darkerTone = ToneContrast.darkerUnsafe(backgroundTone, ratio)
        let lighterRatio = ToneContrast.ratio(lighterTone, backgroundTone)
        let darkerRatio = ToneContrast.ratio(darkerTone, backgroundTone)
        if prefersLightForeground(backgroundTone) {
            let negligible = abs(lighterRatio - darkerRatio) < 0.1 && lighterRatio < ratio && darkerRatio < ratio
            return lighterRatio >= ratio || lighterRatio >= darkerRatio || negligible ? lighterTone : darkerTone
        }
        return darkerRatio >= ratio || darkerRatio >= lighterRatio ? darkerTone : lighterTone
    }

    static func prefersLightForeground(_ tone: Double) -> Bool { ColorMath.round(tone) < 60 }
}

/// The contrast a role needs at contrast levels -1, 0, 0.5 and 1, and in between by line.
struct ContrastCurve {
    let low, normal, medium, high: Double

    init(_ low: Double, _ normal: Double, _ medium: Double, _ high: Double) { (self.low, self.normal, self.medium, self.high) = (low, normal, medium, high) }

    func get(_ level: Double) -> Double {
        if level <= -1 { return low }
        if level < 0 { return ColorMath.lerp(low, normal, level + 1) }
        if level < 0.5 { return ColorMath.lerp(normal, medium, level / 0.5) }
        if level < 1 { return ColorMath.lerp(medium, high, (level - 0.5) / 0.5) }
        return high
    }
}

/// Two roles kept `delta` tones apart, the nearer one to the background as `polarity` says.
struct ToneDeltaPair {
    enum Polarity { case darker, lighter, nearer, farther }
    let roleA, roleB: DynamicColor
    let delta: Double
    let polarity: Polarity
    let stayTogether: Bool
}
