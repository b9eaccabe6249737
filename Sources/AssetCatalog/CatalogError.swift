import BinaryReading

/// A catalog that cannot be read, or one of its renditions that cannot be decoded.
///
/// It reads as a person would say it first ("Brand.car is not a complete asset catalog: it ends
/// at byte 2,577"), then the parser's detail, so an operator knows what to do before reading offsets.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    /// The catalog file, as errors name it.
    public var file: String
    /// The rendition concerned, if the error is about one.
    public var rendition: String?
    public var underlying: String
    /// What kind of problem this is, for the plain sentence.
    public var kind: Kind
    /// The file's length, when the error came from reading it.
    public var fileBytes: Int?

    public enum Kind: Sendable, Equatable {
        /// The file cannot be opened or mapped.
        case unreadable
        /// It is not a BOMStore at all.
        case notACatalog
        /// It stops before the data its own index lists: cut short on the way.
        case truncated
        /// It is a catalog, but something in it is broken.
        case broken
    }

    public init(file: String, rendition: String? = nil, _ underlying: any Error, fileBytes: Int? = nil) {
        self.file = file
        self.rendition = rendition
        self.underlying = "\(underlying)"
        self.fileBytes = fileBytes
        if let format = underlying as? FormatError {
            // Cut short: a read at or past the file's end, or a block its index places beyond it.
            let beyondEnd = fileBytes.map { format.offset >= $0 } ?? false
            kind = format.reason.hasPrefix("magic is not") ? .notACatalog
                : beyondEnd || format.reason.contains("runs past the end") || format.reason.contains("too short") ? .truncated : .broken
        } else {
            kind = rendition == nil ? .unreadable : .broken
        }
    }

    /// The same error under another name: the operator's own file name, not where themed kept it.
    public func named(_ name: String) -> CatalogError {
        var renamed = self
        renamed.file = name
        return renamed
    }

    /// The plain sentence alone.
    public var sentence: String {
        if let rendition { return "\(file): rendition \(rendition) cannot be read" }
        switch kind {
        case .unreadable: return "\(file) cannot be opened"
        case .notACatalog: return "\(file) is not an asset catalog (a .car file starts with \"BOMStore\")"
        case .truncated:
            return "\(file) is not a complete asset catalog: it ends at byte \(fileBytes.map(Self.grouped) ?? "?"), before data its index lists"
        case .broken: return "\(file) is an asset catalog themed cannot read"
        }
    }

    public var description: String { "\(sentence) (\(underlying))" }

    /// 2577 -> "2,577".
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return String(digits.enumerated().flatMap { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? [",", digit] : [digit]
        })
    }
}

/// A rendition that has no decoder, with the reason (as opposed to a broken one).
public struct UnsupportedRendition: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "unsupported: \(reason)" }
}
