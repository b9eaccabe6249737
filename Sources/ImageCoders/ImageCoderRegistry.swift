import ThemeVocabulary

/// The coders the serve path uses, first match wins: our own PNG path for what it can do, then
/// libvips for everything else.
public struct ImageCoderRegistry: Sendable {
    public let coders: [any ImageCoder]
    public let limits: ImageLimits

    public init(coders: [any ImageCoder] = [VipsCoder()], limits: ImageLimits = ImageLimits()) {
        self.coders = coders
        self.limits = limits
    }

    /// Every format some coder decodes, and every one some coder encodes (for docs and tests).
    public var decodable: Set<ImageFormat> { coders.reduce(into: []) { $0.formUnion($1.decodes) } }
    public var encodable: Set<ImageFormat> { coders.reduce(into: []) { $0.formUnion($1.encodes) } }

    /// `input` made into what `request` asks. The input's format is sniffed from its bytes
    /// (magic numbers), never taken from a name. Animated GIF and WebP pass through as stored; so
    /// does anything the request leaves as it is.
    public func transcode(_ input: [UInt8], _ request: ImageRequest) throws(ImageCoderError) -> CodedImage {
        guard let format = ImageFormat.sniff(input) else { throw .unsupported("bytes of no known image format") }
        if request.isIdentity { return CodedImage(bytes: input, format: format) }
        let output = request.format ?? (Self.isVector(format) ? .png : format)
        if (format == .gif || format == .webp), VipsCoder.isAnimated(input) { return CodedImage(bytes: input, format: format) }
        guard let coder = coders.first(where: { $0.handles(format, to: output) }) else {
            throw .unsupported("\(format.rawValue) to \(output.rawValue)")
        }
        var coded = request
        coded.format = output
        return try coder.transcode(input, from: format, coded, limits: limits)
    }

    static func isVector(_ format: ImageFormat) -> Bool { format == .pdf || format == .svg }
}
