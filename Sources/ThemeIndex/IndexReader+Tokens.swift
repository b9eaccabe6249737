import SQLite

/// A theme's design tokens as stored: one resolution whole, or one token of it.
extension IndexReader {
    /// The tokens a theme chain answers with: those of the nearest theme that has a token source.
    public struct TokenOwner: Sendable {
        public var theme: ThemeInfo
        public var source: SourceInfo
    }

    /// The nearest theme of `chain` with design tokens, and its token source: its token files,
    /// or for a theme of a Material seed without them, its roles.
    public func tokenOwner(in chain: [ThemeInfo]) -> TokenOwner? {
        for theme in chain {
            if let source = theme.sources.first(where: { $0.kind == .tokens }) ?? theme.sources.first(where: { $0.kind == .material }) {
                return TokenOwner(theme: theme, source: source)
            }
        }
        return nil
    }

    /// One resolution's DTCG document (`resolution` as `TokenModifier.resolution` makes it).
    public func tokenDocument(of owner: TokenOwner, resolution: String) throws -> String? {
        try pool.read { database in
            try database.cachedStatement("SELECT body FROM token_set WHERE source_id = ?1 AND resolution = ?2")
                .rows([.integer(owner.source.id), .text(resolution)]).first?.string("body")
        }
    }

    /// One token of a resolution, as served.
    public func token(of owner: TokenOwner, resolution: String, path: String) throws -> String? {
        try pool.read { database in
            try database.cachedStatement("SELECT body FROM token WHERE theme_id = ?1 AND resolution = ?2 AND path = ?3 AND source_id = ?4")
                .rows([.integer(owner.theme.id), .text(resolution), .text(path), .integer(owner.source.id)]).first?.string("body")
        }
    }

    /// The paths of a resolution's tokens that start like `prefix` (for "did you mean").
    public func tokenPaths(of owner: TokenOwner, resolution: String, limit: Int = 2000) throws -> [String] {
        try pool.read { database in
            try database.cachedStatement("SELECT path FROM token WHERE theme_id = ?1 AND resolution = ?2 AND source_id = ?3 LIMIT ?4")
                .rows([.integer(owner.theme.id), .text(resolution), .integer(owner.source.id), .int(limit)]).map { try $0.string("path") }
        }
    }

    /// The resolver document the theme's tokens were read with.
    public func resolverDocument(of owner: TokenOwner) throws -> String? {
        try pool.read { database in
            try database.cachedStatement("SELECT resolver FROM source WHERE id = ?1").rows([.integer(owner.source.id)]).first?.string("resolver")
        }
    }
}
