import AssetCatalog
import Codecs
import ThemeVocabulary

/// The variants a compiled catalog offers by name (lookup-rules.md 4.7).
///
/// Named assets are renditions linked to a facet; system-control renditions (pressed states and
/// the like) and packed atlases are not served by name. Of the copies a modern catalog keeps per
/// deployment target, all are indexed: the lookup prefers the newest.
enum CatalogVariants {
    /// Attributes that CoreUI never varies during a lookup by name: a named variant has them 0.
    static let fixedAttributes: [RenditionAttribute] = [.size, .value, .dimension1, .dimension2, .state, .layer,
                                                         .presentationState, .previousValue, .previousState]

    /// The part of a multisize set's members (car-format.md 5.10): their Dimension2 is their
    /// index in the set's sizes.
    static let multisizeMemberPart = 220

    /// A member's size in points: its index in the set of its own idiom; a member whose idiom
    /// has no set takes the universal set's, else the set of the lowest idiom that has the index
    /// (one rule, the same in every process: a dictionary's order is not).
    static func memberSize(_ sets: [Int: [Int: Int]], idiom: Int, index: Int) -> Int {
        if let size = sets[idiom]?[index] { return size }
        if let size = sets[0]?[index] { return size }
        return sets.keys.sorted().lazy.compactMap { sets[$0]?[index] }.first ?? 0
    }

    static func variants(of catalog: AssetCatalog, sourceKey: String, contentHash: String) -> [Variant] {
        var result: [Variant] = []
        // Each set (one per idiom) gives its members' sizes in points, by index.
        var setSizes: [Int: [Int: [Int: Int]]] = [:]
        for rendition in catalog.renditions {
            guard case .multisize(let sizes) = rendition.content else { continue }
            for size in sizes { setSizes[rendition.key.identifier, default: [:]][rendition.key.idiom.rawValue, default: [:]][size.index] = size.width }
        }
        for rendition in catalog.renditions {
            let key = rendition.key
            let isMember = key[.part] == multisizeMemberPart
            guard key.identifier != 0, catalog.facetNames[key.identifier] != nil,
                  fixedAttributes.allSatisfy({ key[$0] == 0 || (isMember && $0 == .dimension2) }) else { continue }
            var kind: AssetKind
            var format = "png"
            switch rendition.content {
            case .color: kind = .color
            case .bitmap, .link:
                guard !rendition.isPackedAtlas else { continue }
                kind = .image
            case .rawData(let bytes, let compressed):
                kind = rendition.header.layout == .data ? .data : .image
                // The format shows in the first bytes: only the blocks that hold them are decoded.
                let head = compressed ? ((try? LZFSE.decompressPrefix(bytes.buffer, count: 1024)) ?? []) : Array(bytes.buffer.prefix(1024))
                format = ImageFormat.sniff(head)?.fileExtension ?? "data"
            default: continue
            }
            var traits = VariantTraits()
            traits.idiom = key.idiom
            traits.scale = kind == .image ? key.scale : 0
            traits.subtype = key.subtype
            traits.sizeClassHorizontal = key.sizeClassHorizontal
            traits.sizeClassVertical = key.sizeClassVertical
            traits.memoryGB = key.memoryClass.gigabytes
            traits.graphics = key[.graphicsClass]
            traits.gamut = key.displayGamut
            traits.direction = key.direction
            traits.deploymentTarget = key.deploymentTarget
            traits.appearance = Appearance(name: catalog.appearanceName(of: rendition) ?? "")
            traits.locale = catalog.localizationName(of: rendition) ?? ""
            if isMember {
                traits.pointSize = memberSize(setSizes[key.identifier] ?? [:], idiom: key.idiom.rawValue, index: key[.dimension2])
            }
            var variant = Variant(kind: kind, name: rendition.name, traits: traits)
            if case .color(let color) = rendition.content {
                variant.color = color
            }
            variant.isFlippable = rendition.header.isFlippable
            // An embedded JPEG or HEIF says its size itself; its CSI header says 0 x 0.
            let size = kind == .image ? rendition.embeddedPixelSize ?? (rendition.header.width, rendition.header.height)
                : (rendition.header.width, rendition.header.height)
            (variant.pixelWidth, variant.pixelHeight) = size
            variant.format = kind == .color ? "" : format
            variant.location = .rendition(rendition.index)
            variant.contentKey = "\(contentHash)#\(rendition.index)"
            variant.sortKey = "\(sourceKey)#\(String(repeating: "0", count: max(0, 8 - String(rendition.index).count)))\(rendition.index)"
            result.append(variant)
        }
        for (index, legacy) in catalog.legacyColors.enumerated() {
            var variant = Variant(kind: .color, name: legacy.name, traits: VariantTraits())
            variant.color = legacy.color
            variant.location = .legacyColor(index)
            variant.contentKey = "\(contentHash)#c\(index)"
            variant.sortKey = "\(sourceKey)#c\(index)"
            result.append(variant)
        }
        return result
    }
}
