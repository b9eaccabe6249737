/// What a variant is: a colour, an image or a piece of data from a catalog, or a loose file of
/// a bundle.
public enum AssetKind: String, Sendable, CaseIterable {
    case color, image, data, file
}

/// The appearance of a variant or a request as the lookup rules see it: a luminosity and a
/// contrast (lookup-rules.md 4.2). Catalog appearance names map onto these; unknown names are
/// kept as `.other` and only answer requests for that exact name.
public struct Appearance: Sendable, Hashable {
    public enum Luminosity: Int, Sendable { case any = 0, light = 1, dark = 2, tinted = 3, other = 9 }
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

    /// The appearance a catalog name (`UIAppearanceDark`, `NSAppearanceNameAqua`, ...) or a
    /// request name (`dark`) stands for.
    public init(name: String) {
        switch name {
        case "", "any", "UIAppearanceAny", "NSAppearanceNameSystem": self.init(.any)
        case "light", "UIAppearanceLight", "NSAppearanceNameAqua", "NSAppearanceNameVibrantLight": self.init(.light)
        case "dark", "UIAppearanceDark", "NSAppearanceNameDarkAqua", "NSAppearanceNameVibrantDark": self.init(.dark)
        case "UIAppearanceHighContrastAny", "NSAppearanceNameAccessibilitySystem": self.init(.any, highContrast: true)
        case "UIAppearanceHighContrastLight", "NSAppearanceNameAccessibilityAqua", "NSAppearanceNameAccessibilityHighContrastAqua",
             "NSAppearanceNameAccessibilityHighContrastVibrantLight": self.init(.light, highContrast: true)
        case "UIAppearanceHighContrastDark", "NSAppearanceNameAccessibilityDarkAqua", "NSAppearanceNameAccessibilityHighContrastDarkAqua",
             "NSAppearanceNameAccessibilityHighContrastVibrantDark": self.init(.dark, highContrast: true)
        case "tinted", "ISAppearanceTintable": self.init(.tinted)
        default: self.init(.other, name: name)
        }
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

/// Every trait a variant can be keyed by (lookup-rules.md 4.1), as stored in the index.
public struct VariantTraits: Sendable, Hashable {
    public var idiom = 0
    public var scale = 0
    public var subtype = 0
    public var sizeClassHorizontal = 0
    public var sizeClassVertical = 0
    public var memoryGB = 0
    public var graphics = 0
    /// 0 sRGB, 1 Display P3.
    public var gamut = 0
    /// 0 neutral, 4 left-to-right, 5 right-to-left.
    public var direction = 0
    public var deploymentTarget = 0
    public var appearance = Appearance.any
    /// Localization ('' = not localized); for loose files the `.lproj` folder ('' = global).
    public var locale = ""
    /// Loose files: the lower-cased extension and the platform suffix (`iphoneos`, `macos`, ...).
    public var fileExtension = ""
    public var platform = ""

    public init() {}
}

/// One indexed variant of a named asset, with where its content lives.
public struct Variant: Sendable {
    public var id: Int64 = 0
    public var kind: AssetKind
    public var name: String
    public var traits: VariantTraits
    /// Colours: the colour space name and straight components.
    public var colorSpace = ""
    public var components: [Double] = []
    /// Images: pixel size when known, and the served format (png, pdf, svg, jpeg, heic, ...).
    public var pixelWidth = 0
    public var pixelHeight = 0
    public var format = ""
    /// Where the bytes are: a rendition position for catalogs, a file path for folders.
    public var location = ""
    /// Changes exactly when the variant's content changes.
    public var etag = ""
    /// Drawn mirrored when it answers a request for the opposite direction.
    public var isFlippable = false
    /// The final tie-break between otherwise equal variants.
    public var sortKey = ""

    public init(kind: AssetKind, name: String, traits: VariantTraits) {
        self.kind = kind
        self.name = name
        self.traits = traits
    }
}
