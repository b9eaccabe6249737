import BinaryReading
import ThemeVocabulary

/// The 184-byte header that starts every rendition (tag `CTSI`, stored `ISTC`), its TLVs and payload.
public struct CSIHeader: Sendable {
    public var flags: UInt32
    public var width: Int
    public var height: Int
    public var scaleFactor: Int
    /// Pixel format tag as a readable four-character code (`ARGB`, `GA8 `, `PDF `, ...), empty for 0.
    public var pixelFormat: String
    public var colorSpace: ColorSpace
    public var layout: CSILayout
    /// The original file name (`icon@2x.png`, `ZZZZPackedAsset-2.0.1-gamut0`).
    public var name: String
    public var tlvLength: Int
    public var renditionLength: Int

    public static let size = 184

    init(_ value: ByteSpan) throws {
        guard value.has("ISTC") else { throw value.error(at: 0, "expected the CSI tag ISTC, found \(try value.fourCC(0))") }
        try value.require(0, Self.size, "CSI header")
        flags = try value.u32le(8)
        width = try value.int32le(12)
        height = try value.int32le(16)
        scaleFactor = try value.int32le(20)
        let format = try value.u32le(24)
        // Tags are little-endian numbers whose big-endian reading is the name.
        pixelFormat = format == 0 ? "" : String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: format >> $0) }, as: UTF8.self)
        colorSpace = ColorSpace(Int(try value.u32le(28) & 0x0F))
        layout = CSILayout(Int(try value.u16le(36)))
        name = try value.paddedString(40, length: 128)
        tlvLength = try value.int32le(168)
        renditionLength = try value.int32le(180)
    }

    /// Bytes per pixel of the bitmap formats, nil for the others.
    public var bytesPerPixel: Int? {
        switch pixelFormat {
        case "ARGB": 4
        case "GA8 ": 2
        case "RGBW": 8
        case "GA16": 4
        case "RGB5": 2
        default: nil
        }
    }

    public var isTemplate: Bool { flags & (1 << 3) != 0 }
    /// Drawn mirrored for the opposite layout direction (car-format.md 5.2, bit 6).
    public var isFlippable: Bool { flags & (1 << 6) != 0 }
    public var isVectorBased: Bool { flags & (1 << 2) != 0 }
}

/// One TLV record after the CSI header.
public struct TLV: Sendable {
    public var type: TLVType
    public var value: ByteSpan

    static func parse(_ span: ByteSpan) throws -> [TLV] {
        var records: [TLV] = []
        var cursor = 0
        while cursor < span.count {
            let type = try span.int32le(cursor)
            let length = try span.int32le(cursor + 4)
            records.append(TLV(type: TLVType(type), value: try span.slice(cursor + 8, length, as: "TLV \(type)")))
            cursor += 8 + length
        }
        return records
    }
}
