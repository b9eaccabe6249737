import Caching
import DesignTokens
import Synchronization
import ThemeIndex

/// The resolutions of design tokens a sync does not store (a resolver with more combinations than
/// `TokenVariants` indexes: 6 modifiers of 5 contexts are 15,625), made when a client first asks
/// and kept within a byte budget, least recently used out first. A theme's resolver (its files
/// read as a sync reads them) is kept for the few themes asked most recently, by the content
/// hash of its token source: an edit that the index took makes a new one.
public final class TokenResolutions: Sendable {
    public let resolutions: BoundedCache<String, TokenResolution>
    private let resolvers = Mutex<[(contentHash: String, resolver: TokenResolver)]>([])
    /// Themes whose resolvers are kept.
    static let keptResolvers = 4

    public init(capacityBytes: Int = 32 << 20) {
        resolutions = BoundedCache(name: "token_resolutions", capacityBytes: capacityBytes) { $0.byteCount }
    }

    /// The resolution of the token source `contentHash` (of `chain`'s first theme) for `inputs`,
    /// stored under `key`; resolved now when it is not kept. Runs on a worker, never on a loop.
    public func resolution(key: String, inputs: [String: String], contentHash: String, chain: [ThemeInfo]) throws -> TokenResolution {
        let cacheKey = "\(contentHash)\u{0}\(key)"
        if let kept = resolutions.value(for: cacheKey) { return kept }
        let resolution = TokenResolution(try resolver(contentHash: contentHash, chain: chain), inputs: inputs)
        resolutions.insert(resolution, for: cacheKey)
        return resolution
    }

    private func resolver(contentHash: String, chain: [ThemeInfo]) throws -> TokenResolver {
        if let kept = resolvers.withLock({ list in list.first { $0.contentHash == contentHash }?.resolver }) { return kept }
        let resolver = try TokenResolution.resolver(of: chain)
        resolvers.withLock { list in
            list.removeAll { $0.contentHash == contentHash }
            list.insert((contentHash, resolver), at: 0)
            if list.count > Self.keptResolvers { list.removeLast(list.count - Self.keptResolvers) }
        }
        return resolver
    }
}
