import BinaryReading
import ThemeVocabulary

/// One concrete variant of an asset: its key, CSI header, TLVs and content.
public struct Rendition: Sendable {
    /// Position in the RENDITIONS tree (key order), counting unreadable renditions too.
    public var index: Int
    public var key: RenditionKey
    /// The asset name: the facet's name, or the CSI name where no facet links to it.
    public var name: String
    public var header: CSIHeader
    public var tlvs: [TLV]
    public var content: RenditionContent
    /// Payload bytes after the TLVs, bounded by the block (never by `renditionLength`).
    public var payload: ByteSpan
    /// Size of the whole rendition block in the file.
    public var sizeOnDisk: Int
    /// The whole value block (CSI header, TLVs, payload): what assetutil's `SHA1Digest` hashes.
    public var value: ByteSpan

    init(index: Int, key: RenditionKey, value: ByteSpan) throws {
        let value = value.named("CSI header")
        self.index = index
        self.key = key
        header = try CSIHeader(value)
        let tlvBytes = try value.slice(CSIHeader.size, header.tlvLength, as: "CSI TLVs")
        tlvs = try TLV.parse(tlvBytes)
        payload = try value.suffix(from: CSIHeader.size + header.tlvLength, as: "rendition payload")
        content = try RenditionContent.parse(payload, layout: header.layout, tlvs: tlvs)
        sizeOnDisk = value.count
        self.value = value
        name = header.name
    }

    /// The TLV 1007 row stride, if present.
    public var bytesPerRow: Int? {
        tlvs.first { $0.type == .bytesPerRow }.flatMap { try? $0.value.int32le(0) }
    }

    public var isPackedAtlas: Bool { header.layout == .packedImage }

    /// CoreUI's names for the State attribute (10) and the Value attribute (6), as assetutil
    /// prints them; other numbers print as numbers.
    public static let stateNames = [0: "Normal", 1: "Rollover", 2: "Pressed", 3: "Inactive", 4: "Disabled", 5: "DeeplyPressed"]
    public static let valueNames = [0: "Off", 1: "On", 2: "Mixed"]

    /// The kind of asset, in assetutil's words.
    public var assetType: String {
        switch header.layout {
        case .gradient, .effect, .vector, .data, .packedImage, .color, .multisizeImage, .iconImageStack, .iconGroup, .namedGradient:
            header.layout.name
        default:
            if case .rawData = content, header.pixelFormat == "DATA" { "Data" } else { "Image" }
        }
    }
}
