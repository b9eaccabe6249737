import AssetCatalog
import Codecs
import Testing
import TestSupport

/// Modern catalogs store the same image up to three times, keyed by deployment target and coded
/// differently (lzfse, palette-img or deepmap, deepmap2). Decoding each copy with a different
/// codec and comparing the pixels checks the codecs against each other, independent of any
/// reference implementation.
@Suite("twins: one image, several codecs")
struct TwinTests {
    static let catalogs = Corpus.catalogNames

    @Test("copies of one image decode to the same pixels (deepmap mode 2 colour: within 1)", arguments: catalogs)
    func twinsAgree(_ name: String) throws {
        let catalog = try AssetCatalog(path: Corpus.path(name))
        var groups: [[UInt16]: [Rendition]] = [:]
        for rendition in catalog.renditions where !rendition.isPackedAtlas {
            switch rendition.content {
            case .bitmap, .link: break
            default: continue
            }
            var key = rendition.key
            if let position = key.attributeIDs.firstIndex(of: RenditionAttribute.deploymentTarget.rawValue) { key.values[position] = 0 }
            groups[key.values, default: []].append(rendition)
        }
        var pairs = 0, lossyPairs = 0
        var colourOnly: [String] = []
        for copies in groups.values where copies.count > 1 {
            var decoded: [(rendition: Rendition, bitmap: Bitmap, lossy: Bool)] = []
            for rendition in copies {
                guard case .bitmap(let bitmap) = try catalog.image(for: rendition) else { continue }
                decoded.append((rendition, bitmap, try usesLossyDeepmap(rendition, in: catalog)))
            }
            for (index, first) in decoded.enumerated() {
                for other in decoded[(index + 1)...] {
                    let sameShape = first.bitmap.width == other.bitmap.width && first.bitmap.height == other.bitmap.height
                        && first.bitmap.layout == other.bitmap.layout
                    #expect(sameShape, "\(copies[0].name)")
                    guard sameShape else { continue }
                    pairs += 1
                    let difference = maximumDifference(first.bitmap, other.bitmap)
                    // Alpha must always agree; that is where a wrong filter or crop shows first.
                    #expect(difference.alpha == 0, "\(copies[0].name): alpha differs by \(difference.alpha)")
                    let tolerance = first.lossy || other.lossy ? 1 : 0
                    if first.lossy || other.lossy { lossyPairs += 1 }
                    if difference.colour > tolerance {
                        colourOnly.append("\(first.rendition.name) \(describe(first.rendition, in: catalog)) vs \(describe(other.rendition, in: catalog))")
                        // Two deepmap copies were coded from the same pixels: they must agree.
                        #expect(!(isDeepmap(first.rendition, in: catalog) && isDeepmap(other.rendition, in: catalog)))
                    }
                }
            }
        }
        #expect(pairs > 0 || !Self.withTwins.contains(where: name.hasPrefix))
        // The reference renderer (carref.py --twins) finds the same 2 colour-only differences in
        // HFSEpayment: the 1536-pixel lzfse copy of a template glyph carries other gray values
        // under identical alpha. Anything beyond that would be a decoder bug.
        #expect(colourOnly.count <= (name.hasPrefix("HFSEpayment") ? 2 : 0), "\(colourOnly)")
        print("\(name): \(pairs) twin pairs compared, \(lossyPairs) with 8-bit colour deepmap mode 2, colour-only differences: \(colourOnly)")
    }

    /// Catalogs that hold deployment-target twins (car-format.md 8, carref.py --twins).
    static let withTwins = ["HFSEpayment", "plumb5", "SMzig"]

    func isDeepmap(_ rendition: Rendition, in catalog: AssetCatalog) -> Bool {
        var source = rendition
        if case .link(let link) = rendition.content, let atlas = try? catalog.target(of: link) { source = atlas }
        if case .bitmap(let compression) = source.content { return compression == 10 || compression == 11 }
        return false
    }

    /// Is the rendition (or the atlas it links into) an 8-bit colour deepmap mode-2 image?
    func usesLossyDeepmap(_ rendition: Rendition, in catalog: AssetCatalog) throws -> Bool {
        var source = rendition
        if case .link(let link) = rendition.content { source = try catalog.target(of: link) }
        guard case .bitmap(let compression) = source.content, compression == 10 || compression == 11 else { return false }
        return try CELM.chunks(of: source).contains { chunk in
            let header = try Deepmap.header(chunk.data)
            return header.mode == 2 && header.pixelCode == 4
        }
    }

    func describe(_ rendition: Rendition, in catalog: AssetCatalog) -> String {
        var source = rendition
        if case .link(let link) = rendition.content, let atlas = try? catalog.target(of: link) { source = atlas }
        guard case .bitmap(let compression) = source.content else { return "?" }
        let modes = (try? CELM.chunks(of: source).compactMap { try? Deepmap.header($0.data) }.map { "mode \($0.mode) code \($0.pixelCode)" }) ?? []
        return "\(Compression.name(compression)) \(modes.first ?? "") dt \(rendition.key.deploymentTarget)"
    }

    /// Largest difference in any colour sample and in alpha (gray counts as colour).
    func maximumDifference(_ a: Bitmap, _ b: Bitmap) -> (colour: Int, alpha: Int) {
        let channels = a.layout.bytesPerPixel
        var colour = 0, alpha = 0
        for index in 0..<min(a.pixels.count, b.pixels.count) {
            let difference = abs(Int(a.pixels[index]) - Int(b.pixels[index]))
            if index % channels == channels - 1 { alpha = max(alpha, difference) } else { colour = max(colour, difference) }
        }
        return (colour, alpha)
    }
}
