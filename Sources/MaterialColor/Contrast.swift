/// WCAG contrast between tones (material-color-utilities' `Contrast`), and the tones that reach a
/// ratio against another.
enum ToneContrast {
    static func ratio(_ toneA: Double, _ toneB: Double) -> Double {
        ratioOfYs(ColorMath.yFromLstar(ColorMath.clamp(0, 100, toneA)), ColorMath.yFromLstar(ColorMath.clamp(0, 100, toneB)))
    }

    static func ratioOfYs(_ y1: Double, _ y2: Double) -> Double {
        let lighter = max(y1, y2)
        let darker = lighter == y2 ? y1 : y2
        return (lighter + 5) / (darker + 5)
    }

    /// A tone at least `ratio` lighter than `tone`, or -1 when none is.
    static func lighter(_ tone: Double, _ ratio: Double) -> Double {
        guard (0...100).contains(tone) else { return -1 }
        let darkY = ColorMath.yFromLstar(tone)
        let lightY = ratio * (darkY + 5) - 5
        let realContrast = ratioOfYs(lightY, darkY)
        if realContrast < ratio && abs(realContrast - ratio) > 0.04 { return -1 }
        let answer = ColorMath.lstarFromY(lightY) + 0.4
        return (0...100).contains(answer) ? answer : -1
    }

    /// A tone at least `ratio` darker than `tone`, or -1 when none is.
    static func darker(_ tone: Double, _ ratio: Double) -> Double {
        guard (0...100).contains(tone) else { return -1 }
        let lightY = ColorMath.yFromLstar(tone)
        let darkY = (lightY + 5) / ratio - 5
        let realContrast = ratioOfYs(lightY, darkY)
        if realContrast < ratio && abs(realContrast - ratio) > 0.04 { return -1 }
        let answer = ColorMath.lstarFromY(darkY) - 0.4
        return (0...100).contains(answer) ? answer : -1
    }

    static func lighterUnsafe(_ tone: Double, _ ratio: Double) -> Double {
        let safe = lighter(tone, ratio)
        return safe < 0 ? 100 : safe
    }

    static func darkerUnsafe(_ tone: Double, _ ratio: Double) -> Double {
        let safe = darker(tone, ratio)
        return safe < 0 ? 0 : safe
    }
}

/// Dark yellow-greens read as bile (material-color-utilities' `DislikeAnalyzer`); such a colour is
/// lightened to tone 70.
enum Dislike {
    static func isDisliked(_ hct: Hct) -> Bool {
        let hue = ColorMath.round(hct.hue)
        return hue >= 90 && hue <= 111 && ColorMath.round(hct.chroma) > 16 && ColorMath.round(hct.tone) < 65
    }

    static func fixed(_ hct: Hct) -> Hct {
        isDisliked(hct) ? Hct(hue: hct.hue, chroma: hct.chroma, tone: 70) : hct
    }
}
