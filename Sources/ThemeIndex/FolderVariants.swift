import AssetCatalog
import BinaryReading
import Codecs
import Foundation
import ThemeBundle

/// The variants an `.xcassets` source folder offers (lookup-rules.md 4.6).
enum FolderVariants {
    static func variants(of folder: XCAssets, sourceKey: String) -> [Variant] {
        folder.entries.enumerated().map { index, entry in
            var traits = VariantTraits()
            traits.idiom = idiom(entry.idiom)
            traits.scale = entry.kind == .image ? entry.scale : 0
            traits.subtype = entry.subtype
            traits.sizeClassHorizontal = sizeClass(entry.widthClass)
            traits.sizeClassVertical = sizeClass(entry.heightClass)
            traits.memoryGB = entry.memoryGB
            traits.gamut = entry.displayGamut?.lowercased() == "display-p3" ? 1 : 0
            traits.direction = entry.direction == "left-to-right" ? 4 : entry.direction == "right-to-left" ? 5 : 0
            let luminosity: Appearance.Luminosity = entry.luminosity == "light" ? .light : entry.luminosity == "dark" ? .dark : .any
            traits.appearance = Appearance(luminosity, highContrast: entry.contrast == "high")
            traits.locale = entry.locale ?? ""
            let kind: AssetKind = switch entry.kind {
            case .color: .color
            case .image: .image
            case .data: .data
            }
            var variant = Variant(kind: kind, name: entry.name, traits: traits)
            // Xcode's "Left to Right, Mirrors" direction: the image is drawn mirrored for the other
            // direction unless the set also has a variant for it.
            variant.isFlippable = traits.direction != 0
            var hash = ContentHash()
            if let color = entry.color {
                variant.colorSpace = color.systemReference.map { "system:\($0)" } ?? colorSpace(color.colorSpace)
                variant.components = color.components
                hash.add("\(variant.colorSpace) \(color.components)")
            }
            if let file = entry.file {
                describeFile(file, in: &variant, hash: &hash)
            } else {
                variant.location = "\(entry.name)#\(index)"
            }
            variant.etag = hash.hex
            variant.sortKey = "\(sourceKey)#\(String(repeating: "0", count: max(0, 8 - String(index).count)))\(index)"
            return variant
        }
    }

    static func idiom(_ name: String) -> Int {
        switch name {
        case "iphone": 1
        case "ipad": 2
        case "tv": 3
        case "car": 4
        case "watch": 5
        case "ios-marketing", "watch-marketing": 6
        case "mac": 7
        case "vision": 8
        default: 0
        }
    }

    static func sizeClass(_ name: String?) -> Int {
        name == "compact" ? 1 : name == "regular" ? 2 : 0
    }

    /// Contents.json colour-space names in the catalog's spelling (car-format.md 5.5).
    static func colorSpace(_ name: String) -> String {
        switch name {
        case "display-p3": "display-p3"
        case "gray-gamma-22": "gray"
        case "extended-srgb", "extended-linear-srgb", "extended-gray": name
        default: "srgb"
        }
    }

    /// Points `variant` at an image or data file: its bytes go into `hash`, and its format
    /// (sniffed, else the extension) and PNG pixel size into the variant.
    static func describeFile(_ path: String, in variant: inout Variant, hash: inout ContentHash) {
        variant.location = path
        try? ByteStorage(mapping: path).withUnsafeBytes { bytes in
            hash.add(bytes)
            variant.format = ImageFormat.sniff(bytes)?.fileExtension ?? (path as NSString).pathExtension.lowercased()
            if variant.format == "png", let size = pngSize(bytes) { (variant.pixelWidth, variant.pixelHeight) = size }
        }
    }

    static func pngSize(_ bytes: UnsafeRawBufferPointer) -> (Int, Int)? {
        guard bytes.count >= 24 else { return nil }
        func be32(_ offset: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) } }
        return (be32(16), be32(20))
    }
}
