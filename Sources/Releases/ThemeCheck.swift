import AssetCatalog
import Cluster
import Foundation
import ThemeIndex

/// What a release holds, checked the way the server will read it: a .car must open as a catalog
/// with every rendition readable; a folder is indexed (in a temporary index) and must load with
/// no theme or source error. `themed publish` and `POST /themes/{theme}/releases` both use it.
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
    /// file name), once they pass the check.
    public static func files(of path: String, theme: String, name: String? = nil) throws -> [File] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw Refused(description: "no such file or folder") }
        if !isFolder.boolValue {
            let catalog = try AssetCatalog(path: path)
            if let first = catalog.renditionErrors.first { throw Refused(description: "\(catalog.renditionErrors.count) renditions cannot be read: \(first)") }
            return [File(path: name ?? URL(fileURLWithPath: path).lastPathComponent, location: path)]
        }
        let root = URL(fileURLWithPath: path).standardizedFileURL.path
        var files: [File] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let fileName = (relative as NSString).lastPathComponent
            if fileName.hasPrefix(".") { if (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { enumerator?.skipDescendants() }; continue }
            guard (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeRegular else { continue }
            guard Release.isSafe(path: relative) else { throw Refused(description: "\(relative) is not a path a release may hold") }
            files.append(File(path: relative, location: "\(root)/\(relative)"))
        }
        try checkIndexes(root: root, theme: theme)
        return files
    }

    /// Indexes a copy of the folder as the theme, and refuses it when the index reports errors.
    static func checkIndexes(root: String, theme: String) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("themed-publish-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createDirectory(at: scratch.appendingPathComponent("themes"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root, toPath: scratch.appendingPathComponent("themes/\(theme)").path)
        let index = try ThemeIndex(databasePath: scratch.appendingPathComponent("index.sqlite").path)
        _ = try index.writer.sync(themesDirectory: scratch.appendingPathComponent("themes").path)
        guard let loaded = try index.reader.themes().first(where: { $0.name == theme }) else { throw Refused(description: "not a theme themed can read") }
        let problems = ([loaded.error] + loaded.sources.map(\.error)).filter { !$0.isEmpty }
        if let first = problems.first { throw Refused(description: first.split(separator: "\n").first.map(String.init) ?? first) }
        if loaded.sources.isEmpty { throw Refused(description: "no catalog, .xcassets folder or bundle in it") }
    }

    /// Reads a checked file's bytes (one at a time, as the store takes them).
    public static func contents(of file: File) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: file.location)))
    }
}
