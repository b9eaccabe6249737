import ThemeVocabulary

/// Caps on untrusted images, checked on the header before any pixel is decoded.
public struct ImageLimits: Sendable, Equatable {
    /// The most pixels an image may have, decoded or produced.
    public var maxPixels: Int
    /// The largest width or height a client may ask for (`w=`, `h=`).
    public var maxDimension: Int

    public init(maxPixels: Int = 40_000_000, maxDimension: Int = 4096) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
    }
}

/// Why an image could not be made. `broken` and `tooLarge` are the file's fault (422); the
/// request was checked before (400).
public enum ImageCoderError: Error, Equatable, CustomStringConvertible {
    /// No coder decodes this input or encodes this output.
    case unsupported(String)
    /// The header says more pixels than the limits allow: refused before decoding.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// The bytes are not a valid image of their format.
    case broken(format: String, reason: String)

    public var description: String {
        switch self {
        case .unsupported(let what): "no coder for \(what)"
        case .tooLarge(let width, let height, let limit): "the image is \(width) x \(height) pixels, more than the limit of \(limit)"
        case .broken(let format, let reason): "the \(format) cannot be decoded: \(reason)"
        }
    }
}

/// The bytes a coder made and their format.
public struct CodedImage: Sendable {
    public var bytes: [UInt8]
    public var format: ImageFormat
}

/// One coder plugin (seed 004, after SDWebImage's): the formats it reads and writes, and the
/// work itself. The registry asks each in turn.
public protocol ImageCoder: Sendable {
    var name: String { get }
    var decodes: Set<ImageFormat> { get }
    var encodes: Set<ImageFormat> { get }
    /// `input` (sniffed as `format`) made into what `request` asks.
    func transcode(_ input: [UInt8], from format: ImageFormat, _ request: ImageRequest, limits: ImageLimits) throws(ImageCoderError) -> CodedImage
}

extension ImageCoder {
    public func handles(_ input: ImageFormat, to output: ImageFormat) -> Bool {
        decodes.contains(input) && encodes.contains(output)
    }
}
