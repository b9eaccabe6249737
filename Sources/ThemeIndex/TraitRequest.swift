/// What a client asks for (lookup-rules.md 4.3): the traits of its screen and preferences.
/// Unset traits take the rules' defaults: universal, 1x, light, normal contrast, sRGB, ltr.
public struct TraitRequest: Sendable, Hashable {
    public var idiom = 0
    public var scale = 1
    public var appearance = Appearance(.light)
    public var gamut = 0
    public var sizeClassHorizontal = 0
    public var sizeClassVertical = 0
    /// 4 left-to-right, 5 right-to-left.
    public var direction = 4
    public var subtype = 0
    /// Unlimited unless the client says otherwise.
    public var memoryGB = Int(Int32.max)
    public var graphics = Int(Int32.max)
    public var deploymentTarget = Int(Int32.max)
    /// Preferred languages, best first (`lang=` or Accept-Language).
    public var languages: [String] = []

    public init() {}

    /// The appearances acceptable for this request, best first (lookup-rules.md 4.2): keep the
    /// luminosity and drop the contrast first, then drop the luminosity. Light never falls back to
    /// dark, nor dark to light.
    public var appearanceChain: [Appearance] {
        let wanted = appearance
        var chain: [Appearance]
        if idiom == 8 { // vision ignores luminosity
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

    /// The direction tried after the requested one (a flippable rendition is drawn mirrored).
    var oppositeDirection: Int { direction == 5 ? 4 : 5 }
}
