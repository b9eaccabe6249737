import Hashing

/// One record of a pack file: a blob (its bytes, named by their SHA-256) or an alias (a name for
/// content before it is encoded, pointing at the blob it became).
///
/// Layout, little-endian, records back to back:
///
///     magic "TBLB" | kind u8 | label length u8 | reserved u16 | body length u32 | digest (32)
///     | label | body
///
/// A blob's label is its content type and its digest the SHA-256 of its body; an alias has no
/// body, its label is the SHA-256 of its key (keys can be long; 32 bytes keep records small) and
/// its digest the blob it names.
struct PackRecord: Equatable {
    enum Kind: UInt8 {
        case blob = 1
        case alias = 2
    }

    static let magic: [UInt8] = Array("TBLB".utf8)
    static let headerLength = 44
    /// The largest body a record holds (the length field is 32 bits).
    static let maximumBodyLength = Int(UInt32.max)

    var kind: Kind
    var digest: Digest
    var label: [UInt8]
    var bodyLength: Int

    var length: Int { Self.headerLength + label.count + bodyLength }

    /// The header and label, to be followed by `bodyLength` bytes of body.
    func encodedHead() -> [UInt8] {
        var bytes = Self.magic
        bytes.reserveCapacity(Self.headerLength + label.count)
        bytes.append(kind.rawValue)
        bytes.append(UInt8(label.count))
        bytes += [0, 0]
        withUnsafeBytes(of: UInt32(bodyLength).littleEndian) { bytes += $0 }
        bytes += digest.bytes
        bytes += label
        return bytes
    }

    /// Why bytes at some offset of a pack are not a record.
    enum Damage: Error, Equatable {
        case truncated
        case notARecord
    }

    /// Decodes the header at the start of `bytes` (at least `headerLength` of them, plus the
    /// label); `available` is how many bytes the pack has from this record on.
    static func decodeHead(_ bytes: ArraySlice<UInt8>, available: Int) throws(Damage) -> PackRecord {
        let start = bytes.startIndex
        guard bytes.count >= headerLength else { throw .truncated }
        guard bytes[start..<(start + 4)].elementsEqual(magic), let kind = Kind(rawValue: bytes[start + 4]) else { throw .notARecord }
        let labelLength = Int(bytes[start + 5])
        let bodyLength = (8..<12).reduce(0) { value, position in value | Int(bytes[start + position]) << (8 * (position - 8)) }
        guard bytes.count >= headerLength + labelLength, let digest = Digest(bytes: bytes[(start + 12)..<(start + 44)]) else { throw .truncated }
        let record = PackRecord(kind: kind, digest: digest,
                                label: Array(bytes[(start + headerLength)..<(start + headerLength + labelLength)]), bodyLength: bodyLength)
        guard kind == .blob || (bodyLength == 0 && labelLength == 32) else { throw .notARecord }
        guard record.length <= available else { throw .truncated }
        return record
    }
}

/// Reads a pack front to back for the scan at start-up. The heads of a run of small records
/// (aliases, colour answers) come from one read of a window; after a large body (a palette,
/// an image) only the next head is read, so a run of large records is not read in full.
struct PackReader {
    static let windowBytes = 16 << 10

    let pack: PackFile
    let size: Int
    private var window: [UInt8] = []
    private var windowOffset = 0

    init(_ pack: PackFile) {
        self.pack = pack
        size = pack.size
    }

    /// Up to `count` bytes from `offset` (fewer where the pack ends, none when it cannot be read).
    mutating func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        let wanted = min(count, size - offset)
        let windowEnd = windowOffset + window.count
        if offset < windowOffset || offset + wanted > windowEnd {
            let skippedLargeBody = offset - windowEnd > Self.windowBytes
            windowOffset = offset
            window = (try? pack.read(at: offset, count: skippedLargeBody ? wanted : min(max(wanted, Self.windowBytes), size - offset))) ?? []
        }
        let start = offset - windowOffset
        return window[start..<min(start + wanted, window.count)]
    }
}
