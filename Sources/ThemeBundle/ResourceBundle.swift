import CLinux
import Foundation

/// One bundle directory read from disk: its layout, Info.plist, localizations, loose image
/// files, `.strings` tables, the catalogs it carries and the bundles nested in it
/// (lookup-rules.md 1 and 3).
///
/// Only the resources folder and its `.lproj` folders hold the bundle's own resources; nested
/// bundles (`Frameworks/Kit.framework`, `PlugIns/X.appex`, `Settings.bundle`) are listed, never
/// searched as part of this one. Links that leave the theme folder are ignored.
public struct ResourceBundle: Sendable, Equatable {
    /// A loose image file.
    public struct File: Sendable, Equatable {
        public var path: String
        /// The base name with its sub-folders (`Posters/poster`), NFC.
        public var name: String
        public var fileName: ResourceFileName
        /// The `.lproj` folder's base name, or "" for the global folder.
        public var locale: String
    }

    /// A `.strings` file: table `Localizable` in `fr.lproj`, ...
    public struct StringsTable: Sendable, Equatable {
        public var path: String
        public var table: String
        public var locale: String
    }

    /// A String Catalog (`Localizable.xcstrings`) of the resources folder: the table of that name
    /// in every language it has, as the `.lproj` tables Xcode would build from it.
    public struct StringCatalogFile: Sendable, Equatable {
        public var path: String
        public var table: String
    }

    public var path: String
    public var layout: BundleLayout
    public var info: BundleInfo
    public var files: [File] = []
    public var strings: [StringsTable] = []
    public var stringCatalogs: [StringCatalogFile] = []
    /// `.car` files of the resources folder and `.xcassets` folders anywhere in the bundle.
    public var catalogs: [String] = []
    public var nestedBundles: [String] = []
    /// Every path whose size and time decide whether the bundle must be read again.
    public var watchedPaths: [String] = []
    public var problems: [String] = []

    /// Caps that keep a hostile or accidental tree (a node_modules, a link farm) from stalling a sync.
    public static let maximumDepth = 8
    public static let maximumEntries = 100_000

    public init(path: String, themeRoot: String) {
        self.path = path
        // An iOS app wrapped for the Mac (`Wrapper/X.app` and a `WrappedBundle` link to it) is
        // read as the bundle the link points to, when the link stays inside the theme.
        let wrapped = "\(path)/WrappedBundle"
        let root = ThemePaths.resolved(themeRoot)
        let bundlePath = FileSystem.isDirectory(wrapped) && ThemePaths.stays(wrapped, inside: root) ? ThemePaths.resolved(wrapped) : path
        layout = BundleLayout.detect(bundlePath)
        info = BundleInfo(path: path)
        info.readInfoPlist(in: layout.infoFolderPath)
        if let problem = info.problem { problems.append(problem) }
        if let note = layout.note { problems.append(note) }
        if let plist = FileSystem.entries(of: layout.infoFolderPath).first(where: { $0.lowercased() == "info.plist" }) {
            watchedPaths.append("\(layout.infoFolderPath)/\(plist)")
        }
        var walker = Walker(root: root)
        walker.walkResources(layout.resourcesPath, into: &self)
        if layout.kind != .flat { walker.findBundles(bundlePath, skipping: layout.resourcesPath, depth: 0, into: &self) }
        if walker.entries >= Self.maximumEntries { problems.append("\(path): more than \(Self.maximumEntries) entries; the rest is ignored") }
        info.localizationFolders.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Whether the bundle offers anything to index.
    public var isEmpty: Bool {
        files.isEmpty && strings.isEmpty && stringCatalogs.isEmpty && !info.hasLocalizations && info.identifier == nil
    }

    private struct Walker {
        let root: String
        var entries = 0
        /// Folders already walked, by resolved path: a link back to an enclosing folder is
        /// walked once, not until the depth cap.
        var walked: Set<String> = []

        mutating func walkResources(_ folder: String, into bundle: inout ResourceBundle, relative: String = "", locale: String = "", depth: Int = 0) {
            let resolvedFolder = ThemePaths.resolved(folder)
            guard walked.insert(resolvedFolder).inserted else { return }
            // An entry that is no link lies where its folder does: only links are resolved to see
            // where they lead (a resolution per file cost a platform's start a path walk each).
            let folderStays = ThemePaths.isInside(resolvedFolder, root: root)
            for listed in FileSystem.sortedListing(of: folder) {
                entries += 1
                guard entries < ResourceBundle.maximumEntries else { return }
                let entry = listed.name
                let path = "\(folder)/\(entry)"
                guard folderStays && !listed.isLink || ThemePaths.stays(path, inside: root) else {
                    bundle.problems.append("\(path): link leaves the theme folder; ignored")
                    continue
                }
                let pathExtension = (entry as NSString).pathExtension
                if listed.isLink ? FileSystem.isDirectory(path) : listed.isFolder {
                    if BundleLayout.bundleExtensions.contains(pathExtension) {
                        bundle.nestedBundles.append(path)
                    } else if pathExtension == "xcassets" {
                        bundle.catalogs.append(path)
                    } else if pathExtension == "lproj", relative.isEmpty, locale.isEmpty {
                        let name = (entry as NSString).deletingPathExtension
                        bundle.info.localizationFolders.append(name)
                        bundle.watchedPaths.append(path)
                        walkResources(path, into: &bundle, locale: name, depth: depth + 1)
                    } else if entry != "__MACOSX", depth < ResourceBundle.maximumDepth {
                        walkResources(path, into: &bundle, relative: "\(relative)\(entry)/", locale: locale, depth: depth + 1)
                    }
                    continue
                }
                if pathExtension == "car" {
                    if relative.isEmpty, locale.isEmpty { bundle.catalogs.append(path) }
                } else if pathExtension == "xcstrings" {
                    guard relative.isEmpty, locale.isEmpty else { continue }
                    bundle.stringCatalogs.append(StringCatalogFile(path: path, table: (entry as NSString).deletingPathExtension))
                    bundle.watchedPaths.append(path)
                    // Its languages are localizations of the bundle, as the .lproj folders Xcode
                    // would make of them.
                    do {
                        let catalog = try StringCatalog(bytes: Array(FileManager.default.contents(atPath: path) ?? Data()))
                        for language in catalog.languages where !bundle.info.localizationFolders.contains(language) {
                            bundle.info.localizationFolders.append(language)
                        }
                    } catch {
                        bundle.problems.append("\(path): \(error)")
                    }
                } else if pathExtension == "strings" || pathExtension == "stringsdict" {
                    guard relative.isEmpty else { continue }
                    bundle.strings.append(StringsTable(path: path, table: (entry as NSString).deletingPathExtension, locale: locale))
                    bundle.watchedPaths.append(path)
                } else if entry.lowercased() != "info.plist", let name = ResourceFileName(entry),
                          ResourceFileName.imageExtensions.contains(name.pathExtension) {
                    let fullName = (relative + name.base).precomposedStringWithCanonicalMapping
                    bundle.files.append(File(path: path, name: fullName, fileName: name, locale: locale))
                    bundle.watchedPaths.append(path)
                }
            }
        }

        /// Bundles outside the resources folder (`Contents/Frameworks`, `Contents/PlugIns`).
        mutating func findBundles(_ folder: String, skipping resources: String, depth: Int, into bundle: inout ResourceBundle) {
            guard depth < 4 else { return }
            for entry in FileSystem.directories(in: folder) {
                entries += 1
                let path = "\(folder)/\(entry)"
                guard path != resources, entries < ResourceBundle.maximumEntries, ThemePaths.stays(path, inside: root),
                      ThemePaths.resolved(path) != ThemePaths.resolved(resources) else { continue }
                if BundleLayout.bundleExtensions.contains((entry as NSString).pathExtension) {
                    bundle.nestedBundles.append(path)
                } else if entry != "Versions" {
                    findBundles(path, skipping: resources, depth: depth + 1, into: &bundle)
                }
            }
        }
    }
}

/// Path checks that keep a theme inside its folder.
public enum ThemePaths {
    /// The path with every symbolic link resolved, walked once by the kernel
    /// (`themed_resolve_path`): Foundation's `resolvingSymlinksInPath` asks for each component in
    /// turn, a seventh of a replica's start at 10,000 themes. A path that does not exist (yet) is
    /// resolved by Foundation, as far as it goes.
    public static func resolved(_ path: String) -> String {
        let target = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX)) { buffer -> String? in
            guard let start = buffer.baseAddress, themed_resolve_path(path, start, buffer.count) > 0, start.pointee == 0x2F else { return nil }
            return String(cString: start)
        }
        // A file removed while it was open is named "... (deleted)".
        if let target, !target.hasSuffix(" (deleted)") { return target }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// Whether `path`, once its links are resolved, lies inside `root` (already resolved).
    public static func stays(_ path: String, inside root: String) -> Bool {
        isInside(resolved(path), root: root)
    }

    /// Whether the resolved path `target` is `root` or lies under it (both resolved).
    static func isInside(_ target: String, root: String) -> Bool {
        target == root || target.hasPrefix(root + "/")
    }
}
