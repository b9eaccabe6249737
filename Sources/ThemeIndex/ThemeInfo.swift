import Hashing
import ThemeBundle
import ThemeVocabulary

/// A theme as the index knows it.
public struct ThemeInfo: Sendable {
    public var id: Int64
    public var name: String
    public var path: String
    public var parent: String?
    public var generation: Generation
    public var error: String
    /// What its sources served though their format does not allow it (converters' slips), one
    /// per line: the theme is not degraded by them.
    public var warning: String = ""
    public var sources: [SourceInfo]
    /// The colour, image and loose file names it answers, its own and its ancestors' (the names
    /// its detail lists).
    public var colorCount: Int
    public var imageCount: Int
    public var fileCount: Int

    /// `stale` when each of its errors is an edit refused while the last good read of its source
    /// serves; `degraded` when any other error stands.
    public var servingStatus: ServingStatus {
        guard !error.isEmpty else { return .ok }
        let refused = Set(sources.filter(\.kept).flatMap { $0.error.split(separator: "\n") })
        return error.split(separator: "\n").allSatisfy(refused.contains) ? .stale : .degraded
    }

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
            guard chain.count < ParentChains.maximumDepth else { throw ThemeError("theme \(name): parent chain is deeper than \(ParentChains.maximumDepth)") }
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
    public var warning: String = ""
    public var contentHash: String
    /// Catalogs: their distinct localizations.
    public var localizations: [String]
    /// Bundles: Info.plist and `.lproj` folders, for choosing a localization.
    public var bundle: BundleInfo?
    /// Catalogs: the path of the bundle they were found in.
    public var owner: String?
    /// Design tokens: the modifiers of the resolver, whose contexts requests choose.
    public var modifiers: [TokenModifier] = []
    /// The last good read serves: the edit `error` names was refused (theme.json's `onError`
    /// "keep", or a file that could not be read at all).
    public var kept = false
}

/// How whole what a theme serves is, as its palette and detail say (`status`).
public enum ServingStatus: String, Sendable, Comparable {
    /// Everything its sources hold.
    case ok
    /// Its last good generation, whole: an edit was refused and the source's last good read serves.
    case stale
    /// Something its sources hold is missing: a source was served with what it could read, or refused with nothing before it.
    case degraded

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
    private var rank: Int { switch self { case .ok: 0; case .stale: 1; case .degraded: 2 } }

    /// The least whole of a chain's themes: a palette has what each of them serves.
    public static func of(_ chain: [ThemeInfo]) -> Self { chain.map(\.servingStatus).max() ?? .ok }
}

/// A modifier of a theme's token resolver, as the index keeps it for requests to choose from.
public struct TokenModifier: Sendable, Equatable {
    public var name: String
    public var contexts: [String]
    public var defaultContext: String
    /// theme.json maps its contexts to traits: the request's traits choose it, not its name.
    public var mapsToTraits = false

    public init(name: String, contexts: [String], defaultContext: String, mapsToTraits: Bool = false) {
        (self.name, self.contexts, self.defaultContext, self.mapsToTraits) = (name, contexts, defaultContext, mapsToTraits)
    }

    /// As the source row keeps them: one line a modifier, its name, default, `traits` or `name`
    /// (what chooses it) and contexts separated by tabs (no name of the resolver module may hold
    /// a tab or a line break that JSON did not escape, and those are refused below).
    static func encode(_ modifiers: [TokenModifier]) -> String {
        modifiers.map { ([$0.name, $0.defaultContext, $0.mapsToTraits ? "traits" : "name"] + $0.contexts).joined(separator: "\t") }.joined(separator: "\n")
    }

    static func decode(_ text: String) -> [TokenModifier] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4 else { return nil }
            return TokenModifier(name: fields[0], contexts: Array(fields[3...]), defaultContext: fields[1], mapsToTraits: fields[2] == "traits")
        }
    }

    /// The `contexts` a variant is stored under and a request asks for: the modifiers chosen by
    /// name (not mapped to traits) at a context other than their default, in the resolver's order.
    public static func contexts(_ chosen: [String: String], of modifiers: [TokenModifier]) -> String {
        modifiers.filter { !$0.mapsToTraits }.compactMap { modifier in
            guard let context = chosen[modifier.name], context != modifier.defaultContext else { return nil }
            return "\(modifier.name)=\(context)"
        }.joined(separator: "&")
    }

    /// The contexts a `contexts` string chooses, by modifier (what `contexts(_:of:)` joined).
    public static func chosen(inContexts contexts: String) -> [String: String] {
        var chosen: [String: String] = [:]
        for pair in contexts.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { chosen[parts[0]] = parts[1] }
        }
        return chosen
    }

    /// The contexts `query` asks for of `modifiers` (parameters that name no modifier are
    /// someone else's and ignored), or why it cannot be: a context a modifier does not have, or
    /// a modifier named in another case (`?mode=dark` for `Mode`), which would otherwise be
    /// answered with the default.
    public static func requested(_ query: [(String, String)], of modifiers: [TokenModifier]) -> Result<String, TokenInputError> {
        var chosen: [String: String] = [:]
        for (name, context) in query {
            guard let modifier = modifiers.first(where: { $0.name == name }) else {
                // One theme.json maps to traits is chosen by them whatever the query says.
                if let meant = modifiers.first(where: { $0.name.lowercased() == name.lowercased() && !$0.mapsToTraits }) {
                    return .failure(TokenInputError(message: "no modifier \"\(name)\"; did you mean \(meant.name)? Its contexts are \(meant.contexts.joined(separator: ", "))"))
                }
                continue
            }
            guard modifier.contexts.contains(context) else {
                return .failure(TokenInputError(message: "\(name) has no context \"\(context)\"; its contexts are \(modifier.contexts.joined(separator: ", "))"))
            }
            // Named where theme.json maps it to traits: the traits choose it, and a name that
            // would be ignored is said, never answered with the default.
            guard !modifier.mapsToTraits else {
                return .failure(TokenInputError(message: "\(name) is chosen by the traits theme.json maps its contexts to, not by name: "
                    + "ask with ?appearance=, ?contrast= or ?gamut= (or their client hints) for \(context)"))
            }
            chosen[name] = context
        }
        return .success(contexts(chosen, of: modifiers))
    }

    /// The key of the resolution `given` asks for (every modifier, the default where not given),
    /// or why it cannot be: an unknown modifier or context, naming the valid ones.
    public static func resolution(_ given: [(String, String)], of modifiers: [TokenModifier]) -> Result<String, TokenInputError> {
        inputs(given, of: modifiers).map { key($0, of: modifiers) }
    }

    /// The contexts `given` choose (each modifier not named at its default), or why they cannot be.
    public static func inputs(_ given: [(String, String)], of modifiers: [TokenModifier]) -> Result<[String: String], TokenInputError> {
        var chosen = Dictionary(modifiers.map { ($0.name, $0.defaultContext) }, uniquingKeysWith: { first, _ in first })
        for (name, context) in given {
            guard let modifier = modifiers.first(where: { $0.name == name }) else {
                return .failure(TokenInputError(message: modifiers.isEmpty ? "this theme's tokens have no modifiers; \(name) is not one"
                    : "no modifier \"\(name)\"; the modifiers are \(modifiers.map(\.name).joined(separator: ", "))"))
            }
            guard modifier.contexts.contains(context) else {
                return .failure(TokenInputError(message: "\(name) has no context \"\(context)\"; its contexts are \(modifier.contexts.joined(separator: ", "))"))
            }
            chosen[name] = context
        }
        return .success(chosen)
    }

    /// The key a resolution is stored under: `modifier=context` joined by `&` in the resolver's
    /// order, the default where `chosen` has none ('' without modifiers).
    public static func key(_ chosen: [String: String], of modifiers: [TokenModifier]) -> String {
        modifiers.map { "\($0.name)=\(chosen[$0.name] ?? $0.defaultContext)" }.joined(separator: "&")
    }
}

/// A request for a resolution of tokens that does not exist.
public struct TokenInputError: Error, Sendable, Equatable {
    public var message: String
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

extension ThemeInfo {
    /// A theme as the index stores it.
    init(_ theme: ThemeRecord, sources: [SourceRecord]) {
        self.init(id: theme.id, name: theme.name, path: theme.path, parent: theme.parent, generation: theme.generation,
                  error: theme.error, warning: theme.warning, sources: sources.map(\.info),
                  colorCount: theme.served.colors, imageCount: theme.served.images, fileCount: theme.served.files)
    }
}
