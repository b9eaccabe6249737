import DesignTokens
import JSON
import ThemeVocabulary

/// One resolution of a theme's design tokens as `/tokens` serves it: the DTCG document (nested
/// groups, each token with `$type`, its resolved `$value` and its aliases), written once, and
/// where each token's body is in it, which `/tokens/{path}` answers. A sync stores the
/// resolutions it indexes (`TokenVariants.indexedInputs`); a resolver with more combinations
/// than that has the others made here when a client asks, from the theme's files read as a sync
/// reads them.
public struct TokenResolution: Sendable {
    private let bytes: [UInt8]
    /// Each token's body in `bytes`, by dotted path.
    private let ranges: [String: Range<Int>]
    /// A resolution made on demand: its inputs and colour tokens, which the colour routes turn
    /// into variants when they ask (`TokenResolutions.colors`); empty for a stored one.
    let inputs: [String: String]
    let colorTokens: [ResolvedToken]

    /// What it holds, for a cache's byte budget.
    public var byteCount: Int { bytes.count + ranges.count * 64 + colorTokens.count * 512 }

    public var document: String { String(decoding: bytes, as: UTF8.self) }

    /// One token as `/tokens/{path}` serves it (`path` dotted).
    public func body(of path: String) -> String? { ranges[path].map { String(decoding: bytes[$0], as: UTF8.self) } }

    /// Every token's dotted path (for "did you mean").
    public var paths: [String] { Array(ranges.keys) }

    /// The tokens of `inputs`, resolved now.
    init(_ source: OnDemandSource, inputs: [String: String]) {
        let set = source.resolver.tokens(for: inputs)
        self.init(set, inputs: inputs, colorTokens: set.tokens.filter { $0.type == .color })
    }

    init(_ set: TokenSet, inputs: [String: String] = [:], colorTokens: [ResolvedToken] = []) {
        self.init(set.tokens, inputs: inputs, colorTokens: colorTokens)
    }

    init(_ tokens: [ResolvedToken], inputs: [String: String] = [:], colorTokens: [ResolvedToken] = []) {
        (self.inputs, self.colorTokens) = (inputs, colorTokens)
        var writer = JSONWriter(reservingCapacity: 64 << 10)
        var ranges: [String: Range<Int>] = [:]
        /// Tokens by their remaining path segments, grouped in the order groups first appear; a
        /// token is its group's last segment (a token and a group of one name cannot both be).
        func write(_ entries: [(path: ArraySlice<String>, token: ResolvedToken)]) {
            var order: [String] = []
            var groups: [String: [(path: ArraySlice<String>, token: ResolvedToken)]] = [:]
            for entry in entries {
                guard let name = entry.path.first else { continue }
                if groups[name] == nil { order.append(name) }
                groups[name, default: []].append((entry.path.dropFirst(), entry.token))
            }
            writer.beginObject()
            for name in order {
                let members = groups[name] ?? []
                writer.key(name)
                if let token = members.first(where: { $0.path.isEmpty })?.token {
                    let start = writer.bytes.count
                    writer.value(TokenVariants.json(token))
                    ranges[token.path.dotted] = start..<writer.bytes.count
                } else {
                    write(members)
                }
            }
            writer.endObject()
        }
        write(tokens.map { ($0.path.segments[...], $0) })
        (bytes, self.ranges) = (writer.bytes, ranges)
    }

    /// What a resolution is made from on demand: a theme's token files read as a sync reads
    /// them (its ancestors' beneath), the modifiers as the index keeps them, and theme.json's
    /// traits of their contexts.
    struct OnDemandSource: Sendable {
        var resolver: TokenResolver
        var modifiers: [TokenModifier]
        var traits: [String: [String: ThemeSettings.ContextTraits]]
        /// The token source's path, which sorts its variants as the sync's.
        var path: String

        /// The source of `chain`'s first theme, from the folders of `chain`; throws what a sync
        /// would report.
        init(of chain: [ThemeInfo]) throws {
            guard let theme = chain.first else { throw ThemeError("no theme") }
            var folders: [String: ThemeFolder] = [:]
            for member in chain { folders[member.name] = ThemeFolder.folderTheme(name: member.name, path: member.path) }
            guard let own = folders[theme.name] else { throw ThemeError("no theme") }
            let folder = ThemeFolder.withAncestorTokens(own, theme: { folders[$0] })
            guard let source = folder.sources.first(where: { $0.kind == .tokens }), let files = source.tokens else {
                throw ThemeError("\(theme.path): its design tokens are gone since they were indexed")
            }
            resolver = try TokenVariants.layeredResolver(of: files)
            (modifiers, traits, path) = (TokenVariants.modifiers(of: resolver, traits: files.traits), files.traits, source.path)
        }
    }

    /// Whether `modifiers` have more combinations than a sync stores (`TokenVariants.indexedInputs`):
    /// those it does not store are made on demand.
    public static func isResolvedOnDemand(_ modifiers: [TokenModifier]) -> Bool { TokenVariants.isResolvedOnDemand(modifiers) }
}
