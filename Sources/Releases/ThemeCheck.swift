import AssetCatalog
import Cluster
import Foundation
import ThemeExport
import ThemeIndex
import ThemeVocabulary

/// What a release holds, checked the way the server will read it: a .car must open as a catalog
/// with every rendition readable; a folder is indexed (in a temporary index) and must load with
/// no theme or source error, its theme.json read strictly and its parent chain whole against the
/// themes it will join; with contrast policy `refuse`, no colour pair of its own below its minimum. `themed publish` and `POST /themes/{theme}/releases` both use it.
///
/// Refusals name files as the operator knows them: by their path in the release (the name in the
/// archive), after `shownAs` (the folder the operator gave, or nothing for an upload); never
/// where themed unpacked or linked them.
public enum ThemeCheck {
    public struct Refused: Error, CustomStringConvertible {
        public var description: String
    }

    /// A file of a checked theme: its path in the release and where its bytes are on disk.
    public struct File: Sendable, Equatable {
        public var path: String
        public var location: String

        public init(path: String, location: String) {
            (self.path, self.location) = (path, location)
        }
    }

    /// The files of a theme folder, or of one .car (named `name` in the release, or by its own
    /// file name), once they pass the check. `parents` says where the theme's parent may be: the
    /// store's themes for a release, or unchecked when a server will check it.
    public static func files(of path: String, theme: String, name: String? = nil, shownAs prefix: String = "",
                             parents: ParentScope) throws(Refused) -> [File] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw Refused(description: "\(prefix)\(name ?? path): no such file or folder") }
        if !isFolder.boolValue {
            let shown = prefix + (name ?? URL(fileURLWithPath: path).lastPathComponent)
            let catalog: AssetCatalog
            do {
                catalog = try AssetCatalog(path: path)
            } catch let error as CatalogError {
                throw Refused(description: error.named(shown).description)
            } catch {
                throw Refused(description: "\(shown): \(error)")
            }
            if let first = catalog.renditionErrors.first {
                throw Refused(description: "\(shown): \(catalog.renditionErrors.count) renditions cannot be read; the first: \(first.named(shown))")
            }
            return [File(path: name ?? URL(fileURLWithPath: path).lastPathComponent, location: path)]
        }
        let root = URL(fileURLWithPath: path).standardizedFileURL.path
        var files: [File] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let fileName = (relative as NSString).lastPathComponent
            if fileName.hasPrefix(".") { if (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { enumerator?.skipDescendants() }; continue }
            guard (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeRegular else { continue }
            guard Release.isSafe(path: relative) else { throw Refused(description: "\(prefix)\(relative) is not a path a release may hold") }
            files.append(File(path: relative, location: "\(root)/\(relative)"))
        }
        try checkIndexes(root: root, theme: theme, shownAs: prefix, parents: parents)
        return files
    }

    /// Refuses a theme folder whose parent chain breaks once it joins `themes` (the store's, with
    /// their parents): the rest of `files(of:parents:)`'s check, for a folder checked `.unchecked`
    /// while the store was still being asked. A single .car holds no theme.json, so names no parent.
    public static func checkParentChain(of path: String, theme: String, among themes: [String: String?]) throws(Refused) {
        guard let settings = try? ThemeSettings(folder: path) else { return }
        if let problem = ParentScope.chainProblem(of: theme, parent: settings.parent, among: themes) { throw Refused(description: problem) }
    }

    /// Indexes the folder as the theme, and refuses it when the index reports errors. The scratch
    /// themes folder links the folder under the theme's name rather than holding a copy: the
    /// index reads the same files either way, and a copy cost a file written and removed for every
    /// file of the theme (a publish's CPU, which on a busy host is also its wait for a CPU).
    static func checkIndexes(root: String, theme: String, shownAs prefix: String, parents: ParentScope) throws(Refused) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("themed-publish-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let linked = scratch.appendingPathComponent("themes/\(theme)").path
        let loaded: ThemeInfo?
        let index: ThemeIndex
        do {
            try FileManager.default.createDirectory(at: scratch.appendingPathComponent("themes"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: root)
            index = try ThemeIndex(databasePath: scratch.appendingPathComponent("index.sqlite").path, durability: .scratch)
            _ = try index.writer.sync(themesDirectory: scratch.appendingPathComponent("themes").path, parents: parents)
            loaded = try index.reader.themes().first(where: { $0.name == theme })
        } catch {
            throw Refused(description: "the theme could not be checked: \(error)".replacingOccurrences(of: scratch.path + "/", with: ""))
        }
        guard let loaded else { throw Refused(description: "not a theme themed can read") }
        let problems = ([loaded.error] + loaded.sources.map(\.error)).filter { !$0.isEmpty }
        if let first = problems.first {
            let line = first.split(separator: "\n").first.map(String.init) ?? first
            // A source that resolves links (a bundle's) names the folder itself, not the link.
            let named = line.contains(linked) ? linked : root
            throw Refused(description: line.replacingOccurrences(of: named + "/", with: prefix)
                .replacingOccurrences(of: named, with: prefix.isEmpty ? theme : prefix))
        }
        if loaded.sources.isEmpty { throw Refused(description: "no catalog, .xcassets folder or bundle in it") }
        try checkContrast(of: loaded, in: index, settingsAt: linked)
    }

    /// With `"policy": "refuse"`, a pair whose colours the release has, below its minimum in any
    /// mode, refuses it, naming pair, mode and ratio. A colour the release takes from its parent
    /// is not in the scratch index: such a pair is the reload's to check, against the parent served.
    static func checkContrast(of theme: ThemeInfo, in index: ThemeIndex, settingsAt folder: String) throws(Refused) {
        guard let settings = try? ThemeSettings(inheritingAt: folder), settings.refusesLowContrast,
              let table = try? ColorTable(reading: index.reader, chain: [theme]) else { return }
        let broken = ContrastReport(table: table, settings: settings).failures.filter { $0.ratio != nil }
        if let first = broken.first {
            let more = broken.count > 1 ? " (and \(broken.count - 1) more)" : ""
            throw Refused(description: "\(ContrastReport.describe(first))\(more); theme.json's contrast policy is refuse")
        }
    }

    /// Reads a checked file's bytes (one at a time, as the store takes them).
    public static func contents(of file: File) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: file.location)))
    }
}
