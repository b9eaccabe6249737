import DesignTokens

/// One resolution of a theme's design tokens as `/tokens` serves it: the DTCG document and each
/// token's body by dotted path. A sync stores the resolutions it indexes
/// (`TokenVariants.indexedInputs`); a resolver with more combinations than that has the others
/// made here when a client asks, from the theme's files read as a sync reads them.
public struct TokenResolution: Sendable {
    public let document: String
    public let tokens: [String: String]

    /// What it holds, for a cache's byte budget.
    public var byteCount: Int { tokens.reduce(document.utf8.count) { $0 + $1.key.utf8.count + $1.value.utf8.count + 64 } }

    public init(_ resolver: TokenResolver, inputs: [String: String]) {
        let set = resolver.tokens(for: inputs)
        document = TokenVariants.document(set).serialized()
        tokens = Dictionary(set.tokens.map { ($0.path.dotted, TokenVariants.json($0).serialized()) }, uniquingKeysWith: { _, last in last })
    }

    /// The resolver of `chain`'s first theme's token files, as a sync reads them (its ancestors'
    /// beneath, from the folders of `chain`); throws what a sync would report.
    public static func resolver(of chain: [ThemeInfo]) throws -> TokenResolver {
        guard let theme = chain.first else { throw ThemeError("no theme") }
        var folders: [String: ThemeFolder] = [:]
        for member in chain { folders[member.name] = ThemeFolder.folderTheme(name: member.name, path: member.path) }
        guard let own = folders[theme.name] else { throw ThemeError("no theme") }
        let folder = ThemeFolder.withAncestorTokens(own, theme: { folders[$0] })
        guard let files = folder.sources.first(where: { $0.kind == .tokens })?.tokens else {
            throw ThemeError("\(theme.path): its design tokens are gone since they were indexed")
        }
        return try TokenVariants.layeredResolver(of: files)
    }

    /// Whether `modifiers` have more combinations than a sync stores (`TokenVariants.indexedInputs`):
    /// those it does not store are made on demand.
    public static func isResolvedOnDemand(_ modifiers: [TokenModifier]) -> Bool { TokenVariants.isResolvedOnDemand(modifiers) }
}
