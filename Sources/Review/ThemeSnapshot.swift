import BlobStore
import Foundation
import ThemeBundle
import ThemeContent
import ThemeExport
import ThemeIndex
import ThemeVocabulary

/// A theme read as a sync reads it, in a scratch index of its own: its colours in every mode, its
/// other design tokens, its strings, its images', data assets' and loose files' bytes (as served, a
/// catalog's bitmaps as PNG) and its theme.json. What `themed check` and `themed diff` read from a folder,
/// and what a replica reads of two releases to diff them.
public struct ThemeSnapshot: Sendable {
    public var info: ThemeInfo
    public var colors: ColorTable
    public var settings: ThemeSettings
    public var tokens: TokenTable
    public var strings: StringTable
    /// A token theme's colours at each combination of contexts of its modifiers chosen by name
    /// (`brand=portal`, `brand=portal&density=compact`), by `TraitRequest.contexts`: those that
    /// change fewest modifiers first, at most `contextsCompared`; `contextsCut` says there were more.
    public var colorsByContexts: [String: ColorTable]
    public var contextsCut = false
    public static let contextsCompared = 64
    /// The theme's own images and data assets (not its parents'), each variant's bytes as served
    /// by `ImageKey`, up to the reading's `imageBytes` in all; `imagesCut` says the rest were left out.
    public var images: [ImageKey: ImageContent]
    public var imagesCut = false

    /// What a theme's images may hold in memory for a diff made by a command (a replica keeps
    /// less: `ReleaseDesk.imageBytes`).
    public static let imageBytesLimit = 256 << 20

    /// An image or data asset's variant: its name and its traits as a label
    /// (`@2x universal dark srgb`, with a size, subtype or localization where it has one).
    public struct ImageKey: Sendable, Hashable, Comparable {
        public var name: String
        public var variant: String

        public static func < (a: ImageKey, b: ImageKey) -> Bool { (a.name, a.variant) < (b.name, b.variant) }
    }

    /// A variant's bytes as served.
    public struct ImageContent: Sendable, Equatable {
        public var isData: Bool
        public var bytes: [UInt8]
    }

    /// Why a path cannot be read as a theme.
    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The theme at `path` (a theme folder or a lone .car), with the parents its theme.json names
    /// from the folder `parents` (by default the one beside it), as the server would find them:
    /// a scratch themes folder links it and them, never the rest of that folder. Its images are
    /// read up to `imageBytes` (0: none, as a check reads it).
    /// What a reading makes: everything a review compares, or what a check of contrast pairs
    /// reads (the theme's problems and its colours, not the other combinations of contexts,
    /// tokens and strings a diff compares).
    public enum Extent: Sendable { case review, check }

    public init(reading path: String, parentsIn parents: String? = nil, imageBytes: Int = imageBytesLimit, extent: Extent = .review) throws {
        let scratch = try ScratchThemes(linking: path, parentsIn: parents)
        defer { scratch.remove() }
        let index = try ThemeIndex(databasePath: scratch.root + "/index.sqlite", durability: .scratch)
        _ = try index.writer.sync(themesDirectory: scratch.themes)
        try self.init(reading: index, of: scratch, path: path, imageBytes: imageBytes, extent: extent)
    }

    /// A theme before and after a change (each a theme folder or a lone .car, with its parents
    /// as `init(reading:)` finds them), as a review compares them: each side's scratch index
    /// holds only what differs between the two and the colours of their contrast pairs
    /// (`IndexWriter.syncDifferences`), so each snapshot has only those, and a small edit of a
    /// large design system is read in about the time its files take to parse. What `themed diff`
    /// reads; a side that cannot be read is said as if they were read in turn, the first first.
    public static func pair(reading before: String, _ after: String, parentsIn parents: String? = nil,
                            imageBytes: Int = imageBytesLimit) throws -> (before: ThemeSnapshot, after: ThemeSnapshot) {
        let old = try ScratchThemes(linking: before, parentsIn: parents)
        defer { old.remove() }
        let new = try ScratchThemes(linking: after, parentsIn: parents)
        defer { new.remove() }
        let sides = [(old, before), (new, after)]
        let indexes = try sides.map { scratch, _ in try ThemeIndex(databasePath: scratch.root + "/index.sqlite", durability: .scratch) }
        try IndexWriter.syncDifferences((old.themes, indexes[0].writer), (new.themes, indexes[1].writer))
        let read = Array(zip(sides, indexes)).concurrentMap { side, index in
            Result { try ThemeSnapshot(reading: index, of: side.0, path: side.1, imageBytes: imageBytes, extent: .review) }
        }
        return (try read[0].get(), try read[1].get())
    }

    /// The theme a scratch index holds, as read from `path`.
    private init(reading index: ThemeIndex, of scratch: ScratchThemes, path: String, imageBytes: Int, extent: Extent) throws {
        guard let info = try index.reader.themes().first(where: { $0.name == scratch.name }) else { throw Unreadable(description: "\(path): not read as a theme") }
        try self.init(reading: index.reader, theme: info.name, settings: scratch.settings, extent: extent)
        (images, imagesCut) = imageBytes > 0 ? try Self.images(of: info, in: index, scratch: scratch.root, limit: imageBytes) : ([:], false)
    }

    /// The theme `name` as `reader` has it (a served index, or one pinned to how it was before a
    /// reload), with `settings` (its contrast pairs), without its images.
    public init(reading reader: IndexReader, theme name: String, settings: ThemeSettings, extent: Extent = .review) throws {
        let all = try reader.themes()
        guard let info = all.first(where: { $0.name == name }) else { throw Unreadable(description: "\(name): not in the index") }
        let chain = (try? ThemeInfo.chain(of: name, in: all)) ?? [info]
        let bundles = chain.flatMap(\.sources).compactMap(\.bundle)
        let localizations = Set(bundles.flatMap(\.availableLocalizations) + bundles.compactMap(\.developmentRegion)).sorted()
        self.info = info
        self.settings = settings
        images = [:]
        guard extent == .review else {
            colors = try ColorTable(reading: reader, chain: chain)
            (colorsByContexts, contextsCut, tokens, strings) = ([:], false, .empty, StringTable(values: [:]))
            return
        }
        let modifiers = reader.tokenOwner(in: chain)?.source.modifiers ?? []
        let (choices, cut) = Self.combinations(of: modifiers.filter { !$0.mapsToTraits }, limit: Self.contextsCompared)
        var byContexts = try ColorTable.tables(reading: reader, chain: chain, contexts: [""] + choices.map { TokenModifier.contexts($0, of: modifiers) })
        colors = byContexts.removeValue(forKey: "") ?? ColorTable(theme: info.name, revision: info.revision, rows: [])
        (colorsByContexts, contextsCut) = (byContexts, cut)
        tokens = try TokenTable(reading: reader, chain: chain)
        strings = try StringTable(reading: reader, chain: chain, localizations: localizations)
    }

    /// A scratch themes folder that links the theme at a path (a folder or a lone .car) and the
    /// parents its theme.json names from `parents` (by default the folder beside it), as the
    /// server would find them, never the rest of that folder.
    struct ScratchThemes {
        let root: String
        var themes: String { root + "/themes" }
        let name: String
        /// The theme's theme.json with what it inherits (a lone catalog has none).
        let settings: ThemeSettings

        init(linking path: String, parentsIn parents: String?) throws {
            let fileName = (path as NSString).lastPathComponent
            let isCatalog = fileName.hasSuffix(".car")
            name = isCatalog ? String(fileName.dropLast(4)) : fileName
            guard isCatalog ? FileSystem.isRegularFile(path) : FileSystem.isDirectory(path) else {
                throw Unreadable(description: "\(path): no such theme folder or .car file")
            }
            guard ThemeName.isValid(name) else { throw Unreadable(description: "\(fileName): not a theme name (\(ThemeName.rule))") }
            settings = isCatalog ? ThemeSettings() : ((try? ThemeSettings(inheritingAt: path)) ?? ThemeSettings())
            root = FileManager.default.temporaryDirectory.appendingPathComponent("themed-check-\(UUID().uuidString)").path
            let themes = root + "/themes"
            do {
                try FileManager.default.createDirectory(atPath: themes, withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: "\(themes)/\(fileName)", withDestinationPath: path)
                let beside = parents ?? FilePaths.folder(of: path)
                var next = isCatalog ? nil : (try? ThemeSettings(folder: path))?.parent
                var linked: Set<String> = [name]
                while let parent = next, ThemeName.isValid(parent), linked.insert(parent).inserted, linked.count <= 16 {
                    let folder = "\(beside)/\(parent)"
                    if FileSystem.isDirectory(folder) {
                        try FileManager.default.createSymbolicLink(atPath: "\(themes)/\(parent)", withDestinationPath: folder)
                        next = (try? ThemeSettings(folder: folder))?.parent
                    } else if FileSystem.isRegularFile(folder + ".car") {
                        try FileManager.default.createSymbolicLink(atPath: "\(themes)/\(parent).car", withDestinationPath: folder + ".car")
                        next = nil
                    } else {
                        next = nil
                    }
                }
            } catch {
                try? FileManager.default.removeItem(atPath: root)
                throw error
            }
        }

        func remove() { try? FileManager.default.removeItem(atPath: root) }
    }

    /// The combinations of `modifiers`' contexts other than all defaults, those that change one
    /// modifier first, then two, ...; at most `limit`, and whether there were more.
    static func combinations(of modifiers: [TokenModifier], limit: Int) -> (choices: [[String: String]], cut: Bool) {
        var choices: [[String: String]] = []
        var cut = false
        // Every choice of `changed` modifiers from `start` on, each at a context other than its default.
        func choose(_ changed: Int, from start: Int, _ choice: [String: String]) {
            guard choice.count < changed else {
                if choices.count < limit { choices.append(choice) } else { cut = true }
                return
            }
            for index in start..<modifiers.count where !cut {
                let modifier = modifiers[index]
                for context in modifier.contexts where context != modifier.defaultContext && !cut {
                    choose(changed, from: index + 1, choice.merging([modifier.name: context]) { $1 })
                }
            }
        }
        for changed in modifiers.indices.map({ $0 + 1 }) where !cut { choose(changed, from: 0, [:]) }
        return (choices, cut)
    }

    /// The bytes of the theme's image and data variants, as the content store serves them.
    private static func images(of theme: ThemeInfo, in index: ThemeIndex, scratch: String, limit: Int) throws -> ([ImageKey: ImageContent], Bool) {
        let content = ContentStore(blobs: try BlobStore(directory: scratch + "/blobs"), configuration: .init(warmsAfterReload: false))
        var images: [ImageKey: ImageContent] = [:]
        var total = 0
        do {
            for resolution in try index.reader.storedContent(of: theme) {
                let kind = resolution.variant.kind
                // A variant that cannot be read is left out: its source's problem is the theme's error.
                guard let served = try? content.loadWaiting(resolution), let bytes = try? content.bytes(of: served) else { continue }
                total += bytes.count
                guard total <= limit else { return (images, true) }
                images[ImageKey(name: resolution.variant.name, variant: label(resolution.variant.traits, kind: kind))] = ImageContent(isData: kind == .data, bytes: bytes)
            }
        }
        return (images, false)
    }

    static func label(_ traits: VariantTraits, kind: AssetKind) -> String {
        // A vector or a data asset has no scale.
        let scale = traits.scale > 0 ? "@\(traits.scale)x" : "any scale"
        // A bundle's loose file: its extension and platform suffix, as its name carries them.
        if kind == .file { return ([scale, traits.fileExtension, traits.platform, traits.locale]).filter { !$0.isEmpty }.joined(separator: " ") }
        var parts = [scale, traits.idiom.name, traits.appearance.label, traits.gamut.name]
        if traits.pointSize > 0 { parts.append("\(traits.pointSize)pt") }
        if traits.subtype > 0 { parts.append("subtype \(traits.subtype)") }
        if !traits.locale.isEmpty { parts.append(traits.locale) }
        return parts.joined(separator: " ")
    }
}
