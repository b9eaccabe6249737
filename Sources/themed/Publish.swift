import ArgumentParser
import AssetCatalog
import Cluster
import Foundation
import ThemeIndex

/// `themed publish`: checks a theme and stores it as a release in the cluster store, which every
/// replica following the store then serves.
struct Publish: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a theme (a folder or one .car) and publish it to the cluster store as a new release.",
        discussion: "A theme that does not parse is refused and nothing is stored (exit status 2).")

    @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String
    @Argument(help: "The theme's name.") var theme: String
    @Argument(help: "A theme folder (.xcassets, bundles, .car files) or a single .car file.") var path: String

    func run() throws {
        guard Release.isPublishable(theme: theme) else { throw Self.refuse("\"\(theme)\" is not a theme name a release may take: \(Release.publishableRule)") }
        let files: [(path: String, bytes: [UInt8])]
        do {
            files = try ThemeCheck.files(of: path, theme: theme)
        } catch {
            throw Self.refuse("\(path): \(error)")
        }
        let generation: Int64
        do {
            generation = try ClusterStore(url: cluster).publish(theme: theme, files: files)
        } catch {
            throw Self.refuse("\(error)")
        }
        print("published \(theme) generation \(generation) (\(files.count) files)")
    }

    /// One line on standard error, naming the command, and exit status 2.
    static func refuse(_ message: String, command: String = "publish") -> ExitCode {
        FileHandle.standardError.write(Data("themed \(command): \(message)\n".utf8))
        return ExitCode(2)
    }
}

/// `themed retire`: removes a theme from every replica as a new generation.
struct Retire: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Retire a theme from the cluster store (every replica stops serving it).")

    @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String
    @Argument(help: "The theme's name.") var theme: String

    func run() throws {
        do {
            let generation = try ClusterStore(url: cluster).retire(theme: theme)
            print("retired \(theme) at generation \(generation)")
        } catch {
            throw Publish.refuse("\(error)", command: "retire")
        }
    }
}

/// What a release holds, checked the way the server will read it: a .car must open as a catalog
/// with every rendition readable; a folder is indexed (in a temporary index) and must load with
/// no theme or source error.
enum ThemeCheck {
    struct Refused: Error, CustomStringConvertible { var description: String }

    static func files(of path: String, theme: String) throws -> [(path: String, bytes: [UInt8])] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw Refused(description: "no such file or folder") }
        if !isFolder.boolValue {
            let catalog = try AssetCatalog(path: path)
            if let first = catalog.renditionErrors.first { throw Refused(description: "\(catalog.renditionErrors.count) renditions cannot be read: \(first)") }
            return [(URL(fileURLWithPath: path).lastPathComponent, Array(try Data(contentsOf: URL(fileURLWithPath: path))))]
        }
        let root = URL(fileURLWithPath: path).standardizedFileURL.path
        var files: [(path: String, bytes: [UInt8])] = []
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") { if (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { enumerator?.skipDescendants() }; continue }
            guard (enumerator?.fileAttributes?[.type] as? FileAttributeType) == .typeRegular else { continue }
            guard Release.isSafe(path: relative) else { throw Refused(description: "\(relative) is not a path a release may hold") }
            files.append((relative, Array(try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(relative)")))))
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
}
