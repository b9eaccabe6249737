import BlobStore
import Codecs
import Foundation
import Hashing

/// The compressed encodings content is sent in when a client accepts them (RFC 9110 8.4.1).
public enum ContentCoding: String, Sendable, CaseIterable {
    case brotli = "br"
    case gzip

    /// The encodings worth applying to a media type: text, JSON, XML, SVG, PDF and the like;
    /// images and fonts that are compressed already are sent as they are.
    public static func isCompressible(_ contentType: String) -> Bool {
        // Read as bytes: every routed answer is asked, and Foundation's trimming cost a tenth of a
        // small answer's time.
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var media = Array(contentType.utf8.prefix { $0 != UInt8(ascii: ";") })
        while let last = media.last, isBlank(last) { media.removeLast() }
        let start = media.firstIndex { !isBlank($0) } ?? media.endIndex
        let type = String(decoding: media[start...].map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
        return type.hasPrefix("text/") || type.hasSuffix("+json") || type.hasSuffix("+xml") || compressibleTypes.contains(type)
    }

    private static let compressibleTypes: Set<String> = [
        "application/json", "application/xml", "application/javascript", "application/pdf", "image/svg+xml", "application/x-plist", "font/ttf", "font/otf",
    ]

    /// The coding `Accept-Encoding` prefers of those we make (brotli first on equal weight),
    /// or nil for identity. Codings with q=0 are refused; `*` stands for the rest.
    public static func preferred(byAcceptEncoding header: String) -> ContentCoding? {
        var weights: [String: Double] = [:]
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { Self.trimmed($0).lowercased() }
            guard let name = parts.first, !name.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            weights[name] = weight
        }
        let candidates = allCases.map { coding in (coding, weights[coding.rawValue] ?? (coding == .gzip ? weights["x-gzip"] : nil) ?? weights["*"] ?? 0) }
        guard let best = candidates.max(by: { $0.1 < $1.1 }), best.1 > 0 else { return nil }
        return best.0
    }

    /// `part` without the spaces and tabs around it (HTTP's optional whitespace): every
    /// computed answer reads this header, and Foundation's trimming took 1.6% of a palette.
    private static func trimmed(_ part: Substring) -> Substring {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let bytes = part.utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return Substring(bytes[first...last])
    }

    /// The media type of a file of this encoding.
    public var mediaType: String {
        switch self {
        case .gzip: "application/gzip"
        case .brotli: "application/x-brotli"
        }
    }

    /// Compresses `bytes`. The output depends only on the input (no times or names in headers),
    /// so every machine makes the same encoding and so the same ETag.
    public func encode(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { input in
            switch self {
            case .gzip: Zlib.gzip(input, level: 9)
            case .brotli: Brotli.compress(input, quality: 9)
            }
        }
    }

    /// Decompresses bytes made by `encode` (to at most `limit` bytes).
    public func decode(_ bytes: [UInt8], limit: Int) throws -> [UInt8] {
        try bytes.withUnsafeBytes { input in
            switch self {
            case .gzip: try Zlib.decompress(input, limit: limit)
            case .brotli: try Brotli.decompress(input, limit: limit)
            }
        }
    }
}

extension ContentStore {
    /// The blob alias of a content's encoding.
    static func key(of digest: Digest, _ coding: ContentCoding) -> String { "\(digest.hex).\(coding.rawValue)" }

    /// `content` in `coding` if that encoding was made and checked already (no I/O).
    public func encoded(_ content: Content, as coding: ContentCoding) -> Content? {
        blobs.verifiedBlob(forKey: Self.key(of: content.digest, coding)).map { Content($0) }
    }

    /// Makes (once per content; later calls find it stored) `content` in `coding` on the worker
    /// pool. When compressing does not make it smaller, the encoding is the identity content
    /// itself (same digest): callers send it without `Content-Encoding`.
    public func encode(_ content: Content, as coding: ContentCoding, completion: @escaping Completion) {
        let key = Self.key(of: content.digest, coding)
        flight(key, completion: completion) { [self] in
            if let blob = blobs.blob(forKey: key) { return Content(blob) }
            let identity = try bytes(of: content)
            let encoded = coding.encode(identity)
            counters.withLock { $0.encodings += 1 }
            guard encoded.count < identity.count else { return store(identity, contentType: content.contentType, keys: [key]) }
            // Labelled as what the bytes are, so that `/blobs/` serves them truthfully by hash.
            return store(encoded, contentType: coding.mediaType, keys: [key])
        }
    }

    /// Stores bytes made elsewhere (a JSON answer) in the background so that its `/blobs/` URL
    /// answers; nothing happens when the blob is there already or the workers are busy. The
    /// bytes were hashed for their ETag already: the worker only writes them.
    public func keepInBackground(_ content: Content) {
        guard case .bytes(let bytes) = content.body, blobs.verifiedBlob(content.digest) == nil else { return }
        workers.submit { [self] in _ = store(bytes, contentType: content.contentType, keys: [], digest: content.digest) }
    }
}
