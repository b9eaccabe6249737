import BinaryReading

/// Apple's LZFSE: containers of blocks (`bvx-` stored, `bvxn` LZVN, `bvx1`/`bvx2` LZ77 with
/// finite-state entropy coding), ending with `bvx$`.
///
/// Written from the format as Apple's open-source reference decoder defines it. The decoder is
/// two passes: the first walks block headers to learn the total size (so the output is allocated
/// once, and a crafted size is refused before any allocation); the second decodes each block
/// straight into that buffer.
public enum LZFSE {
    /// Decodes the container at the start of `input`. Bytes after `bvx$` are ignored; use
    /// `containerLength` to learn where it ended.
    public static func decompress(_ input: UnsafeRawBufferPointer, limit: Int = maximumDecodedBytes) throws -> [UInt8] {
        try decompress(input, blocks: try scan(input, limit: limit).blocks)
    }

    /// At most the first `count` bytes the container decodes to, decoding only the blocks that
    /// hold them (enough to sniff a payload's format without decoding all of it).
    public static func decompressPrefix(_ input: UnsafeRawBufferPointer, count: Int) throws -> [UInt8] {
        var blocks: [Block] = [], covered = 0
        for block in try scan(input, limit: maximumDecodedBytes).blocks where covered < count {
            blocks.append(block)
            covered += block.rawBytes
        }
        return Array(try decompress(input, blocks: blocks).prefix(count))
    }

    private static func decompress(_ input: UnsafeRawBufferPointer, blocks: [Block]) throws -> [UInt8] {
        try makeBytes(capacity: blocks.reduce(0) { $0 + $1.rawBytes }) { output throws in
            var decoder = BlockDecoder()
            var produced = 0
            for block in blocks {
                let body = UnsafeRawBufferPointer(rebasing: input[block.offset ..< block.offset + block.length])
                switch block.kind {
                case .stored:
                    if let base = body.baseAddress {
                        (output + produced).update(from: base.assumingMemoryBound(to: UInt8.self).advanced(by: 8), count: block.rawBytes)
                    }
                case .lzvn:
                    let stream = UnsafeRawBufferPointer(rebasing: body[12...])
                    let end: Int
                    do {
                        end = try LZVN.decode(stream, into: output, start: produced, capacity: produced + block.rawBytes).produced
                    } catch let error as FormatError {
                        throw FormatError("LZFSE bvxn block", at: block.offset + 12 + error.offset, error.reason)
                    }
                    guard end == produced + block.rawBytes else {
                        throw FormatError("LZFSE bvxn block", at: block.offset, "decoded \(end - produced) bytes, header promises \(block.rawBytes)")
                    }
                case .fse(let header):
                    do {
                        try decoder.decode(body, header: header, into: output, start: produced)
                    } catch let error as FormatError {
                        throw FormatError("LZFSE \(header.isV1 ? "bvx1" : "bvx2") block", at: block.offset + error.offset, error.reason)
                    }
                }
                produced += block.rawBytes
            }
            return produced
        }
    }

    public static func decompress(_ input: [UInt8], limit: Int = maximumDecodedBytes) throws -> [UInt8] {
        try input.withUnsafeBytes { bytes throws in try decompress(bytes, limit: limit) }
    }

    /// The number of bytes the container at the start of `input` occupies, end marker included.
    public static func containerLength(_ input: UnsafeRawBufferPointer) throws -> Int {
        try scan(input, limit: maximumDecodedBytes).length
    }

    /// The number of bytes the container at the start of `input` decodes to, from its block
    /// headers alone.
    public static func decompressedLength(_ input: UnsafeRawBufferPointer) throws -> Int {
        try scan(input, limit: maximumDecodedBytes).rawBytes
    }

    /// Does `input` start with an LZFSE block magic?
    public static func isContainer(_ input: UnsafeRawBufferPointer) -> Bool {
        input.count >= 4 && input[0] == 0x62 && input[1] == 0x76 && input[2] == 0x78
            && [0x2D, 0x6E, 0x31, 0x32, 0x24].contains(input[3])
    }

    // MARK: - Block layout

    enum BlockKind {
        case stored
        case lzvn
        case fse(FSEBlockHeader)
    }

    struct Block {
        var kind: BlockKind
        var offset: Int
        var length: Int
        var rawBytes: Int
    }

    struct Plan {
        var blocks: [Block] = []
        var rawBytes = 0
        var length = 0
    }

    static func scan(_ input: UnsafeRawBufferPointer, limit: Int) throws -> Plan {
        let span = ByteSpan(unowned: input, structure: "LZFSE container")
        var plan = Plan()
        var offset = 0
        while true {
            guard span.has("bvx", at: offset) else {
                throw span.error(at: offset, offset == 0 ? "no LZFSE block magic" : "expected an LZFSE block magic or bvx$")
            }
            let kind = try span.u8(offset + 3)
            let block: Block
            switch kind {
            case UInt8(ascii: "$"):
                plan.length = offset + 4
                return plan
            case UInt8(ascii: "-"):
                let raw = try span.int32le(offset + 4)
                block = Block(kind: .stored, offset: offset, length: 8 + raw, rawBytes: raw)
            case UInt8(ascii: "n"):
                let raw = try span.int32le(offset + 4)
                let payload = try span.int32le(offset + 8)
                block = Block(kind: .lzvn, offset: offset, length: 12 + payload, rawBytes: raw)
            case UInt8(ascii: "1"), UInt8(ascii: "2"):
                let header = try FSEBlockHeader(span, at: offset, isV1: kind == UInt8(ascii: "1"))
                block = Block(kind: .fse(header), offset: offset, length: header.blockLength, rawBytes: header.rawBytes)
            default:
                throw span.error(at: offset, "unknown LZFSE block magic bvx\(Character(Unicode.Scalar(kind)))")
            }
            try span.require(offset, block.length, "LZFSE block of \(block.length) bytes")
            guard block.rawBytes <= limit - plan.rawBytes else {
                throw span.error(at: offset, "decoded size exceeds the limit of \(limit) bytes")
            }
            plan.rawBytes += block.rawBytes
            plan.blocks.append(block)
            offset += block.length
        }
    }
}

extension ByteSpan {
    /// A span over memory someone else keeps alive for the duration of a call.
    init(unowned buffer: UnsafeRawBufferPointer, structure: String) {
        self.init(ByteStorage(borrowing: buffer), structure: structure)
    }
}
