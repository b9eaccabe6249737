import BinaryReading
import ThemeVocabulary

/// A link from a rendition to a rectangle of a packed atlas.
public struct InternalLink: Sendable, Equatable {
    /// Rectangle in the atlas, with `y` measured from the atlas's bottom edge.
    public var x: Int, y: Int, width: Int, height: Int
    public var originalLayout: CSILayout
    /// Attributes of the atlas rendition's key, as (attribute id, value) pairs.
    public var keyAttributes: [(Int, UInt16)]

    public static func == (lhs: InternalLink, rhs: InternalLink) -> Bool {
        lhs.x == rhs.x && lhs.y == rhs.y && lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.keyAttributes.elementsEqual(rhs.keyAttributes, by: ==)
    }

    init(_ body: ByteSpan) throws {
        guard body.has("KLNI") else { throw body.error(at: 0, "expected the link tag KLNI") }
        x = try body.int32le(8)
        y = try body.int32le(12)
        width = try body.int32le(16)
        height = try body.int32le(20)
        originalLayout = CSILayout(Int(try body.u16le(24)))
        let keyLength = try body.int32le(26)
        let key = try body.slice(30, keyLength, as: "link key")
        var pairs: [(Int, UInt16)] = []
        for index in 0..<keyLength / 4 {
            let attribute = Int(try key.u16le(index * 4))
            let value = try key.u16le(index * 4 + 2)
            if attribute == 0 && value == 0 { break }
            pairs.append((attribute, value))
        }
        keyAttributes = pairs
    }
}

/// What a rendition holds, decided by its payload tag and layout.
public enum RenditionContent: Sendable {
    /// A CELM bitmap: compression id and the payload (decoded on demand).
    case bitmap(compression: Int)
    /// RAWD bytes (PDF, SVG, JPEG, HEIC, data); `compressed` when stored in an LZFSE container.
    case rawData(ByteSpan, compressed: Bool)
    case color(ColorValue)
    case multisize([(width: Int, height: Int, index: Int)])
    case link(InternalLink)
    case effect
    case gradient
    case namedGradient
    /// Nothing: icon groups and stacks.
    case empty
    case unknown(tag: String)
}

extension RenditionContent {
    static func parse(_ payload: ByteSpan, layout: CSILayout, tlvs: [TLV]) throws -> RenditionContent {
        if layout == .internalLink {
            guard let linkTLV = tlvs.first(where: { $0.type == .internalLink }) else {
                throw payload.error(at: 0, "internal link without TLV 1010")
            }
            return .link(try InternalLink(linkTLV.value))
        }
        if payload.isEmpty { return .empty }
        if payload.has("MLEC") {
            return .bitmap(compression: try payload.int32le(8))
        }
        if payload.has("DWAR") {
            let version = try payload.int32le(4)
            let length = try payload.int32le(8)
            return .rawData(try payload.slice(12, length, as: "RAWD data"), compressed: version == 1)
        }
        if payload.has("RLOC") {
            let space = Int(try payload.u32le(8) & 0xFF)
            let count = try payload.int32le(12)
            guard count <= 16 else { throw payload.error(at: 12, "\(count) colour components") }
            var components: [Double] = []
            for index in 0..<count { components.append(try payload.f64le(16 + 8 * index)) }
            return .color(ColorValue(colorSpace: ColorSpace(space), components: components))
        }
        if payload.has("SISM") {
            let count = try payload.int32le(8)
            guard count <= (payload.count - 12) / 12 else { throw payload.error(at: 8, "\(count) sizes do not fit") }
            var sizes: [(Int, Int, Int)] = []
            for index in 0..<count {
                let entry = 12 + index * 12
                sizes.append((try payload.int32le(entry), try payload.int32le(entry + 4), try payload.int32le(entry + 8)))
            }
            return .multisize(sizes)
        }
        if payload.has("XFTC") { return .effect }
        if payload.has("DARG") { return .gradient }
        if payload.has("ARGG") { return .namedGradient }
        return .unknown(tag: try payload.fourCC(0))
    }
}
