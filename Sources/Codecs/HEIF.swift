import BinaryReading

/// What themed reads of a HEIF (HEIC) file itself: the pixel size of its primary image, from the
/// image spatial extents property (`ispe`, ISO/IEC 23008-12 6.5.3). Decoding is the image coders'
/// job; catalogs store HEIF renditions with a 0 x 0 CSI header (car-format.md 7.2), so this is
/// where their size comes from.
///
/// The file is a sequence of ISO BMFF boxes. `meta` holds `pitm` (the primary item's id), `iprp`
/// with `ipco` (the properties, numbered from 1 in order) and `ipma` (which properties belong to
/// which item). The primary item's `ispe` is its size: for a grid image that is the whole
/// canvas, not a tile; when no association names one, the largest `ispe` (thumbnails are smaller).
public enum HEIF {
    /// Width and height of the primary image, or nil when the bytes are not a HEIF file with an
    /// `ispe` property. Every read is checked against the box that holds it.
    public static func size(of file: ByteSpan) -> (width: Int, height: Int)? {
        // `meta` is a full box: its version and flags come before its children.
        guard let meta = box("meta", in: file), let children = try? meta.body.suffix(from: 4, as: "meta"),
              let iprp = box("iprp", in: children), let ipco = box("ipco", in: iprp.body) else { return nil }
        var extents: [Int: (width: Int, height: Int)] = [:]
        for (index, property) in boxes(in: ipco.body).enumerated() where property.type == "ispe" {
            // A full box too: version and flags, then the width and height.
            guard let width = try? property.body.u32be(4), let height = try? property.body.u32be(8) else { continue }
            extents[index + 1] = (Int(width), Int(height))
        }
        if let pitm = box("pitm", in: children), let primary = try? primaryItem(pitm),
           let ipma = box("ipma", in: iprp.body), let indices = try? propertyIndices(of: primary, in: ipma),
           let extent = indices.lazy.compactMap({ extents[$0] }).first {
            return extent
        }
        // Areas in 64 unsigned bits: two 32-bit sides multiply without overflow.
        return extents.values.max { UInt64($0.width) * UInt64($0.height) < UInt64($1.width) * UInt64($1.height) }
    }

    /// A box: its four-character type and its body (after the header).
    struct Box {
        var type: String
        var body: ByteSpan
    }

    /// The boxes of `span` in order, up to the first one that does not fit.
    static func boxes(in span: ByteSpan) -> [Box] {
        var result: [Box] = []
        var offset = 0
        while offset + 8 <= span.count, let next = try? box(at: offset, in: span) {
            result.append(next.box)
            offset = next.end
        }
        return result
    }

    /// The first box of type `type` at the top level of `span`, or nil.
    static func box(_ type: String, in span: ByteSpan) -> Box? {
        boxes(in: span).first { $0.type == type }
    }

    /// The box at `offset`: a 32-bit size (1: a 64-bit size follows the type; 0: to the end) and
    /// a type. A size smaller than its header or past the end is an error.
    static func box(at offset: Int, in span: ByteSpan) throws -> (box: Box, end: Int) {
        let size32 = try span.u32be(offset)
        let type = try span.fourCC(offset + 4)
        var header = 8
        var size: Int
        switch size32 {
        case 0: size = span.count - offset
        case 1:
            let high = try span.u32be(offset + 8), low = try span.u32be(offset + 12)
            guard high == 0 else { throw span.error(at: offset, "box larger than 4 GiB") }
            (size, header) = (Int(low), 16)
        default: size = Int(size32)
        }
        guard size >= header, size <= span.count - offset else { throw span.error(at: offset, "box \(type) of \(size) bytes does not fit") }
        return (Box(type: type, body: try span.slice(offset + header, size - header, as: type)), offset + size)
    }

    /// `pitm`: version 0 has a 16-bit item id, later versions a 32-bit one.
    static func primaryItem(_ pitm: Box) throws -> Int {
        try pitm.body.u8(0) == 0 ? Int(try pitm.body.u16be(4)) : Int(try pitm.body.u32be(4))
    }

    /// `ipma`: for each item, its id (16 bits, or 32 with version >= 1) and its associations, each
    /// a property index of 7 bits (15 with flags & 1) behind an "essential" bit.
    static func propertyIndices(of item: Int, in ipma: Box) throws -> [Int] {
        let body = ipma.body
        let version = try body.u8(0)
        let wide = try body.u32be(0) & 1 == 1
        let count = try body.int32be(4)
        var offset = 8
        for _ in 0..<count {
            let id = version < 1 ? Int(try body.u16be(offset)) : try body.int32be(offset)
            offset += version < 1 ? 2 : 4
            let associations = Int(try body.u8(offset))
            offset += 1
            var indices: [Int] = []
            for _ in 0..<associations {
                indices.append(wide ? Int(try body.u16be(offset) & 0x7FFF) : Int(try body.u8(offset) & 0x7F))
                offset += wide ? 2 : 1
            }
            if id == item { return indices }
        }
        return []
    }
}
