import HTTPServer
import Logging
import Sharding
import ThemeContent
import ThemeIndex
import ThemeVocabulary

/// What a `ThemeService` is made of beside its index, in one value (as Hummingbird's
/// `ApplicationConfiguration`): `themed serve` fills it from the settings in one place
/// (`buildApplication`), a test sets only what it is about.
public struct ThemeServiceConfiguration {
    /// The folder the themes are read from.
    public var themesDirectory: String
    /// The operator's bearer token (`activeToken`).
    public var activeToken: String?
    /// Whether a loopback client may change the active theme, aliases and rollouts without a
    /// token (`ServerSettings.loopbackIsOperator` decides it for `themed serve`).
    public var loopbackIsOperator = false
    public var logger = Logger(label: "themed")
    public var metrics = ServiceMetrics()
    /// nil: a store whose blobs live in `blobs/` beside the index file.
    public var content: ContentStore?
    public var responseCacheBytes = 64 << 20
    public var cachePolicy = CachePolicy()
    public var accessLog: AccessLog?
    public var allowedOrigins = ["*"]
    /// nil when this replica should take traffic; otherwise why not (draining).
    public var readiness: @Sendable () -> String? = { nil }
    /// With a cluster store: when it last answered.
    public var storeContact: StoreContact?
    /// With a cluster store: where `PUT /active` switches every replica.
    public var activeStore: (any ActiveThemeStore)?
    /// With a cluster store: where aliases and rollouts are kept.
    public var audienceStore: (any AudienceStore)?
    /// Side modules' routes (Releases' `ReleaseRoutes`), registered in the one router.
    public var collections: [any RouteCollection] = []
    /// The caches in front drop these surrogate keys when a change made them stale.
    public var purge: (@Sendable ([String]) -> Void)?
    /// Returns once every purge asked for so far went out (a replica then tells the cluster store
    /// it serves the change).
    public var purgesSent: (@Sendable () -> Void)?
    /// With a cluster store: the store's generation at start, the first event id.
    public var clusterGeneration: Generation?
    public var shard: Shard?
    public var trustedProxies: TrustedProxies = .none
    /// With shards: the other shards' themes, as `/themes` lists them.
    public var otherShards: @Sendable () -> [ThemeListing] = { [] }
    public var eventHistory = 256
    /// Refetches a second a change may set off before its event asks clients to spread them.
    public var eventRefetchRate = 2_000
    public var imageTransforms = ImageTransformPolicy()
    /// Told of each reload before its events go out, with a reader pinned to the index as it was
    /// before it and the index's reader now (in folder mode, what a release-published webhook
    /// message's diff is made from); nil pins no reader.
    public var reloadObserver: (@Sendable (_ report: SyncReport, _ before: IndexReader, _ after: IndexReader) -> Void)?

    /// Who may change the active theme, aliases and rollouts (and, without a cluster store, who
    /// is told that releases need one rather than that a token is missing).
    public var operators: OperatorCheck {
        OperatorCheck(activeToken: activeToken, loopbackIsOperator: loopbackIsOperator,
                      hasTokens: activeStore != nil || audienceStore != nil, proxies: trustedProxies)
    }

    public init(themesDirectory: String) {
        self.themesDirectory = themesDirectory
    }
}
