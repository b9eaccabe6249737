import JSON
import ThemeIndex
import ThemeVocabulary

/// Every design token of a theme that is not a colour (dimensions, numbers, durations, font
/// families and weights, cubic-béziers, borders, shadows, transitions, typography, ...), read
/// from the resolutions the index stores, as `/tokens` answers them: what exports write beside
/// the colours (`ColorTable` has those, resolved per mode as the colour route resolves them).
///
/// A theme's tokens may differ by mode where theme.json maps a modifier's contexts to traits
/// (`{"traits": {"theme": {"dark": {"appearance": "dark"}}}}`): each mode reads the resolution
/// its traits choose, with the modifiers chosen by name at the contexts asked.
public struct TokenTable: Sendable {
    /// One token: its path (`space.2`), its `$type` and its resolved `$value` per mode.
    public struct Row: Sendable {
        public var path: String
        public var type: String
        public var values: [ColorMode: JSONValue]
        /// A token that is an alias of another: that token's path (the same in every mode).
        public var aliasOf: String?

        public init(path: String, type: String, values: [ColorMode: JSONValue], aliasOf: String? = nil) {
            (self.path, self.type, self.values, self.aliasOf) = (path, type, values, aliasOf)
        }
    }

    /// In path order.
    public var rows: [Row]
    /// Each mode's resolution as `/tokens` answers it (every type, in its groups): what the DTCG
    /// export writes for a theme whose design tokens are all it has (empty for any other).
    public var documents: [ColorMode: JSONValue]

    public init(rows: [Row], documents: [ColorMode: JSONValue] = [:]) {
        self.rows = rows
        self.documents = documents
    }

    public static let empty = TokenTable(rows: [])

    /// The tokens of the chain's token owner (the nearest theme with design tokens). `contexts`
    /// holds the modifiers chosen by name (`brand=portal`, as `TraitRequest.contexts`); the
    /// others are chosen per mode by the owner's theme.json, as the index chose them. A
    /// resolution the index does not store (a resolver past its stored combinations) is made
    /// now, or taken from those kept.
    public init(reading reader: IndexReader, chain: [ThemeInfo], contexts: String = "") throws {
        guard let owner = reader.tokenOwner(in: chain), owner.source.kind == .tokens else {
            self = .empty
            return
        }
        // The index read this theme.json when it stored the resolutions; one that no longer
        // reads maps nothing, and every mode takes the defaults.
        let mapping = (try? ThemeSettings(inheritingAt: owner.theme.path))?.traits ?? [:]
        let modifiers = owner.source.modifiers
        let byName = TokenModifier.chosen(inContexts: contexts)
        var documents: [String: [String: (type: String, value: JSONValue, aliasOf: String?)]] = [:]
        var wholeDocuments: [String: JSONValue] = [:]
        var byMode: [ColorMode: JSONValue] = [:]
        var valuesByPath: [String: Row] = [:]
        for mode in ColorMode.all {
            var chosen = byName
            for modifier in modifiers where modifier.mapsToTraits {
                chosen[modifier.name] = Self.context(of: modifier, for: mode, mapping: mapping[modifier.name] ?? [:])
            }
            let key = TokenModifier.key(chosen, of: modifiers)
            if documents[key] == nil {
                guard let body = try reader.tokenDocument(of: owner, inputs: chosen, in: chain), let document = try? JSONParser.parse(Array(body.utf8)) else {
                    continue
                }
                documents[key] = Self.tokens(in: document)
                wholeDocuments[key] = document
            }
            byMode[mode] = wholeDocuments[key]
            for (path, token) in documents[key] ?? [:] where token.type != "color" {
                valuesByPath[path, default: Row(path: path, type: token.type, values: [:], aliasOf: token.aliasOf)].values[mode] = token.value
            }
        }
        rows = valuesByPath.values.sorted { $0.path < $1.path }
        // The whole documents stand for the theme only when its tokens are all it has: a theme
        // with catalogs too, or over a token parent, has colours the documents do not hold.
        let tokensAlone = owner.theme.id == chain.first?.id && owner.theme.sources.allSatisfy { $0.kind == .tokens }
        self.documents = tokensAlone ? byMode : [:]
    }

    /// Each token as a platform file writes it, once for light and once for dark (what such a
    /// file can tell apart): `write` turns a type and value into the file's form, nil where the
    /// file has none. The tokens it wrote in neither scheme are `unwritten`, by path.
    func perScheme<Written>(_ write: (_ type: String, _ value: JSONValue) -> Written?)
        -> (written: [(path: String, values: [ColorMode.Scheme: Written])], unwritten: [String]) {
        var written: [(path: String, values: [ColorMode.Scheme: Written])] = []
        var unwritten: [String] = []
        for row in rows {
            var values: [ColorMode.Scheme: Written] = [:]
            for (scheme, mode) in [(ColorMode.Scheme.light, ColorMode.light), (.dark, .dark)] {
                if let value = row.values[mode], let form = write(row.type, value) { values[scheme] = form }
            }
            if values.isEmpty { unwritten.append(row.path) } else { written.append((row.path, values)) }
        }
        return (written, unwritten)
    }

    /// The context of a trait-mapped modifier that `mode` chooses: the one whose traits all hold
    /// in the mode, the most specific first; the default when none does.
    static func context(of modifier: TokenModifier, for mode: ColorMode, mapping: [String: ThemeSettings.ContextTraits]) -> String {
        let fitting = modifier.contexts.compactMap { context -> (String, Int)? in
            guard let traits = mapping[context] else { return nil }
            if let luminosity = traits.luminosity, luminosity != (mode.scheme == .dark ? .dark : .light) { return nil }
            if let highContrast = traits.highContrast, highContrast != mode.highContrast { return nil }
            if let gamut = traits.gamut, gamut != mode.gamut { return nil }
            let specified = [traits.luminosity != nil, traits.highContrast != nil, traits.gamut != nil].filter { $0 }.count
            return (context, specified)
        }
        return fitting.max { $0.1 < $1.1 }?.0 ?? modifier.defaultContext
    }

    /// The tokens of a resolution's DTCG document by dotted path, with what the index noted of
    /// aliases (`$extensions.org.themed.aliasOf`, the token it refers to first).
    static func tokens(in document: JSONValue) -> [String: (type: String, value: JSONValue, aliasOf: String?)] {
        var found: [String: (type: String, value: JSONValue, aliasOf: String?)] = [:]
        func walk(_ value: JSONValue, _ path: [String]) {
            guard case .object(let members) = value else { return }
            if case .string(let type)? = value["$type"], let tokenValue = value["$value"] {
                var aliasOf: String?
                if case .array(let targets)? = value["$extensions"]?["org.themed"]?["aliasOf"], case .string(let first)? = targets.first {
                    aliasOf = first
                }
                found[path.joined(separator: ".")] = (type, tokenValue, aliasOf)
                return
            }
            for (name, member) in members where !name.hasPrefix("$") { walk(member, path + [name]) }
        }
        walk(document, [])
        return found
    }
}
