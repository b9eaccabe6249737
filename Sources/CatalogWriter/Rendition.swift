import BinaryReading
import Codecs
import Foundation
import ThemeBundle
import ThemeVocabulary

/// One rendition as CoreUI stores it: a 184-byte CSI header, TLVs and a payload
/// (car-format.md 5), built from an `.xcassets` entry.
struct Rendition {
    /// The part (key attribute 2) Xcode gives named colours and named images or data.
    static let colorPart = 217, imagePart = 181

    var part: Int
    var scale: Int
    var bytes: [UInt8]

    init(entry: XCAssets.Entry) throws {
        switch entry.kind {
        case .color:
            guard let color = entry.color else { throw CatalogCompiler.Failure(description: "\(entry.name): colour entry without a colour") }
            if let reference = color.systemReference {
                throw CatalogCompiler.Failure(description: "\(entry.name).colorset: field \"color.reference\" (\(reference)): system colour references cannot be compiled")
            }
            part = Self.colorPart
            scale = 0
            let payload = tag("COLR") + le32(1) + le32(color.colorSpace.rawValue) + le32(color.components.count)
                + color.components.flatMap { le64($0.bitPattern) }
            bytes = Self.csi(name: entry.name, layout: .color, pixelFormat: nil, colorSpace: .generic, width: 0, height: 0, scale: 0, flags: 0,
                             tlvs: Self.commonTLVs, payload: payload)
        case .image, .data:
            guard let file = entry.file else { throw CatalogCompiler.Failure(description: "\(entry.name): entry without a file") }
            let data: [UInt8]
            do { data = try ByteStorage(mapping: file).bytes } catch {
                throw CatalogCompiler.Failure(description: "\(file): cannot be read (\(error))")
            }
            let fileName = (file as NSString).lastPathComponent
            part = Self.imagePart
            if entry.kind == .data {
                scale = 0
                bytes = Self.csi(name: fileName, layout: .data, pixelFormat: "DATA", colorSpace: .generic, width: 0, height: 0, scale: 0, flags: 0,
                                 tlvs: Self.commonTLVs, payload: Self.rawData(data))
                return
            }
            switch ImageFormat.sniff(data) {
            case .png:
                let bitmap: Bitmap
                do { bitmap = try PNG.decode(ByteSpan(copying: data)) } catch {
                    throw CatalogCompiler.Failure(description: "\(file): field \"filename\": the PNG cannot be decoded (\(error))")
                }
                scale = max(entry.scale, 1)
                let compressed = LZFSEEncoder.compress(bitmap.pixels)
                let payload = tag("CELM") + le32(0) + le32(4) + le32(compressed.count) + compressed
                let tlvs = Self.commonTLVs + Self.tlv(.bytesPerRow, le32(bitmap.width * 4))
                bytes = Self.csi(name: fileName, layout: .image, pixelFormat: "ARGB", colorSpace: .sRGB, width: bitmap.width, height: bitmap.height,
                                 scale: scale, flags: 1 << 4, tlvs: tlvs, payload: payload)
            case .pdf, .svg:
                scale = entry.scale
                bytes = Self.csi(name: fileName, layout: .vector, pixelFormat: ImageFormat.sniff(data) == .pdf ? "PDF " : "SVG ", colorSpace: .generic,
                                 width: 0, height: 0, scale: 0, flags: 1 << 2, tlvs: Self.commonTLVs, payload: Self.rawData(data))
            case .jpeg, .heic, .avif:
                scale = max(entry.scale, 1)
                bytes = Self.csi(name: fileName, layout: .image, pixelFormat: ImageFormat.sniff(data) == .jpeg ? "JPEG" : "HEIF", colorSpace: .sRGB,
                                 width: 0, height: 0, scale: scale, flags: 1 << 4, tlvs: Self.commonTLVs, payload: Self.rawData(data))
            default:
                throw CatalogCompiler.Failure(description: "\(file): field \"filename\": not a PNG, JPEG, HEIC, PDF or SVG image")
            }
        }
    }

    /// Composition (normal blending, opacity 1) and EXIF orientation 1, as every rendition has.
    static let commonTLVs = tlv(.composition, le32(0) + le32(Int(Float(1).bitPattern))) + tlv(.exifOrientation, le32(1))

    static func tlv(_ type: TLVType, _ value: [UInt8]) -> [UInt8] { le32(type.rawValue) + le32(value.count) + value }

    static func rawData(_ data: [UInt8]) -> [UInt8] { tag("RAWD") + le32(0) + le32(data.count) + data }

    static func csi(name: String, layout: CSILayout, pixelFormat: String?, colorSpace: ColorSpace, width: Int, height: Int, scale: Int,
                    flags: Int, tlvs: [UInt8], payload: [UInt8]) -> [UInt8] {
        var header = tag("CTSI") + le32(1) + le32(flags) + le32(width) + le32(height) + le32(scale * 100)
        header += pixelFormat.map(tag) ?? le32(0)
        header += le32(colorSpace.rawValue) + le32(0) + le16(layout.rawValue) + le16(0) + fixed(name, 128)
        header += le32(tlvs.count) + le32(1) + le32(0) + le32(payload.count)
        return header + tlvs + payload
    }
}
