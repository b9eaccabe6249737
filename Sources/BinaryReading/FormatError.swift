/// An error in untrusted bytes: which structure was being read, where, and what was expected.
///
/// Every parser in themed reports failures through this one type so that a user sees the same
/// shape of message whether a B+tree node, a CSI header or an LZFSE block is broken:
/// `RENDITIONS tree node at 0x1A2C: count 900 needs 7212 bytes, block has 4096`.
public struct FormatError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The structure being read, e.g. "BOM header", "LZFSE block", "CSI header".
    public var structure: String
    /// Absolute byte offset in the file (or in the buffer being decoded) where the problem is.
    public var offset: Int
    /// What was expected and what was found.
    public var reason: String

    public init(_ structure: String, at offset: Int, _ reason: String) {
        self.structure = structure
        self.offset = offset
        self.reason = reason
    }

    public var description: String {
        "\(structure) at offset \(offset) (0x\(String(offset, radix: 16, uppercase: true))): \(reason)"
    }

    /// The same error, reported as part of an enclosing structure.
    public func within(_ outer: String) -> FormatError {
        FormatError("\(outer): \(structure)", at: offset, reason)
    }
}
