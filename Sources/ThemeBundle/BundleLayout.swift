import Foundation

/// Where a bundle keeps its resources and its Info.plist, decided from the entries directly
/// inside the bundle folder as CFBundle does (lookup-rules.md 1.1).
public struct BundleLayout: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// iOS apps and frameworks, resource-only bundles, plain folders: everything at the root.
        case flat
        /// macOS apps and loadable bundles: `Contents/Info.plist`, `Contents/Resources`.
        case contents
        /// macOS frameworks: `Resources` (a link to `Versions/Current/Resources`).
        case resourcesAtRoot = "resources-at-root"
        /// Pre-OS X bundles: `Support Files/Resources`.
        case supportFiles = "support-files"
    }

    public var kind: Kind
    /// The "global" resources folder (absolute path).
    public var resourcesPath: String
    /// The folder that holds Info.plist.
    public var infoFolderPath: String
    /// How the layout was found, when that is worth a log line (a framework unpacked without
    /// its symbolic links, an obsolete layout).
    public var note: String?

    /// Bundle extensions: a folder with one of these inside a theme is a bundle of its own.
    public static let bundleExtensions: Set<String> = ["app", "appex", "bundle", "framework", "plugin", "xpc"]

    public static func detect(_ bundlePath: String) -> BundleLayout {
        let names = Dictionary(FileSystem.directories(in: bundlePath).map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        func folder(_ name: String) -> String? { names[name.lowercased()].map { "\(bundlePath)/\($0)" } }
        let contents = folder("Contents"), resources = folder("Resources")
        if bundlePath.hasSuffix(".framework") {
            if let resources { return BundleLayout(kind: .resourcesAtRoot, resourcesPath: resources, infoFolderPath: resources) }
            if let contents { return contentsLayout(contents) }
            if let versioned = versionedResources(bundlePath) { return versioned }
        } else {
            if let contents { return contentsLayout(contents) }
            if let resources { return BundleLayout(kind: .resourcesAtRoot, resourcesPath: resources, infoFolderPath: resources) }
        }
        if let support = folder("Support Files") {
            return BundleLayout(kind: .supportFiles, resourcesPath: "\(support)/Resources", infoFolderPath: support,
                                note: "\(bundlePath): obsolete 'Support Files' layout")
        }
        return BundleLayout(kind: .flat, resourcesPath: bundlePath, infoFolderPath: bundlePath)
    }

    private static func contentsLayout(_ contents: String) -> BundleLayout {
        BundleLayout(kind: .contents, resourcesPath: "\(contents)/Resources", infoFolderPath: contents)
    }

    /// A framework unpacked without its symbolic links (a zip made on Linux): the resources of
    /// `Versions/Current`, else of the only version, else of the last version in byte order.
    private static func versionedResources(_ bundlePath: String) -> BundleLayout? {
        let versions = "\(bundlePath)/Versions"
        let candidates = FileSystem.directories(in: versions).filter { FileSystem.isDirectory("\(versions)/\($0)/Resources") }
        guard let version = candidates.contains("Current") ? "Current" : candidates.last else { return nil }
        let resources = "\(versions)/\(version)/Resources"
        return BundleLayout(kind: .resourcesAtRoot, resourcesPath: resources, infoFolderPath: resources,
                            note: "\(bundlePath): no Resources link; using Versions/\(version)/Resources")
    }
}
