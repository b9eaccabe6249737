import ThemeVocabulary

/// One column of an export: the traits every colour is resolved for. Light and dark, each also
/// with high contrast and on a Display P3 screen, are the cases apps and browsers can tell apart.
public struct ColorMode: Sendable, Hashable, CustomStringConvertible {
    public enum Scheme: String, Sendable, CaseIterable {
        case light, dark
    }

    public var scheme: Scheme
    public var highContrast: Bool
    public var gamut: Gamut

    public init(_ scheme: Scheme, highContrast: Bool = false, gamut: Gamut = .sRGB) {
        self.scheme = scheme
        self.highContrast = highContrast
        self.gamut = gamut
    }

    public static let light = ColorMode(.light)
    public static let dark = ColorMode(.dark)
    public static let lightHighContrast = ColorMode(.light, highContrast: true)
    public static let darkHighContrast = ColorMode(.dark, highContrast: true)
    public static let lightP3 = ColorMode(.light, gamut: .displayP3)
    public static let darkP3 = ColorMode(.dark, gamut: .displayP3)

    /// Every mode an export holds, in the order files and blocks are written.
    public static let all: [ColorMode] = [.light, .dark, .lightHighContrast, .darkHighContrast, .lightP3, .darkP3]

    /// `light`, `dark-high-contrast`, `light-p3`: the `mode=` of `/tokens.json` and the DTCG file names.
    public var name: String {
        scheme.rawValue + (highContrast ? "-high-contrast" : "") + (gamut == .displayP3 ? "-p3" : "")
    }

    public var description: String { name }

    public init?(name: String) {
        guard let mode = Self.all.first(where: { $0.name == name }) else { return nil }
        self = mode
    }

    /// The mode this one falls back to when a colour has no value of its own for it: high
    /// contrast and P3 to the plain scheme.
    public var base: ColorMode { ColorMode(scheme) }

    /// What the colour route is asked for this mode: `?appearance=dark&contrast=high&gamut=p3`.
    public var traits: TraitRequest {
        var traits = TraitRequest()
        traits.appearance = Appearance(scheme == .dark ? .dark : .light, highContrast: highContrast)
        traits.gamut = gamut
        return traits
    }

    /// The same query as a URL query string, for reports and tests.
    public var query: String {
        "appearance=\(scheme.rawValue)&contrast=\(highContrast ? "high" : "normal")&gamut=\(gamut.name)"
    }
}
