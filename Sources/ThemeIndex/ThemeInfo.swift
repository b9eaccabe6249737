import Hashing
import ThemeBundle
import ThemeVocabulary

/// A theme as the index knows it.
public struct ThemeInfo: Sendable {
    public var id: Int64
    public var name: String
    public var path: String
    public var parent: String?
    public var generation: Int
    public var error: String
    public var sources: [SourceInfo]
    /// The colour, image and loose file names it answers, its own and its ancestors' (the names
    /// its detail lists).
    public var colorCount: Int
    public var imageCount: Int
    public var fileCount: Int

    /// Names what the theme holds, from its parent and its sources' bytes in rank order: the same
    /// on every machine with the same files, unlike `generation`, which counts this index's syncs.
    public var revision: String {
        var hash = ContentHash()
        hash.add("parent:\(parent ?? "")\n")
        for source in sources { hash.add("\(source.kind.rawValue):\(source.contentHash)\n") }
        return String(hash.hex.prefix(32))
    }

    /// The theme folder read as a bundle, when it has localizations of its own: the bundle that
    /// plays the main bundle for those nested in it (lookup-rules.md 2.5).
    public var mainBundle: BundleInfo? {
        sources.first { $0.bundle?.path == path }?.bundle.flatMap { $0.hasLocalizations ? $0 : nil }
    }

    /// The theme named `name` and its ancestors, nearest first. A cycle or a missing parent is an
    /// error for this theme only.
    public static func chain(of name: String, in themes: [ThemeInfo]) throws -> [ThemeInfo] {
        try chain(of: name) { wanted in themes.first { $0.name == wanted } }
    }

    /// The chain, with `theme(named:)` finding each member (a lookup by name, where there are many themes).
    public static func chain(of name: String, theme named: (String) -> ThemeInfo?) throws -> [ThemeInfo] {
        var chain: [ThemeInfo] = []
        var next: String? = name
        while let current = next {
            guard let theme = named(current) else {
                throw ThemeError(chain.isEmpty ? "no theme named \(current)" : "\(chain.last?.name ?? name): parent theme \(current) does not exist")
            }
            guard !chain.contains(where: { $0.name == current }) else {
                throw ThemeError("theme \(name): parent chain loops at \(current)")
            }
            guard chain.count < 8 else { throw ThemeError("theme \(name): parent chain is deeper than 8") }
            chain.append(theme)
            next = theme.parent
        }
        return chain
    }
}

/// One source of a theme as the index knows it.
public struct SourceInfo: Sendable {
    public var id: Int64
    public var path: String
    public var kind: SourceKind
    public var error: String
    public var contentHash: String
    /// Catalogs: their distinct localizations.
    public var localizations: [String]
    /// Bundles: Info.plist and `.lproj` folders, for choosing a localization.
    public var bundle: BundleInfo?
    /// Catalogs: the path of the bundle they were found in.
    public var owner: String?
}

/// The source that answered a lookup.
public struct SourceReference: Sendable, Hashable {
    public var path: String
    public var kind: SourceKind
    /// The hash of the bytes the index read: for a catalog, which generation of the file its
    /// rendition positions describe.
    public var contentHash: String
}

/// The chosen variant and how it was reached.
public struct Resolution: Sendable {
    public var variant: Variant
    public var theme: String
    /// 0 for the requested theme, 1 for its parent, ...
    public var depth: Int
    public var source: SourceReference
    /// The localization the answering source chose for the client (a bundle's first search list
    /// entry, a catalog's target), if it has any.
    public var localization: String?
    /// Traits where the answer differs from the request, e.g. "appearance:any", "scale:1".
    public var fallbacks: [String]
    var requestedDirection: LayoutDirection

    /// A flippable variant of the opposite direction answers: it is drawn mirrored
    /// (lookup-rules.md 4.3, example C29).
    public var isMirrored: Bool {
        variant.isFlippable && variant.traits.direction != .neutral && variant.traits.direction != requestedDirection
    }
}
