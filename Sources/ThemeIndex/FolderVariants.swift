import Hashing
import AssetCatalog
import BinaryReading
import Codecs
import Foundation
import ThemeBundle
import ThemeVocabulary

/// The variants an `.xcassets` source folder offers (lookup-rules.md 4.6).
enum FolderVariants {
    static func variants(of folder: XCAssets, sourceKey: String) -> [Variant] {
        folder.entries.enumerated().map { index, entry in
            var traits = VariantTraits()
            traits.idiom = entry.idiom
            traits.scale = entry.kind == .image ? entry.scale : 0
            traits.subtype = entry.subtype
            traits.sizeClassHorizontal = entry.widthClass
            traits.sizeClassVertical = entry.heightClass
            traits.memoryGB = entry.memoryGB
            traits.gamut = entry.gamut
            traits.direction = entry.direction
            traits.appearance = entry.appearance
            traits.locale = entry.locale ?? ""
            let kind: AssetKind = switch entry.kind {
            case .color: .color
            case .image: .image
            case .data: .data
            }
            var variant = Variant(kind: kind, name: entry.name, traits: traits)
            // Xcode's "Left to Right, Mirrors" direction: the image is drawn mirrored for the other
            // direction unless the set also has a variant for it.
            variant.isFlippable = traits.direction != .neutral
            var hash = ContentHash()
            if let color = entry.color {
                variant.color = ColorValue(colorSpace: color.colorSpace, components: color.components)
                variant.systemColor = color.systemReference
                hash.add("\(color.systemReference.map { "system:\($0)" } ?? color.colorSpace.name) \(color.components)")
            }
            if let file = entry.file { describeFile(file, in: &variant, hash: &hash) }
            variant.contentKey = hash.hex
            variant.sortKey = "\(sourceKey)#\(String(repeating: "0", count: max(0, 8 - String(index).count)))\(index)"
            return variant
        }
    }

    /// Points `variant` at an image or data file: its bytes go into `hash`, and its format
    /// (sniffed, else the extension) and pixel size (PNG, JPEG, HEIF) into the variant.
    static func describeFile(_ path: String, in variant: inout Variant, hash: inout ContentHash) {
        variant.location = .file(path)
        guard let storage = try? ByteStorage(mapping: path) else { return }
        storage.withUnsafeBytes { bytes in
            hash.add(bytes)
            variant.format = ImageFormat.sniff(bytes)?.fileExtension ?? (path as NSString).pathExtension.lowercased()
        }
        if let size = ImageHeader.size(of: ByteSpan(storage)) { (variant.pixelWidth, variant.pixelHeight) = size }
    }
}
