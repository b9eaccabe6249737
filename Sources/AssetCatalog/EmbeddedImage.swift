import BinaryReading
import Codecs

extension Rendition {
    /// How much of a compressed embedded image is decoded to find its size: headers come first,
    /// but a JPEG's metadata segments (EXIF, an ICC profile) may stand before its frame header.
    static let embeddedHeaderBytes = 256 << 10

    /// The pixel size of an image stored whole in the rendition (JPEG, HEIF, AVIF, PNG), read from
    /// the image's own header: the CSI header says 0 x 0 for JPEG and HEIF renditions
    /// (car-format.md 5.4, 7.2). Nil for other renditions, and when the header cannot be read.
    public var embeddedPixelSize: (width: Int, height: Int)? {
        guard case .rawData(let bytes, let compressed) = content else { return nil }
        let head: ByteSpan
        if compressed {
            guard let prefix = try? LZFSE.decompressPrefix(bytes.buffer, count: Self.embeddedHeaderBytes) else { return nil }
            head = ByteSpan(copying: prefix, structure: "embedded image")
        } else {
            head = bytes
        }
        return ImageHeader.size(of: head)
    }
}
