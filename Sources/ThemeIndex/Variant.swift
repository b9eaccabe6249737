import ThemeVocabulary

/// What a variant is: a colour, an image or a piece of data from a catalog, or a loose file of
/// a bundle.
public enum AssetKind: String, Sendable, CaseIterable {
    case color, image, data, file
}

/// Every trait a variant can be keyed by (lookup-rules.md 4.1), as stored in the index.
public struct VariantTraits: Sendable, Hashable {
    public var idiom = Idiom.universal
    /// 1, 2, 3, or 0 for variants without a scale.
    public var scale = 0
    public var subtype = 0
    public var sizeClassHorizontal = SizeClass.any
    public var sizeClassVertical = SizeClass.any
    /// The least memory the device needs, in whole gigabytes (0: any).
    public var memoryGB = 0
    public var graphics = 0
    public var gamut = Gamut.sRGB
    public var direction = LayoutDirection.neutral
    public var deploymentTarget = 0
    public var appearance = Appearance.any
    /// Localization ('' = not localized); for loose files the `.lproj` folder ('' = global).
    public var locale = ""
    /// Loose files: the lower-cased extension and the platform suffix (`iphoneos`, `macos`, ...).
    public var fileExtension = ""
    public var platform = ""
    /// Members of a multisize set (an app icon's 16, 32, ... pt images): the member's width in
    /// points, from the set's sizes; 0 for every other variant.
    public var pointSize = 0

    public init() {}
}

/// Where a variant's content is, as the content layer reads it.
public enum ContentLocation: Sendable, Hashable {
    /// A rendition of the source's catalog, by its position in the RENDITIONS tree.
    case rendition(Int)
    /// An entry of the source catalog's legacy COLORS tree: the row holds its value.
    case legacyColor(Int)
    /// A file on disk: an image or data file of an `.xcassets` folder, or a bundle's loose file.
    case file(String)
    /// A colour of an `.xcassets` folder: the row holds its value.
    case inline
}

/// One indexed variant of a named asset, with where its content lives.
public struct Variant: Sendable {
    public var id: Int64 = 0
    public var kind: AssetKind
    public var name: String
    public var traits: VariantTraits
    /// Colours only: the value, or for a colour of an `.xcassets` folder that names a system
    /// colour (`labelColor`), that name.
    public var color: ColorValue?
    public var systemColor: String?
    /// Images: pixel size when known, and the served format (png, pdf, svg, jpeg, heic, ...).
    public var pixelWidth = 0
    public var pixelHeight = 0
    public var format = ""
    public var location = ContentLocation.inline
    /// Names the variant's content before it is encoded, the same on every machine: the SHA-256
    /// of a loose file's bytes; for a catalog rendition, the catalog's SHA-256 and the rendition's
    /// position. The content store keeps the encoded bytes under this key.
    public var contentKey = ""
    /// Drawn mirrored when it answers a request for the opposite direction.
    public var isFlippable = false
    /// The final tie-break between otherwise equal variants.
    public var sortKey = ""
    /// Design tokens: the token this colour is an alias of (its path), for exports that keep
    /// references ('' when it is a value of its own).
    public var aliasOf = ""
    /// Design tokens: a colour of another space than sRGB and Display P3, as written (its space,
    /// then its components and alpha, tab-separated; `none` for a missing component), kept beside
    /// the converted value ('' otherwise).
    public var tokenColor = ""
    /// Design tokens: the contexts of the resolver's modifiers that theme.json maps to no trait,
    /// where they are not the default (`brand=portal`, in the resolver's order, `&` between);
    /// '' for the defaults and for everything else (`TraitRequest.contexts` asks for one).
    public var contexts = ""

    public init(kind: AssetKind, name: String, traits: VariantTraits) {
        self.kind = kind
        self.name = name
        self.traits = traits
    }
}
