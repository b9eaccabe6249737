/// The colour gamut a variant is for (car-format.md 4.2, attribute 24).
public struct Gamut: NamedCode {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let sRGB = Gamut(0)
    public static let displayP3 = Gamut(1)

    public static let names: KeyValuePairs<Gamut, String> = [.sRGB: "srgb", .displayP3: "p3"]

    /// assetutil's spelling (`sRGB`, `P3`) in its DisplayGamut field.
    public var assetutilName: String { self == .displayP3 ? "P3" : self == .sRGB ? "sRGB" : name }

    /// `gamut=` of a request and Contents.json's `display-gamut`, in any case: `srgb`, `p3`,
    /// `display-p3`.
    public init?(requestName: String) {
        switch requestName.lowercased() {
        case "srgb": self = .sRGB
        case "p3", "display-p3": self = .displayP3
        default: return nil
        }
    }
}
