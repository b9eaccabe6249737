import Foundation
import Sharding
import ThemeBundle
import ThemeVocabulary

/// A theme on disk: `themes/NAME/` (a plain folder or a bundle) with `.car` files, `.xcassets`
/// folders, bundles and loose resources, and an optional `theme.json` naming a parent; or
/// `themes/NAME.car` alone.
public struct ThemeFolder: Sendable, Equatable {
    public struct Source: Sendable, Equatable {
        public var path: String
        public var kind: SourceKind
        /// For `.bundle` sources: what the bundle holds (its loose files and strings tables).
        public var bundle: ResourceBundle?
        /// For catalogs: the bundle they were found in, whose chosen localization they fall back
        /// to (lookup-rules.md 4.5).
        public var owner: String?
        /// For design tokens: the files and what theme.json maps their contexts to. For Material
        /// roles whose seed is an alias: the tokens it is resolved in.
        public var tokens: TokenFiles?
        /// For Material roles: theme.json's `material`.
        public var material: MaterialSettings?

        public init(path: String, kind: SourceKind, bundle: ResourceBundle? = nil, owner: String? = nil, tokens: TokenFiles? = nil,
                    material: MaterialSettings? = nil) {
            (self.path, self.kind, self.bundle, self.owner, self.tokens, self.material) = (path, kind, bundle, owner, tokens, material)
        }
    }

    /// A theme folder's design tokens: its `*.tokens.json` (or `*.tokens`) files in path order
    /// and its `*.resolver.json`, all at the folder's top, or a Tokens Studio folder's
    /// `$metadata.json` (with `$themes.json` and the sets it orders); and theme.json's `traits`.
    public struct TokenFiles: Sendable, Equatable {
        public var root: String
        public var files: [String]
        public var resolver: String?
        /// A Tokens Studio folder: its `$metadata.json` (a resolver document, if there is one, comes first).
        public var studioMetadata: String?
        public var traits: [String: [String: ThemeSettings.ContextTraits]]
        /// theme.json's `tokens.onError` is `keep`.
        public var keepOnError = false
        /// The token files of the themes this one inherits from, farthest first: read before its
        /// own, so that their aliases resolve to what it sets (a brand's primitives under a shared
        /// base's semantic layer).
        public var ancestors: [AncestorTokens] = []

        /// An ancestor theme's part in this one's tokens, by the theme's name: its token files, or
        /// for a theme of catalogs, the catalogs whose colours this one's aliases may name.
        public struct AncestorTokens: Sendable, Equatable {
            public var theme: String
            /// Its token files; nil for a theme of catalogs.
            public var files: TokenFiles?
            /// A theme of catalogs: its `.car` files and `.xcassets` folders (`CatalogTokenLayer`).
            public var catalogs: [Source] = []
        }

        /// The token files of `folder`, or nil when it has none.
        static func find(in folder: String, settings: ThemeSettings, warnings: inout [String]) -> TokenFiles? {
            let traits = settings.traits
            let entries = FileSystem.entries(of: folder).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let files = entries.filter { ($0.hasSuffix(".tokens.json") || $0.hasSuffix(".tokens")) && !$0.hasPrefix(".") }.map { "\(folder)/\($0)" }
            let resolvers = entries.filter { $0.hasSuffix(".resolver.json") && !$0.hasPrefix(".") }.map { "\(folder)/\($0)" }
            let studio = entries.contains("$metadata.json") ? "\(folder)/$metadata.json" : nil
            if resolvers.count > 1 { warnings.append("\(folder): \(resolvers.count) resolver documents; \(resolvers[0]) is used") }
            if studio != nil, let resolver = resolvers.first { warnings.append("\(folder): a resolver and a Tokens Studio $metadata.json; \(resolver) is used") }
            guard !files.isEmpty || !resolvers.isEmpty || studio != nil else { return nil }
            return TokenFiles(root: folder, files: files, resolver: resolvers.first, studioMetadata: studio, traits: traits,
                              keepOnError: settings.keepTokensOnError)
        }

        /// What the source is named by: the same whichever files there are (a resolver added
        /// later must not make it another source, which would lose what it served if it broke).
        var path: String { "\(root)/*.tokens.json" }
    }

    public var name: String
    public var path: String
    public var parent: String?
    /// Sources in lookup order (lookup-rules.md 5): the `Assets.car` of the theme's resources
    /// folder, then the other catalogs and `.xcassets` folders in byte order of their paths, then
    /// the loose files of each bundle: the theme folder's own first, then nested bundles by path.
    public var sources: [Source]
    /// Why the theme's own settings (theme.json) could not be read, if they could not: the index
    /// then keeps the parent it had (a typo never cuts a brand off its base).
    public var error: String?
    /// Problems met while reading the theme folder outside any indexed source.
    public var warnings: [String] = []
    /// Its theme.json as read (the defaults when there is none or it cannot be read).
    public var settings = ThemeSettings()

    /// At most this many bundles are read in one theme.
    public static let maximumBundles = 256

    /// Every theme under `directory`, sorted by name. Entries that are not themes are ignored.
    /// With a `shard`, only the themes it owns and their ancestors: the others' folders are not read.
    ///
    /// With a `neighbourhood`, only the folders a sync of its theme reads: it, its ancestors, and
    /// the themes below it. Reading every folder costs a platform of 10,000 themes more than a
    /// second of a core, at each change of one.
    public static func discover(in directory: String, shard: Shard? = nil, lineOf descendant: String? = nil,
                                around neighbourhood: Neighbourhood? = nil) -> [ThemeFolder] {
        // Names first, each with its entries in order (the first that is what it says wins),
        // checked on disk when asked for: a sync of one theme among thousands stats only its
        // neighbourhood's, and without a shard (which picks among every name) lists nothing.
        // Folders are read only when held.
        let entriesNamed = neighbourhood != nil && shard == nil ? nil : entries(in: directory)
        var located: [String: (path: String, isCatalog: Bool)?] = [:]
        func location(of name: String) -> (path: String, isCatalog: Bool)? {
            if let known = located[name] { return known }
            let candidates = entriesNamed.map { $0[name] ?? [] } ?? possibleEntries(named: name, in: directory)
            let found = candidates.first { $0.isCatalog ? FileSystem.isRegularFile($0.path) : FileSystem.isDirectory($0.path) }
            located[name] = .some(found)
            return found
        }
        var read: [String: ThemeFolder] = [:]
        func theme(_ name: String) -> ThemeFolder? {
            if let theme = read[name] { return theme }
            guard let (path, isCatalog) = location(of: name) else { return nil }
            let theme = isCatalog ? ThemeFolder(name: name, path: path, parent: nil, sources: [Source(path: path, kind: .car)])
                : folderTheme(name: name, path: path)
            read[name] = theme
            return theme
        }
        // Parents as the index holds them where it does, but for the neighbourhood's own theme.
        let parent = { (name: String) -> String? in
            guard let neighbourhood, name != neighbourhood.theme, let indexed = neighbourhood.tree.parents[name] else { return theme(name)?.parent }
            return indexed
        }
        let around = neighbourhood?.themes(ancestors: { theme($0)?.parent })
        var held: Set<String>
        if let entriesNamed {
            held = shard.map { $0.themesToHold(among: entriesNamed.keys, parent: parent) } ?? Set(entriesNamed.keys)
            if let around { held.formIntersection(around) }
        } else {
            held = around ?? []
        }
        if let descendant {
            var line = Set<String>()
            var next: String? = descendant
            while let name = next, held.contains(name), line.insert(name).inserted { next = theme(name)?.parent }
            held = line
        }
        return held.sorted().compactMap(theme).map { withAncestorTokens($0, theme: theme) }
    }

    /// The entries of `directory` that may be themes, by name, each name's in the order listed.
    private static func entries(in directory: String) -> [String: [(path: String, isCatalog: Bool)]] {
        var entriesNamed: [String: [(path: String, isCatalog: Bool)]] = [:]
        for entry in ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() {
            if entry.hasSuffix(".car") {
                let name = String(entry.dropLast(4))
                if ThemeName.isValid(name) { entriesNamed[name, default: []].append(("\(directory)/\(entry)", true)) }
            } else if ThemeName.isThemeFolder(entry) {
                entriesNamed[entry, default: []].append(("\(directory)/\(entry)", false))
            }
        }
        return entriesNamed
    }

    /// The entries the listing would give `name`, in its order, whether or not they exist.
    private static func possibleEntries(named name: String, in directory: String) -> [(path: String, isCatalog: Bool)] {
        guard ThemeName.isThemeFolder(name) else { return [] }
        // A kept generation is a folder only.
        return [("\(directory)/\(name)", false)] + (ThemeName.isValid(name) ? [("\(directory)/\(name).car", true)] : [])
    }

    /// A theme and what a sync of it alone reads besides: its ancestors (they settle its chain,
    /// and their tokens are read with its own) and every theme below it, by the parents the index
    /// holds (each reads its tokens, and its removal is refused while one inherits from it).
    public struct Neighbourhood: Sendable {
        public var theme: String
        /// The index's themes.
        var tree: ThemeTree

        init(theme: String, tree: ThemeTree) {
            (self.theme, self.tree) = (theme, tree)
        }

        public init(theme: String, parents: [String: String?]) {
            self.init(theme: theme, tree: ThemeTree(parents: parents))
        }

        /// `ancestors`: a folder's parent as read from disk (the theme's own may have changed).
        func themes(ancestors parent: (String) -> String?) -> Set<String> {
            tree.around(theme, ancestors: parent)
        }
    }

    /// `folder` with the token files of its parent chain attached to its own token source, and the
    /// catalogs of the chain's themes that have no tokens (a chain that loops stops where it does;
    /// ParentChains reports the loop).
    static func withAncestorTokens(_ folder: ThemeFolder, theme: (String) -> ThemeFolder?) -> ThemeFolder {
        guard let index = folder.sources.firstIndex(where: { $0.kind == .tokens }), var own = folder.sources[index].tokens else { return folder }
        var ancestors: [TokenFiles.AncestorTokens] = []
        var seen: Set<String> = [folder.name]
        var next = folder.parent
        while let name = next, seen.insert(name).inserted, let ancestor = theme(name) {
            if let files = ancestor.sources.first(where: { $0.kind == .tokens })?.tokens {
                ancestors.insert(.init(theme: name, files: files), at: 0)
            } else if case let catalogs = ancestor.sources.filter({ $0.kind == .car || $0.kind == .xcassets }), !catalogs.isEmpty {
                ancestors.insert(.init(theme: name, files: nil, catalogs: catalogs), at: 0)
            }
            next = ancestor.parent
        }
        guard !ancestors.isEmpty else { return folder }
        var folder = folder
        own.ancestors = ancestors
        folder.sources[index].tokens = own
        // A Material seed named by alias resolves among the same tokens.
        if let material = folder.sources.firstIndex(where: { $0.kind == .material }) { folder.sources[material].tokens = own }
        return folder
    }

    /// What a theme's Material roles are named by as a source: its theme.json and this.
    static let materialSuffix = "#material"
    static func materialPath(of folder: String) -> String { "\(folder)/\(ThemeSettings.fileName)\(materialSuffix)" }

    static func folderTheme(name: String, path: String) -> ThemeFolder {
        var theme = ThemeFolder(name: name, path: path, parent: nil, sources: [])
        // The theme folder is a bundle (a plain folder reads as a flat one); bundles nested in it
        // are read breadth first.
        var bundles: [ResourceBundle] = []
        var pending = [path]
        var seen = Set<String>()
        while !pending.isEmpty, bundles.count < maximumBundles {
            let next = pending.removeFirst()
            guard seen.insert(ThemePaths.resolved(next)).inserted else { continue }
            let bundle = ResourceBundle(path: next, themeRoot: path)
            bundles.append(bundle)
            pending += bundle.nestedBundles
        }
        if !pending.isEmpty { theme.warnings.append("\(path): more than \(maximumBundles) bundles; the rest is ignored") }

        var catalogs = bundles.flatMap { bundle in bundle.catalogs.map { (path: $0, owner: bundle.path) } }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        if let root = bundles.first, let index = catalogs.firstIndex(where: { $0.path == "\(root.layout.resourcesPath)/Assets.car" }) {
            catalogs.insert(catalogs.remove(at: index), at: 0)
        }
        for catalog in catalogs {
            theme.sources.append(Source(path: catalog.path, kind: catalog.path.hasSuffix(".car") ? .car : .xcassets, owner: catalog.owner))
        }
        var settings = ThemeSettings()
        do {
            settings = try ThemeSettings(inheritingAt: path)
            theme.parent = settings.parent
            theme.settings = settings
        } catch {
            theme.error = "\(path)/\(error)"
        }
        // Design tokens come after the catalogs and before the loose files of bundles.
        let tokens = TokenFiles.find(in: path, settings: settings, warnings: &theme.warnings)
        if let tokens { theme.sources.append(Source(path: tokens.path, kind: .tokens, tokens: tokens)) }
        let nested = bundles.dropFirst().sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        for bundle in bundles.prefix(1) + nested {
            if bundle.isEmpty && bundle.path == path {
                theme.warnings += bundle.problems
            } else {
                theme.sources.append(Source(path: bundle.path, kind: .bundle, bundle: bundle))
            }
        }
        // Material roles come last: the theme's own colours of the same name win.
        if let material = settings.material {
            theme.sources.append(Source(path: materialPath(of: path), kind: .material, tokens: tokens, material: material))
        }

        return theme
    }
}

/// A theme-level problem: a bad theme.json, a parent cycle, a missing parent.
public struct ThemeError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
