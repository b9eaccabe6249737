import ThemeVocabulary

/// What a client asks for (lookup-rules.md 4.3): the traits of its screen and preferences.
/// Unset traits take the rules' defaults: universal, 1x, light, normal contrast, sRGB, ltr.
public struct TraitRequest: Sendable, Hashable {
    public var idiom = Idiom.universal
    public var scale = 1
    public var appearance = Appearance(.light)
    public var gamut = Gamut.sRGB
    public var sizeClassHorizontal = SizeClass.any
    public var sizeClassVertical = SizeClass.any
    public var direction = LayoutDirection.leftToRight
    public var subtype = 0
    /// Unlimited unless the client says otherwise.
    public var memoryGB = Int(Int32.max)
    public var graphics = Int(Int32.max)
    public var deploymentTarget = Int(Int32.max)
    /// Preferred languages, best first (`lang=` or Accept-Language).
    public var languages: [String] = []
    /// A token theme's modifiers that map to no trait, at the contexts the query names
    /// (`TokenModifier.contexts(_:of:)`): '' for their defaults, and for every other theme.
    public var contexts = ""
    /// A multisize set's member by its width in points (`size=60`); nil: the largest member.
    public var pointSize: Int?
    /// The screen's pixels per point when it is not a catalog scale (`dpr=1.5`, Android's hdpi;
    /// 2.625; 4): images are then made at that density from `scale`, the catalog scale at or just
    /// above it. In eighths (`densityStep`), 1-4, so a client cannot ask for endless sizes.
    public var density: Double?
    public static let densities = 1.0...4.0
    public static let densityStep = 0.125

    /// `dpr` as a density and the catalog scale to start from; nil when out of 1-4.
    public mutating func setDensity(_ dpr: Double) -> Bool {
        guard dpr.isFinite, Self.densities.contains(dpr) else { return false }
        let stepped = (dpr / Self.densityStep).rounded() * Self.densityStep
        scale = min(3, Int(stepped.rounded(.up)))
        density = stepped == Double(Int(stepped)) && stepped <= 3 ? nil : stepped
        return true
    }

    public init() {}

    /// The appearances acceptable for this request, best first (lookup-rules.md 4.2): keep the
    /// luminosity and drop the contrast first, then drop the luminosity. Light never falls back to
    /// dark, nor dark to light.
    public var appearanceChain: [Appearance] {
        let wanted = appearance
        var chain: [Appearance]
        if idiom == .vision { // vision ignores luminosity
            chain = [Appearance(.any, highContrast: wanted.highContrast), .any]
        } else if wanted.luminosity == .tinted || wanted.luminosity == .other {
            chain = [Appearance(wanted.luminosity, name: wanted.name), .any]
        } else if wanted.highContrast {
            chain = [wanted, Appearance(wanted.luminosity), Appearance(.any, highContrast: true), .any]
        } else {
            chain = [wanted, .any]
        }
        var unique: [Appearance] = []
        for appearance in chain where !unique.contains(appearance) { unique.append(appearance) }
        return unique
    }
}

extension TraitRequest {
    /// Where a colour variant stands in this request's order among the colours of one source (the
    /// lookup query's terms that colours differ in): the gamut asked or sRGB first, then the
    /// appearance chain, then the exact gamut and idiom, then the variant's sort key; nil when
    /// the request cannot take it.
    func colorRank(of variant: Variant) -> (gamutMissed: Int, appearance: Int, inexactGamut: Int, inexactIdiom: Int, sortKey: String)? {
        guard let appearance = appearanceChain.firstIndex(of: variant.traits.appearance),
              variant.traits.idiom == idiom || variant.traits.idiom == .universal else { return nil }
        let gamutMissed = variant.traits.gamut != gamut && variant.traits.gamut != .sRGB
        return (gamutMissed ? 1 : 0, appearance, variant.traits.gamut != gamut ? 1 : 0, variant.traits.idiom != idiom ? 1 : 0, variant.sortKey)
    }

    /// The variant of `variants` this request takes among them alone (`colorRank`).
    func bestColor(among variants: [Variant]) -> Variant? {
        variants.compactMap { variant in colorRank(of: variant).map { ($0, variant) } }.min { $0.0 < $1.0 }?.1
    }
}
