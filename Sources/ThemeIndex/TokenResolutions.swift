import Caching
import DesignTokens
import Synchronization

/// The resolutions of design tokens a sync does not store (a resolver with more combinations than
/// `TokenVariants` indexes: 6 modifiers of 5 contexts are 15,625), made when a client first asks
/// and kept within a byte budget, least recently used out first. A theme's source (its files read
/// as a sync reads them) is kept for the few themes asked most recently, by the content hash of
/// its token source: an edit that the index took makes a new one.
public final class TokenResolutions: Sendable {
    public let resolutions: BoundedCache<String, TokenResolution>
    /// The colour variants of resolutions made on demand, for the colour routes.
    public let colors: BoundedCache<String, [Variant]>
    private let sources = Mutex<[(contentHash: String, source: TokenResolution.OnDemandSource)]>([])
    /// Themes whose sources are kept.
    static let keptSources = 4

    public init(capacityBytes: Int = 32 << 20) {
        resolutions = BoundedCache(name: "token_resolutions", capacityBytes: capacityBytes) { $0.byteCount }
        colors = BoundedCache(name: "token_colors", capacityBytes: capacityBytes / 4) { $0.count * 512 }
    }

    /// The resolution of `owner`'s tokens at `inputs` if it is kept; never resolves.
    public func kept(_ owner: IndexReader.TokenOwner, inputs: [String: String]) -> TokenResolution? {
        resolutions.value(for: Self.key(owner, inputs))
    }

    /// The resolution of `owner`'s tokens at `inputs` (`chain` starts at the owner), resolved now
    /// when it is not kept. Blocking: for a worker, never a loop.
    public func resolution(_ owner: IndexReader.TokenOwner, inputs: [String: String], chain: [ThemeInfo]) throws -> TokenResolution {
        let key = Self.key(owner, inputs)
        if let kept = resolutions.value(for: key) { return kept }
        let resolution = TokenResolution(try source(contentHash: owner.source.contentHash, chain: chain), inputs: inputs)
        resolutions.insert(resolution, for: key)
        return resolution
    }

    /// Whether the colours of `owner`'s tokens at `inputs` are kept.
    public func keepsColors(_ owner: IndexReader.TokenOwner, inputs: [String: String]) -> Bool {
        colors.contains(Self.key(owner, inputs))
    }

    /// The colour tokens of `owner`'s tokens at `inputs` as colour variants, with the traits the
    /// owner's theme.json gives their contexts (as a sync indexes the resolutions it stores);
    /// made now when they are not kept. Blocking: for a worker, never a loop.
    func colors(_ owner: IndexReader.TokenOwner, inputs: [String: String], chain: [ThemeInfo]) throws -> [Variant] {
        let key = Self.key(owner, inputs)
        if let kept = colors.value(for: key) { return kept }
        let resolution = try resolution(owner, inputs: inputs, chain: chain)
        let source = try source(contentHash: owner.source.contentHash, chain: chain)
        let variants = TokenVariants.variants(of: [(inputs, resolution.colorTokens)], modifiers: source.modifiers, traits: source.traits, sourceKey: source.path)
        colors.insert(variants, for: key)
        return variants
    }

    private static func key(_ owner: IndexReader.TokenOwner, _ inputs: [String: String]) -> String {
        "\(owner.source.contentHash)\u{0}\(TokenModifier.key(inputs, of: owner.source.modifiers))"
    }

    private func source(contentHash: String, chain: [ThemeInfo]) throws -> TokenResolution.OnDemandSource {
        if let kept = sources.withLock({ list in list.first { $0.contentHash == contentHash }?.source }) { return kept }
        let source = try TokenResolution.OnDemandSource(of: chain)
        sources.withLock { list in
            list.removeAll { $0.contentHash == contentHash }
            list.insert((contentHash, source), at: 0)
            if list.count > Self.keptSources { list.removeLast(list.count - Self.keptSources) }
        }
        return source
    }
}
