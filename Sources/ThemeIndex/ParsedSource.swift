import DesignTokens
import Hashing
import AssetCatalog
import BinaryReading
import Foundation
import ThemeBundle
import ThemeVocabulary

/// A source of a theme read from disk: the variants and strings it offers (the parse stage of a
/// sync). Parsing writes nothing; the writer stores the result or, when it throws, keeps what the
/// index had.
struct ParsedSource {
    var variants: [Variant]
    var contentHash: String
    /// Problems inside the source that did not stop it from being indexed.
    var problems: [String]
    /// What was served anyway though the source's format does not allow it (design tokens as
    /// converters write them); nothing is lost, so the theme is not degraded by them.
    var warnings: [String] = []
    /// Catalogs: the parsed catalog, handed to the content layer so that it is not opened twice.
    var catalog: AssetCatalog?
    var strings: [StringEntry] = []
    /// `.strings` files that could not be read this time; their previous entries are kept.
    var unreadableStringFiles: [String] = []
    /// Bundles: what their localization choice needs.
    var bundle: BundleInfo?
    /// Design tokens: every resolution, the resolver document as served and its modifiers.
    var tokens: [(resolution: String, document: String, tokens: [(path: String, body: String)])] = []
    /// Design tokens read for a review: each resolution's tokens and what makes their colour
    /// variants, neither written as documents nor made into variants yet (`keeping` does that
    /// for the tokens that differ).
    var resolvedTokens: ResolvedTokens?

    struct ResolvedTokens {
        var resolutions: [(key: String, inputs: [String: String], tokens: [ResolvedToken])]
        var modifiers: [TokenModifier]
        var traits: [String: [String: ThemeSettings.ContextTraits]]
        var sourceKey: String
    }
    var resolver = ""
    var modifiers: [TokenModifier] = []
    /// Design tokens: the refused tokens' root cause in a line, nil when none is refused.
    var tokenRootCause: String?

    /// What the source row's `localizations` column holds: a catalog's distinct localizations; a
    /// bundle's `CFBundleLocalizations` (its `.lproj` folders have a column of their own). Taken
    /// when read, so that a review's source keeps them with only some of its variants.
    let localizations: [String]

    /// What a reading is for: a sync's, everything it stores; a review's, the same but a design
    /// token source's documents, which `keeping` writes for what differs; `problems`, what the
    /// source says of itself and nothing a writer stores (a token source's combinations are
    /// resolved, but neither written as documents nor turned into variants), as `ThemeProblems`
    /// reads it.
    enum Purpose { case sync, review, problems }

    /// Reads `source`; throws when it cannot be indexed at all (a file that is not a catalog).
    init(_ source: ThemeFolder.Source, for purpose: Purpose = .sync) throws {
        switch source.kind {
        case .car:
            let storage = try ByteStorage(mapping: source.path)
            var hash = ContentHash()
            storage.withUnsafeBytes { hash.add($0) }
            let catalog = try AssetCatalog(ByteSpan(storage), path: source.path)
            self.init(variants: CatalogVariants.variants(of: catalog, sourceKey: source.path, contentHash: hash.hex),
                      contentHash: hash.hex, problems: catalog.renditionErrors.map(\.description), catalog: catalog)
        case .xcassets:
            let folder = XCAssets(path: source.path)
            var hash = ContentHash()
            let variants = FolderVariants.variants(of: folder, sourceKey: source.path)
            for variant in variants { hash.add(variant.contentKey) }
            self.init(variants: variants, contentHash: hash.hex, problems: folder.problems)
        case .bundle:
            guard let bundle = source.bundle else { throw ThemeError("\(source.path): bundle was not read") }
            var problems = bundle.problems
            var unreadable: [String] = []
            let variants = BundleVariants.variants(of: bundle)
            let strings = BundleVariants.strings(of: bundle, problems: &problems, unreadable: &unreadable)
            var hash = ContentHash()
            for variant in variants { hash.add(variant.contentKey) }
            for entry in strings { hash.add("\(entry.table)\u{0}\(entry.locale)\u{0}\(entry.key)\u{0}\(entry.value)") }
            self.init(variants: variants, contentHash: hash.hex, problems: problems, strings: strings,
                      unreadableStringFiles: unreadable, bundle: bundle.info)
        case .tokens:
            guard let files = source.tokens else { throw ThemeError("\(source.path): token files were not found") }
            let read = try TokenVariants.read(files)
            let modifiers = read.modifiers
            if let odd = modifiers.flatMap({ [$0.name] + $0.contexts }).first(where: { $0.contains("\t") || $0.contains("\n") }) {
                throw ThemeError("\(source.path): a modifier or context name may not hold a tab or a line break (\(odd.debugDescription))")
            }
            guard purpose != .problems else {
                self.init(variants: [], contentHash: "", problems: read.problems)
                (warnings, tokenRootCause) = (read.warnings, read.rootCause)
                return
            }
            guard purpose == .sync else {
                self.init(variants: [], contentHash: "", problems: read.problems)
                (warnings, tokenRootCause) = (read.warnings, read.rootCause)
                resolvedTokens = ResolvedTokens(resolutions: read.resolutions.map { ($0.key, $0.inputs, $0.tokens.tokens) },
                                                modifiers: modifiers, traits: files.traits, sourceKey: source.path)
                (resolver, self.modifiers) = (read.resolver.document.serialized(pretty: true), modifiers)
                return
            }
            let variants = TokenVariants.variants(of: read, traits: files.traits, sourceKey: source.path)
            var hash = ContentHash()
            // Each resolution's document and token bodies, written side by side.
            let sets = read.resolutions.concurrentMap { resolution in
                let served = TokenResolution(resolution.tokens)
                return (resolution: resolution.key, document: served.document,
                        tokens: resolution.tokens.tokens.map { (path: $0.path.dotted, body: served.body(of: $0.path.dotted) ?? "") })
            }
            for set in sets { hash.add("\(set.resolution)\u{0}\(set.document)\n") }
            // The appearance's label: interpolating the struct itself reflects over it, a tenth
            // of a large token theme's read.
            for variant in variants { hash.add("\(variant.name)\u{0}\(variant.color?.hex ?? "")\u{0}\(variant.traits.appearance.label)\u{0}\(variant.traits.gamut.rawValue)\n") }
            self.init(variants: variants, contentHash: hash.hex, problems: read.problems)
            warnings = read.warnings
            tokenRootCause = read.rootCause
            (tokens, resolver, self.modifiers) = (sets, read.resolver.document.serialized(pretty: true), modifiers)
        case .material:
            guard let settings = source.material else { throw ThemeError("\(source.path): theme.json's material was not read") }
            let schemes = MaterialVariants.schemes(of: settings, seed: try MaterialVariants.seed(of: settings, tokens: source.tokens))
            let variants = MaterialVariants.variants(of: schemes, sourceKey: source.path)
            var hash = ContentHash()
            for variant in variants { hash.add("\(variant.name)\u{0}\(variant.color?.hex ?? "")\u{0}\(variant.traits.appearance.label)\n") }
            self.init(variants: variants, contentHash: hash.hex, problems: [])
            // A theme of a seed alone answers `/tokens` with its roles (IndexReader.tokenOwner).
            let roles = MaterialVariants.tokens(of: schemes, settings: settings)
            tokens = roles.resolutions.map { key, served in
                (key, served.document, served.paths.sorted().map { ($0, served.body(of: $0) ?? "") })
            }
            (resolver, modifiers) = (roles.resolver.serialized(pretty: true), [roles.modifier])
        }
    }

    private init(variants: [Variant], contentHash: String, problems: [String], catalog: AssetCatalog? = nil, strings: [StringEntry] = [],
                 unreadableStringFiles: [String] = [], bundle: BundleInfo? = nil) {
        (self.variants, self.contentHash, self.problems, self.catalog) = (variants, contentHash, problems, catalog)
        (self.strings, self.unreadableStringFiles, self.bundle) = (strings, unreadableStringFiles, bundle)
        var seen = Set<String>()
        localizations = bundle?.declaredLocalizations ?? variants.map(\.traits.locale).filter { !$0.isEmpty && seen.insert($0).inserted }.sorted()
    }

    /// The source with only what `differences` names: what a review's index stores of it. Design
    /// tokens read for a review have the documents and colour variants of those tokens made now.
    func keeping(_ differences: ReviewDifferences) -> ParsedSource {
        var kept = self
        kept.variants = variants.filter(differences.keeps)
        kept.strings = strings.filter(differences.keeps)
        if let resolved = resolvedTokens {
            kept.tokens += resolved.resolutions.map { resolution in
                let served = TokenResolution(resolution.tokens.filter(differences.keeps))
                return (resolution.key, served.document, served.paths.sorted().map { ($0, served.body(of: $0) ?? "") })
            }
            kept.variants += TokenVariants.variants(of: resolved.resolutions.map { ($0.inputs, $0.tokens.filter(differences.keepsVariants)) },
                                                    modifiers: resolved.modifiers, traits: resolved.traits, sourceKey: resolved.sourceKey)
            kept.resolvedTokens = nil
        }
        return kept
    }
}
