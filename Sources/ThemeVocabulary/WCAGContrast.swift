/// WCAG 2.1 contrast: a colour's relative luminance (the Y of CIE XYZ, as coloraide and CSS Color
/// 4 compute it from the colour's own space) and the ratio of text over a background, the
/// text's alpha composited over the background first (in sRGB, as browsers blend).
extension ColorValue {
    /// The colour as a CSS colour of its space (sRGB for the gray and extended sRGB spaces,
    /// whose numbers are sRGB's), opaque.
    private var cssColor: CSSColor {
        let rgb = Array((unclippedRGBA ?? [0, 0, 0, 1]).prefix(3)).map { Optional($0) }
        switch colorSpace {
        case .displayP3: return CSSColor(space: .displayP3, components: rgb)
        case .extendedLinearSRGB: return CSSColor(space: .srgbLinear, components: rgb)
        default: return CSSColor(space: .srgb, components: rgb)
        }
    }

    /// Relative luminance, 0 (black) to 1 (white), of the colour as if opaque.
    public var relativeLuminance: Double {
        min(max(cssColor.xyzD65[1], 0), 1)
    }

    /// The WCAG 2.1 contrast ratio (1 to 21) of this colour as text over `background` (taken as
    /// opaque): a translucent text colour is first composited over it.
    public func contrastRatio(over background: ColorValue) -> Double {
        let alpha = rgba[3]
        var text = self
        if alpha < 1 {
            let top = colorSpace == background.colorSpace ? rgba : cssColor.sRGB.rgba
            let bottom = colorSpace == background.colorSpace ? background.rgba : background.cssColor.sRGB.rgba
            let space = colorSpace == background.colorSpace ? colorSpace : .sRGB
            text = ColorValue(colorSpace: space, components: (0..<3).map { top[$0] * alpha + bottom[$0] * (1 - alpha) } + [1])
        }
        let (lighter, darker) = (max(text.relativeLuminance, background.relativeLuminance), min(text.relativeLuminance, background.relativeLuminance))
        return (lighter + 0.05) / (darker + 0.05)
    }
}
