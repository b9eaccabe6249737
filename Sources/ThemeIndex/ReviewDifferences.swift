import DesignTokens
import ThemeVocabulary

/// What differs between two readings of a theme and its parents (a review's before and after),
/// by name: the variants of a kind and name, the design tokens of a path, the strings of a table
/// and key, each where one reading has any the other has not, as it is. A review's indexes keep
/// only those, and the colours of the contrast pairs, which a review looks up whatever changed
/// (`IndexWriter.syncDifferences`): everything else reads the same from either side, so leaving
/// it out changes no comparison, and a large design system's one-colour edit is indexed as the
/// few dozen names it reaches instead of twice whole.
///
/// A name's lookups read only that name's variants (`LookupQuery`), so a name kept whole answers
/// as it would in the whole index. Naming more than differs costs time, never an answer: where
/// two readings cannot be told apart cheaply (a catalog edited anywhere has new content keys for
/// every rendition), everything of it is kept.
struct ReviewDifferences: Sendable {
    struct VariantName: Hashable, Sendable {
        var kind: AssetKind
        var name: String
    }

    struct StringName: Hashable, Sendable {
        var table: String
        var key: String
    }

    private(set) var variants: Set<VariantName> = []
    private(set) var tokens: Set<TokenPath> = []
    private(set) var strings: Set<StringName> = []
    /// The colour names of `variants` as token paths.
    private var colorPaths: Set<TokenPath> = []

    /// One side: the themes folder it was read from, and each theme of it as parsed.
    struct Reading {
        var themesDirectory: String
        var themes: [IndexWriter.ParsedChanges]
    }

    init(_ before: Reading, _ after: Reading) {
        let (old, new) = (Signatures(before), Signatures(after))
        variants = Self.differing(old.variants, new.variants)
        strings = Self.differing(old.strings, new.strings)
        for origin in Set(old.tokens.keys).union(new.tokens.keys) {
            tokens.formUnion(Self.differing(old.tokens[origin], new.tokens[origin]))
        }
        // A token's colour variants are made from it (`ParsedSource.keeping`); every other
        // source's variants of its name are kept beside them, for a lookup ranks them all.
        for path in tokens { variants.insert(VariantName(kind: .color, name: path.dotted)) }
        // The contrast pairs of either side's themes, among every colour either has: a review
        // looks up both colours of a pair when one of them changed.
        let colors = Set((Array(old.variants.keys) + Array(new.variants.keys)).filter { $0.kind == .color }.map(\.name))
        for pair in (before.themes + after.themes).flatMap({ $0.changes.folder.settings.contrastPairs(among: colors) }) {
            variants.insert(VariantName(kind: .color, name: pair.foreground))
            variants.insert(VariantName(kind: .color, name: pair.background))
        }
        colorPaths = Set(variants.filter { $0.kind == .color }.map { TokenPath(dotted: $0.name) })
    }

    func keeps(_ variant: Variant) -> Bool { variants.contains(VariantName(kind: variant.kind, name: variant.name)) }
    func keeps(_ entry: StringEntry) -> Bool { strings.contains(StringName(table: entry.table, key: entry.key)) }
    func keeps(_ token: ResolvedToken) -> Bool { tokens.contains(token.path) }
    /// A colour token whose variants are kept: it differs, or another source's colour of its
    /// name does, or it is a contrast pair's.
    func keepsVariants(of token: ResolvedToken) -> Bool { token.type == .color && (tokens.contains(token.path) || colorPaths.contains(token.path)) }

    /// The keys whose values are not the same on both sides, in any order.
    private static func differing<Key: Hashable, Value: Hashable>(_ before: [Key: [Value]], _ after: [Key: [Value]]) -> Set<Key> {
        var found: Set<Key> = []
        for (key, values) in before where !sameMembers(values, after[key] ?? []) { found.insert(key) }
        for key in after.keys where before[key] == nil { found.insert(key) }
        return found
    }

    /// The paths of the tokens a source resolves differently on the two sides, in any
    /// resolution; every path where what makes its variants (its modifiers, theme.json's traits)
    /// differs, or one side has no such source.
    private static func differing(_ before: ParsedSource.ResolvedTokens?, _ after: ParsedSource.ResolvedTokens?) -> Set<TokenPath> {
        func everyPath(_ resolved: ParsedSource.ResolvedTokens?) -> [TokenPath] { resolved?.resolutions.flatMap { $0.tokens.map(\.path) } ?? [] }
        guard let before, let after, before.modifiers == after.modifiers, before.traits == after.traits else {
            return Set(everyPath(before) + everyPath(after))
        }
        var found: Set<TokenPath> = []
        let afterByKey = Dictionary(after.resolutions.map { ($0.key, $0.tokens) }, uniquingKeysWith: { first, _ in first })
        for resolution in before.resolutions {
            guard let tokens = afterByKey[resolution.key] else { found.formUnion(resolution.tokens.map(\.path)); continue }
            found.formUnion(differing(resolution.tokens, tokens))
        }
        let beforeKeys = Set(before.resolutions.map(\.key))
        for resolution in after.resolutions where !beforeKeys.contains(resolution.key) { found.formUnion(resolution.tokens.map(\.path)) }
        return found
    }

    /// The paths of one resolution's tokens that are not served the same: pairwise while both
    /// sides list the same paths in the same order (an edit's usual shape), by path from where they part.
    private static func differing(_ before: [ResolvedToken], _ after: [ResolvedToken]) -> Set<TokenPath> {
        var found: Set<TokenPath> = []
        var aligned = 0
        for (old, new) in zip(before, after) {
            guard old.path == new.path else { break }
            if !servedAlike(old, new) { found.insert(old.path) }
            aligned += 1
        }
        guard aligned < max(before.count, after.count) else { return found }
        let (rest, others) = (before[aligned...], after[aligned...])
        let byPath = Dictionary(others.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for token in rest where byPath[token.path].map({ !servedAlike(token, $0) }) ?? true { found.insert(token.path) }
        let paths = Set(rest.map(\.path))
        for token in others where !paths.contains(token.path) { found.insert(token.path) }
        return found
    }

    /// What a token's document and colour variants are made of (`TokenVariants`), not where its
    /// file has it.
    private static func servedAlike(_ a: ResolvedToken, _ b: ResolvedToken) -> Bool {
        a.type == b.type && a.value == b.value && a.aliasOf == b.aliasOf && a.description == b.description
            && a.deprecated == b.deprecated && a.extensions == b.extensions
    }

    private static func sameMembers<Value: Hashable>(_ a: [Value], _ b: [Value]) -> Bool {
        guard a != b else { return true }
        guard a.count == b.count else { return false }
        return Dictionary(a.map { ($0, 1) }, uniquingKeysWith: +) == Dictionary(b.map { ($0, 1) }, uniquingKeysWith: +)
    }

    /// What one side's sources offer, by name, as a review compares it: every field that is
    /// served, with where it is from (the theme, the source's path under the themes folder, its
    /// rank); a path is taken relative to the themes folder, which is a scratch folder of its
    /// own on each side.
    private struct Signatures {
        var variants: [VariantName: [VariantSignature]] = [:]
        var tokens: [Origin: ParsedSource.ResolvedTokens] = [:]
        var strings: [StringName: [StringSignature]] = [:]

        init(_ reading: Reading) {
            let root = reading.themesDirectory + "/"
            func relative(_ path: String) -> String { path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path }
            for theme in reading.themes {
                let name = theme.changes.folder.name
                for (change, result, _) in theme.parsed {
                    guard case .success(let parsed) = result else { continue }
                    let origin = Origin(theme: name, source: relative(change.source.path), rank: change.rank)
                    for variant in parsed.variants {
                        variants[VariantName(kind: variant.kind, name: variant.name), default: []]
                            .append(VariantSignature(variant, from: origin, relative: relative))
                    }
                    if let resolved = parsed.resolvedTokens { tokens[origin] = resolved }
                    for entry in parsed.strings {
                        strings[StringName(table: entry.table, key: entry.key), default: []].append(StringSignature(entry, from: origin, relative: relative))
                    }
                }
            }
        }
    }

    private struct Origin: Hashable {
        var theme: String
        var source: String
        var rank: Int
    }

    private struct VariantSignature: Hashable {
        var origin: Origin
        var traits: VariantTraits
        var color: ColorValue?
        var systemColor: String?
        var pixelWidth: Int
        var pixelHeight: Int
        var format: String
        var location: ContentLocation
        var contentKey: String
        var isFlippable: Bool
        var sortKey: String
        var aliasOf: String
        var tokenColor: String
        var contexts: String

        init(_ variant: Variant, from origin: Origin, relative: (String) -> String) {
            self.origin = origin
            (traits, color, systemColor) = (variant.traits, variant.color, variant.systemColor)
            (pixelWidth, pixelHeight, format) = (variant.pixelWidth, variant.pixelHeight, variant.format)
            if case .file(let path) = variant.location { location = .file(relative(path)) } else { location = variant.location }
            (contentKey, isFlippable, sortKey) = (variant.contentKey, variant.isFlippable, relative(variant.sortKey))
            (aliasOf, tokenColor, contexts) = (variant.aliasOf, variant.tokenColor, variant.contexts)
        }
    }

    private struct StringSignature: Hashable {
        var origin: Origin
        var value: String
        var locale: String
        var file: String
        var forms: [String: String]

        init(_ entry: StringEntry, from origin: Origin, relative: (String) -> String) {
            (self.origin, value, locale, file, forms) = (origin, entry.value, entry.locale, relative(entry.file), entry.forms)
        }
    }
}
