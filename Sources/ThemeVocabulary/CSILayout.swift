/// The layout field of a rendition's CSI header (car-format.md 5.2): what kind of rendition it is.
public struct CSILayout: NamedCode {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let gradient = CSILayout(6)
    public static let effect = CSILayout(7)
    public static let vector = CSILayout(9)
    public static let image = CSILayout(12)
    public static let data = CSILayout(1000)
    public static let internalLink = CSILayout(1003)
    public static let packedImage = CSILayout(1004)
    public static let color = CSILayout(1009)
    public static let multisizeImage = CSILayout(1010)
    public static let iconImageStack = CSILayout(1019)
    public static let iconGroup = CSILayout(1020)
    public static let namedGradient = CSILayout(1021)

    /// assetutil's "AssetType" words, where a layout decides it.
    public static let names: KeyValuePairs<CSILayout, String> = [
        .gradient: "Gradient", .effect: "Effect", .vector: "Vector", .image: "Image", .data: "Data", .internalLink: "Internal Link",
        .packedImage: "PackedImage", .color: "Color", .multisizeImage: "MultiSized Image", .iconImageStack: "Icon Image Stack",
        .iconGroup: "Icon Group", .namedGradient: "Named Gradient",
    ]
}
