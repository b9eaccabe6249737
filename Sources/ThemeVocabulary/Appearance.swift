/// How light a variant is drawn (lookup-rules.md 4.2).
public enum Luminosity: Int, Sendable {
    case any = 0, light = 1, dark = 2, tinted = 3
    /// A catalog appearance with a name of its own; it answers only requests for that name.
    case other = 9
}

/// Normal or increased contrast (`UIAccessibilityContrast`, `prefers-contrast: more`).
public enum Contrast: Int, Sendable {
    case normal = 0, high = 1

    /// `contrast=` values of a request and Contents.json's `contrast` appearance value.
    public init?(name: String) {
        switch name {
        case "high", "more": self = .high
        case "normal", "standard": self = .normal
        default: return nil
        }
    }
}

/// The appearance of a variant or a request as the lookup rules see it: a luminosity and a
/// contrast (lookup-rules.md 4.2). Catalog appearance names map onto these; unknown names are
/// kept as `.other` and only answer requests for that exact name.
public struct Appearance: Sendable, Hashable {
    public var luminosity: Luminosity
    public var highContrast: Bool
    /// The catalog's name for `.other` appearances.
    public var name: String

    public init(_ luminosity: Luminosity, highContrast: Bool = false, name: String = "") {
        self.luminosity = luminosity
        self.highContrast = highContrast
        self.name = name
    }

    public static let any = Appearance(.any)

    /// The UIKit names a catalog compiled for iOS stores in APPEARANCEKEYS, by appearance.
    public static let uiKitNames: KeyValuePairs<Appearance, String> = [
        .any: "UIAppearanceAny", Appearance(.dark): "UIAppearanceDark", Appearance(.any, highContrast: true): "UIAppearanceHighContrastAny",
        Appearance(.dark, highContrast: true): "UIAppearanceHighContrastDark", Appearance(.light): "UIAppearanceLight",
        Appearance(.light, highContrast: true): "UIAppearanceHighContrastLight",
    ]

    /// The appearance a catalog name (`UIAppearanceDark`, `NSAppearanceNameAqua`, ...) or a
    /// request name (`dark`) stands for.
    public init(name: String) {
        if let match = Self.uiKitNames.first(where: { $0.value == name }) {
            self = match.key
            return
        }
        switch name {
        case "", "any", "NSAppearanceNameSystem": self.init(.any)
        case "light", "NSAppearanceNameAqua", "NSAppearanceNameVibrantLight": self.init(.light)
        case "dark", "NSAppearanceNameDarkAqua", "NSAppearanceNameVibrantDark": self.init(.dark)
        case "NSAppearanceNameAccessibilitySystem": self.init(.any, highContrast: true)
        case "NSAppearanceNameAccessibilityAqua", "NSAppearanceNameAccessibilityHighContrastAqua",
             "NSAppearanceNameAccessibilityHighContrastVibrantLight": self.init(.light, highContrast: true)
        case "NSAppearanceNameAccessibilityDarkAqua", "NSAppearanceNameAccessibilityHighContrastDarkAqua",
             "NSAppearanceNameAccessibilityHighContrastVibrantDark": self.init(.dark, highContrast: true)
        case "tinted", "ISAppearanceTintable": self.init(.tinted)
        default: self.init(.other, name: name)
        }
    }

    /// The appearance of a Contents.json entry: its `luminosity` (`light`, `dark`, `any`) and
    /// `contrast` (`high`) values; nil when a value is not one Xcode writes.
    public init?(luminosityName: String?, contrastName: String?) {
        let luminosity: Luminosity
        switch luminosityName {
        case nil, "any": luminosity = .any
        case "light": luminosity = .light
        case "dark": luminosity = .dark
        default: return nil
        }
        guard contrastName == nil || contrastName == "high" else { return nil }
        self.init(luminosity, highContrast: contrastName == "high")
    }

    /// The UIKit catalog name of this appearance, when it has one.
    public var uiKitName: String? {
        Self.uiKitNames.first { $0.key == self }?.value
    }

    /// The names a response reports.
    public var label: String {
        let base = switch luminosity {
        case .any: "any"
        case .light: "light"
        case .dark: "dark"
        case .tinted: "tinted"
        case .other: name
        }
        return highContrast ? "\(base)+high-contrast" : base
    }
}
