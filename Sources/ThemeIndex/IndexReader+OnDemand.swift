import DesignTokens

/// Colours at contexts a request chooses by name (`?brand=portal`) on a resolver past what a sync
/// stores (`TokenVariants.indexedInputs`): the index has those modifiers only at their defaults,
/// so their colours come from resolutions made when first asked (`TokenResolutions`), one per
/// combination of the contexts theme.json maps to traits, and compete with the index's answers
/// as the index's own variants of those contexts would.
extension IndexReader {
    /// What answering such a request takes: the chain's token owner and the resolutions' inputs.
    public struct OnDemandRequest: Sendable {
        public var owner: TokenOwner
        /// The chain from the owner on (its ancestors' tokens lie beneath its own).
        var ownerChain: [ThemeInfo]
        var chain: [ThemeInfo]
        var depth: Int
        public var inputs: [[String: String]]
    }

    /// nil when the index answers `request` itself: no context chosen by name, or a resolver
    /// whose every combination a sync stores.
    public func onDemandRequest(in chain: [ThemeInfo], for request: TraitRequest) -> OnDemandRequest? {
        guard !request.contexts.isEmpty, let owner = tokenOwner(in: chain), owner.source.kind == .tokens,
              TokenVariants.isResolvedOnDemand(owner.source.modifiers),
              let depth = chain.firstIndex(where: { $0.id == owner.theme.id }) else { return nil }
        let inputs = TokenVariants.inputs(naming: TokenModifier.chosen(inContexts: request.contexts), of: owner.source.modifiers)
        return OnDemandRequest(owner: owner, ownerChain: Array(chain[depth...]), chain: chain, depth: depth, inputs: inputs)
    }

    /// Whether answering `request`'s colours resolves tokens first (a combination not kept yet):
    /// a route on an event loop hands such a request to the worker pool.
    public func resolvesTokens(in chain: [ThemeInfo], for request: TraitRequest) -> Bool {
        guard let asked = onDemandRequest(in: chain, for: request) else { return false }
        return asked.inputs.contains { !tokenResolutions.keepsColors(asked.owner, inputs: $0) }
    }

    /// The colours of `request`'s contexts, resolved now where they are not kept; nil when the
    /// index answers the request itself.
    func resolvedOnDemand(in chain: [ThemeInfo], for request: TraitRequest) throws -> OnDemandColors? {
        guard let asked = onDemandRequest(in: chain, for: request) else { return nil }
        var byName: [String: [Variant]] = [:]
        for inputs in asked.inputs {
            for variant in try tokenResolutions.colors(asked.owner, inputs: inputs, chain: asked.ownerChain) {
                byName[variant.name, default: []].append(variant)
            }
        }
        let source = asked.owner.source
        return OnDemandColors(byName: byName, chain: asked.chain, depth: asked.depth,
                              source: SourceReference(path: source.path, kind: source.kind, contentHash: source.contentHash))
    }
}

/// The colour variants of one request's contexts, from its chain's token source at `depth`.
struct OnDemandColors {
    var byName: [String: [Variant]]
    var chain: [ThemeInfo]
    var depth: Int
    var source: SourceReference

    var names: Dictionary<String, [Variant]>.Keys { byName.keys }

    /// The variant of `name` the lookup query would rank first among these alone.
    func best(named name: String, for request: TraitRequest) -> Resolution? {
        guard let variant = request.bestColor(among: byName[name] ?? []) else { return nil }
        let theme = chain.indices.contains(depth) ? chain[depth].name : ""
        return Resolution(variant: variant, theme: theme, depth: depth, source: source, localization: nil,
                          fallbacks: IndexReader.fallbacks(variant, request: request, kind: .color, depth: depth, theme: theme),
                          requestedDirection: request.direction)
    }

    /// Which answers: the lookup's order puts the gamut first, then the theme's depth and the
    /// source's rank, then the contexts asked before the defaults; so these win every tie.
    func preferred(_ own: Resolution?, over indexed: Resolution?, for request: TraitRequest) -> Resolution? {
        guard let own, let indexed else { return own ?? indexed }
        let ownOrder = (IndexReader.missesGamut(own, request) ? 1 : 0, own.depth, rank(of: own))
        let indexedOrder = (IndexReader.missesGamut(indexed, request) ? 1 : 0, indexed.depth, rank(of: indexed))
        return ownOrder <= indexedOrder ? own : indexed
    }

    private func rank(of resolution: Resolution) -> Int {
        guard chain.indices.contains(resolution.depth) else { return Int.max }
        return chain[resolution.depth].sources.firstIndex { $0.path == resolution.source.path } ?? Int.max
    }
}

extension IndexReader {
    /// The DTCG document of `owner`'s tokens at `inputs` (a modifier missing takes its default):
    /// the one the index stores, else, on a resolver past what a sync stores, the one made when
    /// first asked. `chain` holds the owner. Blocking: for a worker, never a loop.
    public func tokenDocument(of owner: TokenOwner, inputs: [String: String], in chain: [ThemeInfo]) throws -> String? {
        let modifiers = owner.source.modifiers
        if let stored = try tokenDocument(of: owner, resolution: TokenModifier.key(inputs, of: modifiers)) { return stored }
        guard owner.source.kind == .tokens, TokenVariants.isResolvedOnDemand(modifiers) else { return nil }
        let complete = Dictionary(modifiers.map { ($0.name, inputs[$0.name] ?? $0.defaultContext) }, uniquingKeysWith: { first, _ in first })
        return try tokenResolutions.resolution(owner, inputs: complete, chain: Array(chain.drop { $0.id != owner.theme.id })).document
    }
}
