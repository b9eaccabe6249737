import CVips
import Foundation
import ThemeVocabulary

/// Decoding, resizing, rasterizing and encoding through libvips (Debian's libvips-dev, with
/// libwebp, libheif for AVIF and HEIC, librsvg, poppler and lcms2).
///
/// Every image is checked on its header before a pixel is decoded: a decompression bomb (huge
/// dimensions in a few bytes) is refused without allocating. Output goes to sRGB (a Display P3
/// image converts through its ICC profile), resized with Lanczos-3 (`ImageRequest.Fit`).
public struct VipsCoder: ImageCoder {
    public let name = "libvips"
    public let decodes: Set<ImageFormat> = [.png, .jpeg, .gif, .webp, .heic, .avif, .pdf, .svg]
    public let encodes: Set<ImageFormat> = [.png, .webp, .avif, .jpeg]
    /// Lossy quality of WebP, AVIF and JPEG (libvips' default for WebP, as `cwebp -q 75`).
    public var quality = 75
    /// WebP and AVIF CPU effort, 0-6 and 0-9: 4 is cwebp's default.
    public var effort = 4
    /// PNG and vector sources become lossless WebP (pixels round-trip exactly); everything else,
    /// and AVIF always, is lossy at `quality`.
    public var losslessFromPNG = true

    public init() {}

    /// libvips is started once per process, on first use.
    static let started: Bool = themed_vips_start() == 0

    public func transcode(_ input: [UInt8], from format: ImageFormat, _ request: ImageRequest, limits: ImageLimits) throws(ImageCoderError) -> CodedImage {
        guard Self.started else { throw .unsupported("libvips, which did not start") }
        guard let output = request.format, encodes.contains(output) else { throw .unsupported("output \(request.format?.rawValue ?? "none")") }
        let result: Result<[UInt8], ImageCoderError> = input.withUnsafeBytes { buffer in
            Result { () throws(ImageCoderError) -> [UInt8] in
                var images = Pipeline()
                defer { images.release() }
                var image = try images.keep(load(buffer, format: format, scale: request.scale, limits: limits), format: format)
                // Resized first: the colour conversion (through lcms for an ICC profile) then
                // runs on the pixels that are kept, not on every source pixel.
                if let plan = resizePlan(of: image, request) {
                    guard plan.scaled.width * plan.scaled.height <= limits.maxPixels else {
                        throw .tooLarge(width: plan.scaled.width, height: plan.scaled.height, limit: limits.maxPixels)
                    }
                    image = try images.keep(themed_vips_decode(image), format: format)
                    let horizontal = Double(plan.scaled.width) / Double(themed_vips_width(image))
                    let vertical = Double(plan.scaled.height) / Double(themed_vips_height(image))
                    image = try images.keep(themed_vips_resize(image, horizontal, vertical), format: format)
                    if let box = plan.crop {
                        // Centred; the resize may land a pixel off its target, never short of the box.
                        let left = max(0, (Int(themed_vips_width(image)) - box.width) / 2)
                        let top = max(0, (Int(themed_vips_height(image)) - box.height) / 2)
                        image = try images.keep(themed_vips_crop(image, Int32(left), Int32(top), Int32(box.width), Int32(box.height)), format: format)
                    }
                }
                image = try images.keep(themed_vips_to_srgb(image, request.fromDisplayP3 ? 1 : 0), format: format)
                if output == .jpeg { image = try images.keep(themed_vips_flatten(image), format: format) }
                // A quality asked for (`q=`) means a lossy WebP, as for a JPEG or AVIF.
                let lossless = request.quality == nil && output == .webp && losslessFromPNG && (format == .png || Self.isVector(format))
                return try save(image, as: output, quality: request.quality ?? quality, lossless: lossless, format: format)
            }
        }
        return CodedImage(bytes: try result.get(), format: output)
    }

    /// The header of `buffer`, refused when its pixel count passes the limit. Vectors are drawn
    /// at the request's scale.
    private func load(_ buffer: UnsafeRawBufferPointer, format: ImageFormat, scale: Double, limits: ImageLimits) throws(ImageCoderError) -> OpaquePointer? {
        themed_vips_clear_error()
        guard let base = buffer.baseAddress, buffer.count > 0 else { throw .broken(format: format.rawValue, reason: "no bytes") }
        let image = Self.isVector(format)
            ? themed_vips_load_vector(base, buffer.count, format == .pdf ? 1 : 0, scale)
            : themed_vips_load(base, buffer.count)
        guard let image else { return nil }
        let (width, height) = (Int(themed_vips_width(image)), Int(themed_vips_height(image)))
        guard width > 0, height > 0, width <= limits.maxPixels / max(height, 1) else {
            themed_vips_release(image)
            throw .tooLarge(width: width, height: height, limit: limits.maxPixels)
        }
        return image
    }

    /// What `w=`, `h=` and `fit=` make of the image: the size it is scaled to, and for
    /// `fit=cover` the box then cut from its centre. One side alone scales the other; both fit
    /// inside the box (`contain`), fill it and overflow (`cover`), or stretch to it (`fill`). nil
    /// when neither is asked.
    func resizePlan(of image: OpaquePointer, _ request: ImageRequest) -> (scaled: (width: Int, height: Int), crop: (width: Int, height: Int)?)? {
        Self.resizePlan(width: Int(themed_vips_width(image)), height: Int(themed_vips_height(image)), request)
    }

    static func resizePlan(width: Int, height: Int, _ request: ImageRequest) -> (scaled: (width: Int, height: Int), crop: (width: Int, height: Int)?)? {
        let (width, height) = (Double(width), Double(height))
        func scaled(_ factor: Double) -> (width: Int, height: Int) {
            (max(1, Int((width * factor).rounded())), max(1, Int((height * factor).rounded())))
        }
        switch (request.width, request.height) {
        case (nil, nil): return nil
        case (let w?, nil): return (scaled(Double(w) / width), nil)
        case (nil, let h?): return (scaled(Double(h) / height), nil)
        case (let w?, let h?):
            switch request.fit {
            case .contain: return (scaled(min(Double(w) / width, Double(h) / height)), nil)
            case .fill: return ((w, h), nil)
            case .cover:
                let size = scaled(max(Double(w) / width, Double(h) / height))
                return ((max(w, size.width), max(h, size.height)), (w, h))
            }
        }
    }

    private func save(_ image: OpaquePointer, as output: ImageFormat, quality: Int, lossless: Bool, format: ImageFormat) throws(ImageCoderError) -> [UInt8] {
        let code: Int32 = switch output {
        case .webp: Int32(THEMED_VIPS_WEBP.rawValue)
        case .avif: Int32(THEMED_VIPS_AVIF.rawValue)
        case .jpeg: Int32(THEMED_VIPS_JPEG.rawValue)
        default: Int32(THEMED_VIPS_PNG.rawValue)
        }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard themed_vips_save(image, code, Int32(quality), lossless ? 1 : 0, Int32(effort), &buffer, &length) == 0, let buffer else {
            throw .broken(format: format.rawValue, reason: Self.lastError())
        }
        defer { themed_vips_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    static func isVector(_ format: ImageFormat) -> Bool { format == .pdf || format == .svg }

    /// Whether a GIF or WebP has more than one frame (served as stored: animation is kept).
    public static func isAnimated(_ bytes: [UInt8]) -> Bool {
        guard started else { return false }
        return bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let image = themed_vips_load(base, buffer.count) else {
                themed_vips_clear_error()
                return false
            }
            defer { themed_vips_release(image) }
            return themed_vips_pages(image) > 1
        }
    }

    static func lastError() -> String {
        let text = themed_vips_error().map { String(cString: $0) } ?? ""
        themed_vips_clear_error()
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        return line.isEmpty ? "libvips could not read it" : line
    }

    /// The images of one transcode, released together at its end.
    private struct Pipeline {
        var images: [OpaquePointer] = []

        mutating func keep(_ image: OpaquePointer?, format: ImageFormat) throws(ImageCoderError) -> OpaquePointer {
            guard let image else { throw .broken(format: format.rawValue, reason: VipsCoder.lastError()) }
            images.append(image)
            return image
        }

        func release() { for image in images { themed_vips_release(image) } }
    }
}
