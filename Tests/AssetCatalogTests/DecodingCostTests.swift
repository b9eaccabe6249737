import AssetCatalog
import Codecs
import Testing
import TestSupport

/// `decodingCost` is what the server reserves from its decode-memory budget before a decode: it
/// must cover at least the pixels the decode makes, and count a link's atlas only until the
/// atlas is decoded and cached.
@Suite("decoding cost estimates")
struct DecodingCostTests {
    @Test("every bitmap's estimate covers its decoded pixels; a link counts its atlas until the atlas is cached", .needsCorpus)
    func estimates() throws {
        var bitmaps = 0, links = 0
        for name in Corpus.catalogNames {
            let catalog = try AssetCatalog(path: Corpus.path(name))
            for rendition in catalog.renditions {
                let isLink: Bool
                switch rendition.content {
                case .bitmap: isLink = false
                case .link: isLink = true
                default: continue
                }
                let before = catalog.decodingCost(of: rendition)
                guard case .bitmap(let bitmap) = try? catalog.image(for: rendition) else { continue }
                #expect(before >= bitmap.pixels.count, "\(name) \(rendition.name): \(before) < \(bitmap.pixels.count)")
                if isLink {
                    links += 1
                    #expect(catalog.decodingCost(of: rendition) == bitmap.width * bitmap.height * 4,
                            "\(name) \(rendition.name): after its atlas is cached, only the crop is counted")
                } else {
                    bitmaps += 1
                }
            }
        }
        #expect(bitmaps > 1000 && links > 100, "\(bitmaps) bitmaps, \(links) links")
    }
}
