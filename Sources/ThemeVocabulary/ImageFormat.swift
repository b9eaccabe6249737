/// File formats themed recognises by their first bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp, heic, avif, pdf, svg, binaryPlist

    public var fileExtension: String {
        switch self {
        case .binaryPlist: "plist"
        default: rawValue
        }
    }

    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .heic: "image/heic"
        case .avif: "image/avif"
        case .pdf: "application/pdf"
        case .svg: "image/svg+xml"
        case .binaryPlist: "application/x-plist"
        }
    }

    /// The format whose magic bytes `bytes` start with, or nil.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && magic.indices.allSatisfy { bytes[offset + $0] == magic[$0] }
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("ftyp".utf8), at: 4) && bytes.count >= 12 {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            if ["avif", "avis"].contains(brand) { return .avif }
            if ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].contains(brand) { return .heic }
        }
        if starts(Array("%PDF".utf8)) { return .pdf }
        if starts(Array("bplist00".utf8)) { return .binaryPlist }
        // SVG: XML text whose first element is <svg>, possibly after a declaration and comments.
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self)
        let trimmed = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if trimmed.hasPrefix("<svg") || (trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<!--")) && head.contains("<svg") { return .svg }
        return nil
    }

    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.withUnsafeBytes { sniff($0) }
    }
}
