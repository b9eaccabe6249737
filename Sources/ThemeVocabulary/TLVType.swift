/// The type of a TLV record after a CSI header (car-format.md 5.3).
public struct TLVType: NamedCode {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let slices = TLVType(1001)
    public static let metrics = TLVType(1003)
    public static let composition = TLVType(1004)
    public static let uti = TLVType(1005)
    public static let exifOrientation = TLVType(1006)
    public static let bytesPerRow = TLVType(1007)
    public static let internalLink = TLVType(1010)
    public static let layerReferences = TLVType(1012)

    public static let names: KeyValuePairs<TLVType, String> = [
        .slices: "slices", .metrics: "metrics", .composition: "composition", .uti: "uti", .exifOrientation: "exif-orientation",
        .bytesPerRow: "bytes-per-row", .internalLink: "internal-link", .layerReferences: "layer-references",
    ]
}
