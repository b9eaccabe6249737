/// The colour space of a colour rendition (car-format.md 5.5) or a Contents.json colour.
public struct ColorSpace: NamedCode {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let generic = ColorSpace(0)
    public static let sRGB = ColorSpace(1)
    public static let gray = ColorSpace(2)
    public static let displayP3 = ColorSpace(3)
    public static let extendedSRGB = ColorSpace(4)
    public static let extendedLinearSRGB = ColorSpace(5)
    public static let extendedGray = ColorSpace(6)

    /// The names the index stores and responses print.
    public static let names: KeyValuePairs<ColorSpace, String> = [
        .generic: "generic", .sRGB: "srgb", .gray: "gray", .displayP3: "display-p3",
        .extendedSRGB: "extended-srgb", .extendedLinearSRGB: "extended-linear-srgb", .extendedGray: "extended-gray",
    ]

    /// The name of an unknown id, so that it reads back as the same id.
    public var name: String {
        Self.names.first { $0.key == self }?.value ?? "colorspace-\(rawValue)"
    }

    /// A stored name (`srgb`, `colorspace-9`); nil for anything else.
    public init?(storedName: String) {
        if let match = Self.names.first(where: { $0.value == storedName }) {
            self = match.key
        } else if storedName.hasPrefix("colorspace-"), let id = Int(storedName.dropFirst(11)) {
            self.init(id)
        } else {
            return nil
        }
    }

    /// Contents.json `color-space` values as Xcode writes them; others are sRGB, as Xcode reads them.
    public init(assetCatalogName name: String) {
        self = switch name {
        case "display-p3": .displayP3
        case "gray-gamma-22": .gray
        case "extended-srgb": .extendedSRGB
        case "extended-linear-srgb": .extendedLinearSRGB
        case "extended-gray": .extendedGray
        default: .sRGB
        }
    }

    /// Components outside 0...1 are meaningful (extended spaces) rather than clipped.
    public var isExtended: Bool { self == .extendedSRGB || self == .extendedLinearSRGB || self == .extendedGray }
}
