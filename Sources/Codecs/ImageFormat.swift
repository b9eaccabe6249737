import BinaryReading

/// File formats themed recognises by their first bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp, heic, pdf, svg, binaryPlist

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
            if ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1", "avif"].contains(brand) { return .heic }
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

/// Something that can turn files of one format into bitmaps, or bitmaps into files.
///
/// Callers ask the registry rather than a concrete codec, so a new format (WebP, say) is one new
/// conformance registered at start-up, with no change where images are decoded or served.
public protocol ImageCoder: Sendable {
    var format: ImageFormat { get }
    func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool
    func decode(_ bytes: ByteSpan) throws -> Bitmap
    func canEncode(_ bitmap: Bitmap) -> Bool
    func encode(_ bitmap: Bitmap) throws -> [UInt8]
}

extension ImageCoder {
    public func canDecode(_ bytes: UnsafeRawBufferPointer) -> Bool { ImageFormat.sniff(bytes) == format }
}

/// The PNG coder, backed by `PNG`.
public struct PNGCoder: ImageCoder {
    public init() {}
    public var format: ImageFormat { .png }
    public func decode(_ bytes: ByteSpan) throws -> Bitmap { try PNG.decode(bytes) }
    public func canEncode(_ bitmap: Bitmap) -> Bool { true }
    public func encode(_ bitmap: Bitmap) throws -> [UInt8] { PNG.encode(bitmap) }
}

/// The coders themed knows, looked up by content or by target format.
public struct ImageCoderRegistry: Sendable {
    public private(set) var coders: [any ImageCoder]

    public init(_ coders: [any ImageCoder] = [PNGCoder()]) {
        self.coders = coders
    }

    /// Adds a coder; later registrations win over earlier ones for the same format.
    public mutating func register(_ coder: any ImageCoder) {
        coders.insert(coder, at: 0)
    }

    /// The coder that can decode `bytes`, if any.
    public func decoder(for bytes: UnsafeRawBufferPointer) -> (any ImageCoder)? {
        coders.first { $0.canDecode(bytes) }
    }

    /// The coder that writes `format`, if any can encode `bitmap`.
    public func encoder(for format: ImageFormat, bitmap: Bitmap) -> (any ImageCoder)? {
        coders.first { $0.format == format && $0.canEncode(bitmap) }
    }

    /// Decodes `bytes` with whichever coder recognises them.
    public func decode(_ bytes: ByteSpan) throws -> Bitmap {
        guard let coder = decoder(for: bytes.buffer) else {
            let format = ImageFormat.sniff(bytes.buffer).map { $0.rawValue } ?? "unknown"
            throw bytes.error(at: 0, "no decoder for \(format) data")
        }
        return try coder.decode(bytes)
    }

    /// Encodes `bitmap` as `format`.
    public func encode(_ bitmap: Bitmap, as format: ImageFormat) throws -> [UInt8] {
        guard let coder = encoder(for: format, bitmap: bitmap) else {
            throw FormatError("image encoder", at: 0, "no encoder for \(format.rawValue)")
        }
        return try coder.encode(bitmap)
    }
}
