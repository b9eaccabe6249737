import BinaryReading
import ThemeVocabulary

/// The pixel size an image file states in its header, for the formats whose size themed reads
/// without decoding: PNG (IHDR), JPEG (the first frame header), HEIF and AVIF (`ispe`). The one
/// place the index, the catalog report and the loose-file reader get an image's size from.
public enum ImageHeader {
    public static func size(of file: ByteSpan) -> (width: Int, height: Int)? {
        switch ImageFormat.sniff(file.buffer) {
        case .png: PNG.size(of: file)
        case .jpeg: JPEG.size(of: file)
        case .heic, .avif: HEIF.size(of: file)
        default: nil
        }
    }
}
