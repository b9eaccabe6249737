import AssetCatalog
import BinaryReading
import BOM
import Codecs
import Foundation
import ThemeBundle
import ThemeVocabulary

/// Compiles an `.xcassets` folder into a `.car` catalog, the way Xcode's actool lays one out for
/// CoreUI 969 (storage version 17): CARHEADER, RENDITIONS, FACETKEYS, APPEARANCEKEYS, KEYFORMAT,
/// EXTENDED_METADATA, BITMAPKEYS.
///
/// Colours become COLR renditions; bitmaps become CELM renditions compressed with LZFSE (id 4,
/// what Xcode writes for ARGB bitmaps, through our `LZFSEEncoder`: within 6% of Apple's encoder
/// in size, and it decodes several times faster than zip); PDF, SVG and JPEG images and data
/// sets are stored as RAWD. BITMAPKEYS summarizes, per facet, the values each key attribute takes
/// (`BitmapKeySummary`, the layout read off the corpus).
public struct CatalogCompiler {
    public enum Platform: String, CaseIterable, Sendable {
        case ios, macos, tvos, watchos

        var deploymentPlatform: String {
            switch self {
            case .ios: "ios"
            case .macos: "macosx"
            case .tvos: "appletvos"
            case .watchos: "watchos"
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static let coreUIVersion = 969
    /// KEYFORMAT: the attributes every rendition key holds, in this order.
    static let keyFormat: [Int] = [7, 13, 12, 15, 16, 20, 21, 24, 25, 17, 1, 2]

    public var platform: Platform
    public var minimumDeploymentTarget: String

    public init(platform: Platform = .ios, minimumDeploymentTarget: String = "15.0") {
        self.platform = platform
        self.minimumDeploymentTarget = minimumDeploymentTarget
    }

    /// Compiles `source` and writes the catalog to `output` atomically (temporary file, then
    /// rename): nothing half-written is ever left at `output`.
    public func compile(_ source: String, to output: String) throws {
        try write(try compile(source), to: output)
    }

    /// Writes catalog bytes to `output` atomically.
    public func write(_ bytes: [UInt8], to output: String) throws {
        let temporary = "\(output).tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw Failure(description: "\(output): cannot write")
        }
        guard rename(temporary, output) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw Failure(description: "\(output): cannot rename into place: \(String(cString: strerror(errno)))")
        }
    }

    /// The catalog bytes for `source`. Any problem in the source (malformed Contents.json, an
    /// unreadable image) is an error naming the file and field.
    public func compile(_ source: String) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(description: "\(source): not an .xcassets folder")
        }
        let assets = XCAssets(path: source)
        if let problem = assets.problems.first { throw Failure(description: problem) }
        return try compile(entries: assets.entries)
    }

    /// The catalog bytes for these entries (an `.xcassets` folder's, or colours made elsewhere:
    /// a theme's design tokens).
    public func compile(entries: [XCAssets.Entry]) throws -> [UInt8] {
        let names = Array(Set(entries.map(\.name))).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let identifiers = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0 + 1) })
        var appearances: Set<Appearance> = [.any]
        var renditions: [(values: [Int], bytes: [UInt8])] = []
        for entry in entries {
            guard let identifier = identifiers[entry.name] else { continue }
            let appearance = Self.appearanceIDs[entry.appearance] ?? 0
            appearances.insert(entry.appearance)
            let rendition = try Rendition(entry: entry)
            var values = [Int](repeating: 0, count: Self.keyFormat.count)
            for (position, attribute) in Self.keyFormat.enumerated() {
                values[position] = switch attribute {
                case 7: appearance
                case 12: rendition.scale
                case 15: entry.idiom.rawValue
                case 16: entry.subtype
                case 20: entry.widthClass.rawValue
                case 21: entry.heightClass.rawValue
                case 24: entry.gamut.rawValue
                case 17: identifier
                case 1: 85
                case 2: rendition.part
                default: 0
                }
            }
            renditions.append((values, rendition.bytes))
        }
        // Keys in byte order; two entries with the same traits: the first in the source wins.
        var seen = Set<[Int]>()
        let items = renditions.filter { seen.insert($0.values).inserted }
            .map { (key: $0.values.flatMap { le16($0) }, value: $0.bytes, values: $0.values) }
            .sorted { $0.key.lexicographicallyPrecedes($1.key) }
        let identifierPosition = Self.keyFormat.firstIndex(of: RenditionAttribute.identifier.rawValue) ?? 0
        let bitmapKeys = Dictionary(grouping: items.map(\.values)) { $0[identifierPosition] }
            .sorted { $0.key < $1.key }
            .map { identifier, keys in
                (key: UInt32(identifier), value: BitmapKeySummary(identifier: identifier, keys: keys, keyFormat: Self.keyFormat).bytes)
            }

        var writer = BOMWriter()
        writer.addVariable("CARHEADER", bytes: header(renditionCount: items.count))
        writer.addTree("RENDITIONS", items: items.map { ($0.key, $0.value) }, keySizeHint: UInt32(Self.keyFormat.count * 2))
        let facets = names.map { name -> (key: [UInt8], value: [UInt8]) in
            let part = entries.first { $0.name == name }.map { $0.kind == .color ? Rendition.colorPart : Rendition.imagePart } ?? Rendition.imagePart
            return (Array(name.utf8), le16(0) + le16(0) + le16(3) + le16(1) + le16(85) + le16(2) + le16(part) + le16(17) + le16(identifiers[name] ?? 0))
        }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        writer.addTree("FACETKEYS", items: facets, keySizeHint: 0xFFFF_FFFF)
        let appearanceKeys = appearances.compactMap { appearance in
            appearance.uiKitName.map { (key: Array($0.utf8), value: le16(Self.appearanceIDs[appearance] ?? 0)) }
        }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        writer.addTree("APPEARANCEKEYS", items: appearanceKeys, keySizeHint: 0xFFFF_FFFF)
        writer.addVariable("KEYFORMAT", bytes: tag("kfmt") + le32(0) + le32(Self.keyFormat.count) + Self.keyFormat.flatMap { le32($0) })
        writer.addVariable("EXTENDED_METADATA", bytes: Array("META".utf8) + fixed("", 256) + fixed(minimumDeploymentTarget, 256)
                           + fixed(platform.deploymentPlatform, 256) + fixed("themed compile (CoreUI \(Self.coreUIVersion) layout)", 256))
        writer.addInlineKeyTree("BITMAPKEYS", items: bitmapKeys)
        return writer.file()
    }

    private func header(renditionCount: Int) -> [UInt8] {
        var bytes = tag("CTAR") + le32(Self.coreUIVersion) + le32(17) + le32(0) + le32(renditionCount)
        bytes += fixed("@(#)PROGRAM:CoreUI  PROJECT:CoreUI-\(Self.coreUIVersion)", 128)
        bytes += fixed("themed compile", 256)
        bytes += [UInt8](repeating: 0, count: 16) // uuid
        bytes += le32(0) + le32(2) + le32(1) + le32(platform == .macos ? 1 : 2)
        return bytes
    }

    /// APPEARANCEKEYS ids as iOS catalogs number them (car-format.md 4.5).
    static let appearanceIDs: [Appearance: Int] = [
        .any: 0, Appearance(.dark): 1, Appearance(.any, highContrast: true): 2,
        Appearance(.dark, highContrast: true): 3, Appearance(.light): 4, Appearance(.light, highContrast: true): 5,
    ]
}
