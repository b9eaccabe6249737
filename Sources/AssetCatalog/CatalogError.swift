import BinaryReading

/// A catalog that cannot be read, or one of its renditions that cannot be decoded.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    /// The catalog file.
    public var file: String
    /// The rendition concerned, if the error is about one.
    public var rendition: String?
    public var underlying: String

    public init(file: String, rendition: String? = nil, _ underlying: any Error) {
        self.file = file
        self.rendition = rendition
        self.underlying = "\(underlying)"
    }

    public var description: String {
        rendition.map { "\(file): rendition \($0): \(underlying)" } ?? "\(file): \(underlying)"
    }
}

/// A rendition that has no decoder, with the reason (as opposed to a broken one).
public struct UnsupportedRendition: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "unsupported: \(reason)" }
}
