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
    static func decodeHead(_ bytes: [UInt8], available: Int) throws(Damage) -> PackRecord {
        guard bytes.count >= headerLength else { throw .truncated }
        guard Array(bytes[0..<4]) == magic, let kind = Kind(rawValue: bytes[4]) else { throw .notARecord }
        let labelLength = Int(bytes[5])
        let bodyLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
        guard bytes.count >= headerLength + labelLength else { throw .truncated }
        let record = PackRecord(kind: kind, digest: Digest(bytes: Array(bytes[12..<44])),
                                label: Array(bytes[headerLength..<(headerLength + labelLength)]), bodyLength: bodyLength)
        guard kind == .blob || (bodyLength == 0 && labelLength == 32) else { throw .notARecord }
        guard record.length <= available else { throw .truncated }
        return record
    }
}
