import DesignTokens
import Foundation
import JSON
import ThemeBundle
import ThemeVocabulary

/// A theme folder's design tokens as the index keeps them: every resolution (each choice of the
/// resolver's contexts) as the DTCG document `/tokens` answers and token by token; and the colour
/// tokens as colour variants, with the traits theme.json's `traits` gives their contexts, so that
/// the colour routes, palettes and exports answer them like a catalog's colours.
enum TokenVariants {
    /// A token file or resolver larger than this is refused; all of a theme's files together,
    /// four times as much.
    static let maximumFileBytes = 16 << 20
    /// Resolutions kept per theme (the product of the modifiers' contexts).
    static let maximumResolutions = 64

    /// One resolution: its inputs, the key the index stores it under, and its tokens.
    struct Resolution: Sendable {
        var inputs: [String: String]
        var key: String
        var tokens: TokenSet
    }

    /// What a token source holds once read.
    struct Read {
        var resolver: TokenResolver
        /// The resolver's modifiers, as the index keeps them for requests.
        var modifiers: [TokenModifier]
        var resolutions: [Resolution]
        var problems: [String]
        /// The refused tokens' root cause in a line (`RootCauses`), nil when none is refused.
        var rootCause: String?
        /// What converters wrote that was served anyway, one line per kind and file (`summarized`).
        var warnings: [String]
    }

    /// Reads the token files (and the resolver) of `files`; throws when a file is not JSON or the
    /// resolver cannot be used, so that the theme keeps what it served.
    static func read(_ files: ThemeFolder.TokenFiles) throws -> Read {
        read(try layeredResolver(of: files), traits: files.traits)
    }

    /// The resolver of a theme's token files with its ancestors' beneath (a parent's tokens come
    /// first: the theme's own win, and the parent's aliases resolve to them); a parent of catalogs
    /// lends its colours (`CatalogTokenLayer`).
    static func layeredResolver(of files: ThemeFolder.TokenFiles) throws -> TokenResolver {
        var total = 0
        let resolver = try Self.resolver(of: files, total: &total)
        guard !files.ancestors.isEmpty else { return resolver }
        let ancestors = try files.ancestors.map { ancestor in
            guard let own = ancestor.files else {
                return try CatalogTokenLayer.resolver(of: ancestor, modifiers: resolver.modifiers, traits: files.traits)
            }
            return try Self.resolver(of: own, total: &total).relocated(under: "../\(ancestor.theme)")
        }
        return TokenResolver(layers: ancestors + [resolver])
    }

    /// The resolver of one theme folder's token files, its reads confined to the folder and
    /// counted in `total` (all of a theme's files together are capped).
    static func resolver(of files: ThemeFolder.TokenFiles, total: inout Int) throws -> TokenResolver {
        let root = ThemePaths.resolved(files.root)
        func load(_ path: String) throws -> JSONValue {
            let relative = path.hasPrefix(files.root + "/") ? String(path.dropFirst(files.root.count + 1)) : path
            guard ThemePaths.stays(path, inside: root) else { throw ThemeError("\(relative) leaves the theme folder") }
            guard let data = FileManager.default.contents(atPath: path) else { throw ThemeError("\(relative) cannot be read") }
            guard data.count <= maximumFileBytes else { throw ThemeError("\(relative) is \(data.count) bytes; a token file may have \(maximumFileBytes)") }
            total += data.count
            guard total <= 4 * maximumFileBytes else { throw ThemeError("the theme's token files pass \(4 * maximumFileBytes) bytes") }
            do {
                return try JSONParser.parse(Array(data))
            } catch {
                throw ThemeError("\(relative) is not JSON: \(error)")
            }
        }
        let resolver: TokenResolver
        if let resolverPath = files.resolver {
            let name = (resolverPath as NSString).lastPathComponent
            let folder = FilePaths.folder(of: resolverPath)
            do {
                resolver = try TokenResolver(document: try load(resolverPath), path: name) { reference in
                    try load(URL(fileURLWithPath: "\(folder)/\(reference)").standardizedFileURL.path)
                }
            } catch let error as TokenResolver.Invalid {
                throw ThemeError("\(error)")
            }
        } else if let metadata = files.studioMetadata {
            let themes = "\(files.root)/$themes.json"
            do {
                resolver = try TokenResolver(tokensStudioThemes: FileSystem.isRegularFile(themes) ? try load(themes) : nil, metadata: try load(metadata),
                                             sets: studioSets(in: files.root)) { set in
                    try load(URL(fileURLWithPath: "\(files.root)/\(set)").standardizedFileURL.path)
                }
            } catch let error as TokenResolver.Invalid {
                throw ThemeError("\(error)")
            }
        } else {
            resolver = TokenResolver(files: try files.files.map { ((($0 as NSString).lastPathComponent), try load($0)) })
        }
        return resolver
    }

    /// The sets a Tokens Studio folder has, as the plugin finds them: its `.json` files at any
    /// depth but the plugin's `$` files, by path (at most 2,000; not in catalogs or hidden folders).
    static func studioSets(in root: String) -> [String] {
        var sets: [String] = []
        // The folder itself may be a link (`themed check` links the theme into a scratch folder):
        // the enumerator lists nothing of a link, so it walks where the link points.
        let enumerator = FileManager.default.enumerator(atPath: ThemePaths.resolved(root))
        while let relative = enumerator?.nextObject() as? String, sets.count < 2_000 {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") || name.hasSuffix(".xcassets") || name.hasSuffix(".car") { enumerator?.skipDescendants(); continue }
            if let set = TokensStudioThemes.set(ofFile: relative) { sets.append(set) }
        }
        return sets.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The resolver's modifiers as the index keeps them: chosen by traits where theme.json maps
    /// their contexts, else by name.
    static func modifiers(of resolver: TokenResolver, traits mapping: [String: [String: ThemeSettings.ContextTraits]]) -> [TokenModifier] {
        resolver.modifiers.map {
            TokenModifier(name: $0.name, contexts: $0.contexts, defaultContext: $0.defaultContext, mapsToTraits: mapping[$0.name] != nil)
        }
    }

    static func read(_ resolver: TokenResolver, traits mapping: [String: [String: ThemeSettings.ContextTraits]]) -> Read {
        let modifiers = modifiers(of: resolver, traits: mapping)
        var resolutions: [Resolution] = []
        var problems: [String] = []
        var seen = Set<TokenProblem>()
        var refused: [TokenProblem] = []
        var warnings: [TokenWarning] = resolver.warnings
        var seenWarnings = Set<TokenWarning>()
        let inputsList = indexedInputs(resolver, modifiers: modifiers)
        // Side by side: each combination is a whole resolution of its own.
        for (inputs, tokens) in zip(inputsList, inputsList.concurrentMap { resolver.tokens(for: $0) }) {
            for problem in tokens.problems where seen.insert(problem).inserted {
                problems.append(problem.description)
                refused.append(problem)
            }
            warnings += tokens.warnings.filter { seenWarnings.insert($0).inserted }
            resolutions.append(Resolution(inputs: inputs, key: TokenModifier.key(inputs, of: modifiers), tokens: tokens))
        }
        return Read(resolver: resolver, modifiers: modifiers, resolutions: resolutions, problems: problems,
                    rootCause: RootCauses.summary(of: refused), warnings: summarized(warnings))
    }

    /// The resolutions a sync resolves and stores: every one when there are at most
    /// `maximumResolutions`; past that (a resolver's combinations multiply: 6 modifiers of 5
    /// contexts are 15,625), those theme.json maps to traits, at most `maximumResolutions`, each
    /// with the other modifiers at their defaults. The rest are resolved when asked (`/tokens`,
    /// `TokenResolutions`), so the index's work does not grow with the combinations.
    static func indexedInputs(_ resolver: TokenResolver, modifiers: [TokenModifier]) -> [[String: String]] {
        guard isResolvedOnDemand(modifiers) else { return resolver.allInputs(limit: maximumResolutions) }
        return inputs(naming: [:], of: modifiers)
    }

    /// Every combination of the contexts of the modifiers mapped to traits (at most
    /// `maximumResolutions`), each with the modifiers chosen by name at `named`'s contexts (their
    /// defaults where `named` has none): the resolutions whose colours answer every trait request
    /// at those contexts.
    static func inputs(naming named: [String: String], of modifiers: [TokenModifier]) -> [[String: String]] {
        var all: [[String: String]] = [[:]]
        for modifier in modifiers {
            let contexts = modifier.mapsToTraits ? modifier.contexts : [named[modifier.name] ?? modifier.defaultContext]
            all = Array(all.flatMap { partial in contexts.map { partial.merging([modifier.name: $0]) { $1 } } }.prefix(maximumResolutions))
        }
        return all
    }

    /// Whether a resolver has more combinations than a sync stores: then only the defaults and
    /// the contexts mapped to traits are indexed, the others are resolved on demand.
    static func isResolvedOnDemand(_ modifiers: [TokenModifier]) -> Bool {
        modifiers.reduce(1) { product, modifier in product > maximumResolutions ? product : product * max(1, modifier.contexts.count) } > maximumResolutions
    }

    /// One line per kind and file, however many tokens a converter wrote that way: the first
    /// one's place and detail, and how many more there are.
    static func summarized(_ warnings: [TokenWarning]) -> [String] {
        var groups: [String: (first: TokenWarning, count: Int)] = [:]
        var order: [String] = []
        for warning in warnings {
            let key = "\(warning.location.file)\u{0}\(warning.kind.rawValue)"
            if let group = groups[key] { groups[key] = (group.first, group.count + 1) } else { groups[key] = (warning, 1); order.append(key) }
        }
        return order.compactMap { groups[$0] }.map { first, count in
            first.description + (count > 1 ? "; and \(count - 1) more like it in \(first.location.file)" : "")
        }
    }

    /// The colour tokens of the resolutions theme.json's traits name (every modifier it does not
    /// map at its default context), as colour variants: an sRGB or Display P3 colour as written;
    /// a colour of another space converted to sRGB, and to Display P3 where it lies outside sRGB
    /// or its context says p3.
    static func variants(of read: Read, traits mapping: [String: [String: ThemeSettings.ContextTraits]], sourceKey: String) -> [Variant] {
        variants(of: read.resolutions.map { ($0.inputs, $0.tokens.tokens) }, modifiers: read.modifiers, traits: mapping, sourceKey: sourceKey)
    }

    /// The colour tokens of resolutions (each its inputs and tokens) as colour variants.
    static func variants(of resolutions: [(inputs: [String: String], tokens: [ResolvedToken])], modifiers: [TokenModifier],
                         traits mapping: [String: [String: ThemeSettings.ContextTraits]], sourceKey: String) -> [Variant] {
        /// A variant a later resolution replaces: its name, traits and contexts.
        struct Identity: Hashable {
            var name: String
            var appearance: Appearance
            var gamut: Gamut
            var contexts: String
        }
        var variants: [Variant] = []
        var positions: [Identity: Int] = [:]
        for resolution in resolutions {
            let key = TokenModifier.key(resolution.inputs, of: modifiers)
            let sortKey = "\(sourceKey)\u{0}\(key)"
            var traits = ThemeSettings.ContextTraits()
            var usable = true
            // The modifiers theme.json maps to no trait are asked for by name (`?brand=portal`):
            // each of their contexts is a set of variants of its own.
            let contexts = TokenModifier.contexts(resolution.inputs, of: modifiers)
            for modifier in modifiers {
                guard let context = resolution.inputs[modifier.name] else { continue }
                guard let mapped = mapping[modifier.name] else { continue }
                guard let contextTraits = mapped[context] else { usable = false; continue }
                traits.luminosity = contextTraits.luminosity ?? traits.luminosity
                traits.highContrast = contextTraits.highContrast ?? traits.highContrast
                traits.gamut = contextTraits.gamut ?? traits.gamut
            }
            guard usable else { continue }
            for token in resolution.tokens where token.type == .color {
                guard let color = token.color else { continue }
                var variantTraits = VariantTraits()
                variantTraits.appearance = Appearance(traits.luminosity ?? .any, highContrast: traits.highContrast ?? false)
                var values: [(Gamut, ColorValue)] = []
                if let own = color.asWritten {
                    // sRGB and Display P3 colours are kept as written, as a catalog keeps them.
                    values.append((traits.gamut ?? .sRGB, own))
                } else {
                    if traits.gamut != .displayP3 { values.append((.sRGB, color.sRGB)) }
                    if traits.gamut == .displayP3 || !color.isInSRGB { values.append((.displayP3, color.displayP3)) }
                }
                for (gamut, value) in values {
                    variantTraits.gamut = gamut
                    var variant = Variant(kind: .color, name: token.path.dotted, traits: variantTraits)
                    variant.color = value
                    variant.sortKey = sortKey
                    variant.aliasOf = token.aliasOf.first?.dotted ?? ""
                    variant.contexts = contexts
                    if color.asWritten == nil {
                        variant.tokenColor = ([color.space.rawValue] + color.components.map { $0.map { "\($0)" } ?? "none" } + ["\(color.alpha)"])
                            .joined(separator: "\t")
                    }
                    let identity = Identity(name: variant.name, appearance: variantTraits.appearance, gamut: gamut, contexts: contexts)
                    if let position = positions[identity] {
                        variants[position] = variant
                    } else {
                        positions[identity] = variants.count
                        variants.append(variant)
                    }
                }
            }
        }
        return sharingDefaults(variants)
    }

    /// `variants` without a name's variants at contexts chosen by name where they are, trait for
    /// trait, those of the defaults: a request for those contexts falls back to the defaults'
    /// variants (`LookupQuery`), which answer the same. Combinations multiply, and most of them
    /// share most colours (a density changes no colour, a brand a few): 24 combinations of 4,000
    /// colours stored 96,000 rows that every palette of the theme read past. A name is kept or
    /// dropped whole at a context, so that no trait of it falls back alone.
    static func sharingDefaults(_ variants: [Variant]) -> [Variant] {
        // Each name's variants by contexts, as positions: a handful each, compared pairwise.
        var groups: [String: [String: [Int]]] = [:]
        for (position, variant) in variants.enumerated() {
            groups[variant.name, default: [:]][variant.contexts, default: []].append(position)
        }
        func shows(_ a: Variant, as b: Variant) -> Bool {
            a.traits == b.traits && a.color == b.color && a.aliasOf == b.aliasOf && a.tokenColor == b.tokenColor
        }
        // A name has one variant of each traits at a context: the same count, each matched, is the same set.
        func same(_ group: [Int], as defaults: [Int]) -> Bool {
            group.count == defaults.count && group.allSatisfy { own in defaults.contains { shows(variants[own], as: variants[$0]) } }
        }
        var shared = [Bool](repeating: false, count: variants.count)
        for byContexts in groups.values {
            guard let defaults = byContexts[""] else { continue }
            for (contexts, group) in byContexts where !contexts.isEmpty && same(group, as: defaults) {
                for position in group { shared[position] = true }
            }
        }
        return variants.indices.filter { !shared[$0] }.map { variants[$0] }
    }

    // MARK: - As served

    /// One token as served.
    static func json(_ token: ResolvedToken) -> JSONValue {
        var members: [(String, JSONValue)] = [("$type", .string(token.type.name)), ("$value", token.value)]
        if let description = token.description { members.append(("$description", .string(description))) }
        if let deprecated = token.deprecated { members.append(("$deprecated", deprecated)) }
        var extensions: [(String, JSONValue)] = []
        if case .object(let given)? = token.extensions { extensions = given.filter { $0.0 != "org.themed" } }
        if !token.aliasOf.isEmpty {
            extensions.append(("org.themed", .object([("aliasOf", .array(token.aliasOf.map { .string($0.dotted) }))])))
        }
        if !extensions.isEmpty { members.append(("$extensions", .object(extensions))) }
        return .object(members)
    }
}

extension ThemeFolder {
    /// The colours of the theme folder at `path` as the index keeps them (every colour variant,
    /// with its traits): its design tokens' and, beneath them, its Material roles' (a role a token
    /// of the same name has is left out, as lookups leave it); and the problems of its tokens.
    /// Throws what a sync would report when the files cannot be read. `themed compile` makes a
    /// catalog of them.
    public static func folderColors(in path: String) throws -> (colors: [Variant], problems: [String]) {
        let folder = folderTheme(name: (path as NSString).lastPathComponent, path: path)
        if let error = folder.error { throw ThemeError(error) }
        let tokens = folder.sources.first(where: { $0.kind == .tokens })?.tokens
        let material = folder.sources.first(where: { $0.kind == .material })
        guard tokens != nil || material != nil else {
            throw ThemeError("\(path): no design tokens (*.tokens.json or *.resolver.json) at its top, and no material seed in its theme.json")
        }
        var (colors, problems) = ([Variant](), [String]())
        if let tokens {
            let read = try TokenVariants.read(tokens)
            (colors, problems) = (TokenVariants.variants(of: read, traits: tokens.traits, sourceKey: tokens.path), read.problems)
        }
        if let material, let settings = material.material {
            let named = Set(colors.map(\.name))
            let schemes = MaterialVariants.schemes(of: settings, seed: try MaterialVariants.seed(of: settings, tokens: material.tokens))
            let roles = MaterialVariants.variants(of: schemes, sourceKey: material.path)
            colors += roles.filter { !named.contains($0.name) }
        }
        return (colors, problems)
    }

    /// The folder's colours as a colour set's entries, for a catalog: a light context is the
    /// catalog's any appearance (what an app gets when it asks for none), dark stays dark.
    public static func colorEntries(in path: String) throws -> (entries: [XCAssets.Entry], problems: [String]) {
        let (colors, problems) = try folderColors(in: path)
        let entries = colors.map { variant in
            var entry = XCAssets.Entry(kind: .color, name: variant.name)
            let appearance = variant.traits.appearance
            entry.appearance = appearance.luminosity == .light ? Appearance(.any, highContrast: appearance.highContrast) : appearance
            entry.gamut = variant.traits.gamut
            entry.color = variant.color.map { XCAssets.Color(colorSpace: $0.colorSpace, components: $0.components) }
            return entry
        }
        return (entries, problems)
    }
}
