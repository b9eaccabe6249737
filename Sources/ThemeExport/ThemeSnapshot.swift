import Foundation
import ThemeBundle
import ThemeIndex
import ThemeVocabulary

/// A theme read as a sync reads it, in a scratch index of its own: its colours in every mode, its
/// other design tokens, its strings and its theme.json. What `themed check` and `themed diff` read
/// from a folder, and what a replica reads of two releases to diff them.
public struct ThemeSnapshot: Sendable {
    public var info: ThemeInfo
    public var colors: ColorTable
    public var settings: ThemeSettings
    public var tokens: TokenTable
    public var strings: StringTable

    /// Why a path cannot be read as a theme.
    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The theme at `path` (a theme folder or a lone .car), with the parents its theme.json names
    /// from the folder `parents` (by default the one beside it), as the server would find them:
    /// a scratch themes folder links it and them, never the rest of that folder.
    public init(reading path: String, parentsIn parents: String? = nil) throws {
        let fileName = (path as NSString).lastPathComponent
        let isCatalog = fileName.hasSuffix(".car")
        let name = isCatalog ? String(fileName.dropLast(4)) : fileName
        guard isCatalog ? FileSystem.isRegularFile(path) : FileSystem.isDirectory(path) else {
            throw Unreadable(description: "\(path): no such theme folder or .car file")
        }
        guard ThemeName.isValid(name) else { throw Unreadable(description: "\(fileName): not a theme name (\(ThemeName.rule))") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("themed-check-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let themes = scratch + "/themes"
        try FileManager.default.createDirectory(atPath: themes, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(themes)/\(fileName)", withDestinationPath: path)
        let beside = parents ?? (path as NSString).deletingLastPathComponent
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
        let index = try ThemeIndex(databasePath: scratch + "/index.sqlite")
        _ = try index.writer.sync(themesDirectory: themes)
        let all = try index.reader.themes()
        guard let info = all.first(where: { $0.name == name }) else { throw Unreadable(description: "\(path): not read as a theme") }
        let chain = (try? ThemeInfo.chain(of: name, in: all)) ?? [info]
        let bundles = chain.flatMap(\.sources).compactMap(\.bundle)
        let localizations = Set(bundles.flatMap(\.availableLocalizations) + bundles.compactMap(\.developmentRegion)).sorted()
        self.info = info
        settings = isCatalog ? ThemeSettings() : ((try? ThemeSettings(folder: path)) ?? ThemeSettings())
        colors = try ColorTable(reading: index.reader, chain: chain)
        tokens = try TokenTable(reading: index.reader, chain: chain)
        strings = try StringTable(reading: index.reader, chain: chain, localizations: localizations)
    }
}
