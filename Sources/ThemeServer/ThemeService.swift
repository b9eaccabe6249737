import BlobStore
import Audiences
import Caching
import HTTPServer
import JSON
import Logging
import Sharding
import ThemeContent
import ThemeIndex
import ThemeVocabulary

/// The theme API put together: the route table behind its middleware, the themes it serves and
/// the event stream their changes go to.
///
/// A request whose answer is kept, or of a direct route (`/assign`), is answered by `PreparedResponder`; any other passes the middleware
/// (`MiddlewareStack`, whose order both paths follow) on its way to the router; a reload goes to the library and its outcome to the event stream.
public final class ThemeService: HeadResponder {
    public let library: ThemeLibrary
    public let events: EventHub
    public let metrics: ServiceMetrics
    let logger: Logger
    let preparedResponder: PreparedResponder
    /// The aliases `/assign` answers from without a cluster store.
    let aliases: AliasBook
    /// With a cluster store, where aliases and rollouts are kept.
    let audienceStore: (any AudienceStore)?
    let reloadObserver: (@Sendable (SyncReport, IndexReader, IndexReader) -> Void)?
    private let purgesSent: (@Sendable () -> Void)?
    private let responder: Responder

    public init(index: ThemeIndex, configuration: ThemeServiceConfiguration) throws {
        let (logger, metrics, audienceStore, activeStore) = (configuration.logger, configuration.metrics, configuration.audienceStore, configuration.activeStore)
        let content = try configuration.content ?? ContentStore(blobs: BlobStore(directory: FilePaths.directory(of: index.databasePath) + "/blobs"))
        let library = try ThemeLibrary(index: index, themesDirectory: configuration.themesDirectory, content: content, shard: configuration.shard)
        if let clusterGeneration = configuration.clusterGeneration {
            // Ids are the cluster store's generations: the same on every replica.
            events = EventHub(historyLimit: configuration.eventHistory, numbering: .cluster(startedAt: clusterGeneration),
                              refetchRate: configuration.eventRefetchRate)
        } else {
            // Event ids continue across restarts (the last one used is kept in the index).
            let lastEventID = (try? index.reader.setting(Self.lastEventIDKey)).flatMap { Generation($0) } ?? 0
            events = EventHub(historyLimit: configuration.eventHistory, source: try Self.eventSource(index), firstID: lastEventID + 1,
                              refetchRate: configuration.eventRefetchRate) { id in
                try? index.writer.setSetting(Self.lastEventIDKey, to: String(id))
            }
        }
        // The caches in front drop what a change made stale (`purge`: the keys to drop).
        if let purge = configuration.purge {
            events.observe { event in
                let keys = SurrogateKeys.keys(for: event)
                if !keys.isEmpty { purge(keys) }
            }
        }
        self.library = library
        self.logger = logger
        self.metrics = metrics
        let cors = CORSMiddleware(allowedOrigins: configuration.allowedOrigins)
        let responseCache = ResponseCacheMiddleware(library: library, cors: cors, metrics: metrics, capacityBytes: configuration.responseCacheBytes)
        let requestLog = RequestLogMiddleware(accessLog: configuration.accessLog, logger: logger, ids: RequestIDs())
        let caches: [any CacheReporting] = [responseCache, index.reader.parentPalettes, index.reader.tokenResolutions.resolutions, index.reader.tokenResolutions.colors] + content.caches
        let clustered = configuration.clusterGeneration != nil
        let aliases = AliasBook(index: index, library: library, logger: logger)
        self.aliases = aliases
        self.audienceStore = audienceStore
        reloadObserver = configuration.reloadObserver
        purgesSent = configuration.purgesSent
        if !clustered {
            // A theme that changes moves the base its aliases' clients read (a new generation),
            // and a switch moves `current`: those clients are told to ask for their assignment again.
            events.observe { [weak events] event in
                guard let events, case .theme(let change, let theme) = event.change else { return }
                let affected = change == .activated ? [AliasBook.current] : aliases.aliases(pointingAt: theme.theme).map(\.name)
                for alias in affected { AudienceRoutes.announce(alias, theme: theme.theme, to: events) }
            }
        }
        let operators = configuration.operators
        let router = Router([
            AdminRoutes(library: library, metrics: metrics, caches: caches, events: events, operators: operators,
                        readiness: configuration.readiness, storeContact: configuration.storeContact, store: activeStore, logger: logger),
            EventRoutes(events: events, library: library) { [audienceStore] name in
                (audienceStore?.assigner.aliases[name] ?? aliases.alias(named: name))?.themes
            },
            ThemeRoutes(library: library, hasReleases: activeStore != nil, otherShards: configuration.otherShards),
            ColorRoutes(library: library),
            TokenRoutes(library: library),
            ExportRoutes(library: library, logger: logger),
            ContrastRoutes(library: library, logger: logger),
            GalleryRoutes(),
            ImageRoutes(library: library, logger: logger, transforms: configuration.imageTransforms),
            StringRoutes(library: library),
            BlobRoutes(library: library),
            AudienceRoutes(library: library, book: aliases, events: events, metrics: metrics, operators: operators, store: audienceStore, cors: cors),
        ] + configuration.collections, library: library, logger: logger)
        let stack = MiddlewareStack(requestLog: requestLog, metrics: MetricsMiddleware(metrics: metrics), cors: cors, responseCache: responseCache,
                                    compression: CompressionMiddleware(content: content),
                                    pinnedGeneration: PinnedGenerationMiddleware(library: library, store: audienceStore),
                                    sharedCache: SharedCacheMiddleware(library: library, policy: configuration.cachePolicy))
        preparedResponder = PreparedResponder(stack: stack, router: router)
        responder = Responder(middleware: stack.chain, router: router)
    }

    static let lastEventIDKey = "last_event_id"
    static let eventSourceKey = "event_source"

    /// The name of this index's event numbering, made once and kept in the index: the same after
    /// a restart, different on every other replica (each has its own index).
    static func eventSource(_ index: ThemeIndex) throws -> String {
        if let source = try index.reader.setting(eventSourceKey), !source.isEmpty { return source }
        let source = String(UInt32.random(in: .min ... .max), radix: 16)
        try index.writer.setSetting(eventSourceKey, to: source)
        return source
    }

    /// Answers one request made in-process (tests, tools): from a kept answer when there is one
    /// (`PreparedResponder`), else through the middleware chain and the routes.
    public func handle(_ request: Request) -> Response {
        preparedResponder.answer(request) ?? answerRouted(request)
    }

    /// The HTTP server's handler, for a request with no kept answer (`answer(_:requestFields:)`): through the
    /// middleware chain and the routes, the response cache not asked a second time (one probe,
    /// one miss counted).
    public func answerRouted(_ request: Request) -> Response {
        responder.respond(to: request).response
    }

    /// Re-reads the themes folder (with `only`, one theme), swaps the result in and announces
    /// what changed on the event stream (with `generation`, the cluster release it applies).
    /// `announcingChanges` false: what changed is not published (a replica's first index, whose
    /// changes `recordHistory` tells as the store made them); errors are.
    @discardableResult
    public func reload(only theme: String? = nil, generation: Generation? = nil, announcingChanges: Bool = true) throws -> SyncReport {
        let before = reloadObserver == nil ? nil : try? library.index.pinnedReader()
        let report = try library.reload(only: theme)
        if let before { reloadObserver?(report, before, library.index.reader) }
        ReloadEvents.publish(report, themes: library.themes, to: events, generation: generation, announcingChanges: announcingChanges, logger: logger)
        return report
    }

    /// A change made before this server started, as its event is replayed.
    public enum PastChange: Sendable, Equatable {
        case theme(ThemeChange)
        /// The clients of `alias` (nil: of every alias that points at the theme now) ask for their
        /// assignment again.
        case assignment(alias: String?)
    }

    /// Changes made before this server started, oldest first (with a cluster store, the store's
    /// newest: `ClusterStore.history`), put in the event history as the events they were, so a
    /// stream that resumes from before the start is replayed what it missed instead of being told
    /// to resync. Every change after `completeAfter` is among them. An event carries the theme's
    /// revision as served now (a later change of the same theme follows it in the replay).
    public func recordHistory(_ changes: [(generation: Generation, theme: String, change: PastChange)], completeAfter: Generation) {
        let aliases = audienceStore?.assigner.aliases ?? [:]
        let past = changes.flatMap { generation, name, change -> [EventHub.Event] in
            switch change {
            case .theme(let change):
                return [EventHub.Event(id: generation, .theme(change, ReloadEvents.revision(name, change == .removed ? nil : library.theme(named: name), generation: generation)))]
            case .assignment(let alias):
                let named = alias.map { [($0, aliases[$0]?.theme ?? name)] }
                    ?? aliases.values.filter { $0.themes.contains(name) }.sorted { $0.name < $1.name }.map { ($0.name, $0.theme) }
                return named.map { alias, theme in
                    EventHub.Event(id: generation, .assignmentChanged(alias: alias, theme: theme.isEmpty ? nil : theme))
                }
            }
        }
        events.record(past, completeAfter: completeAfter)
    }

    public var themesDirectory: String { library.themesDirectory }

    /// A cluster release this replica could not write: counted in /metrics and told to the event
    /// stream as a theme-error (the theme keeps serving the release before).
    public func releaseRefused(theme: String, generation: Generation, reason: String) {
        metrics.releasesRefused.add(1, ordering: .relaxed)
        ReloadEvents.publishError("cluster release \(generation) refused: \(reason)", theme: theme,
                                  library.theme(named: theme), to: events, generation: generation)
    }

    /// Tells the clients of these aliases to ask for their assignment again (the cluster's
    /// aliases, rollouts or generations changed; `generation`: the store's, as the event's id).
    public func announceAssignmentChanges(_ aliases: [(alias: String, theme: String?)], generation: Generation? = nil) {
        for (alias, theme) in aliases { AudienceRoutes.announce(alias, theme: theme, to: events, generation: generation) }
    }

    /// Tells the event stream (and the webhooks) of each theme whose rollout changed:
    /// `rollout-changed` with the rollout as it now stands, or `null` once there is none (completed
    /// at 100%, or replaced).
    public func announceRolloutChanges(_ rollouts: [(theme: String, rollout: Rollout?)], generation: Generation? = nil) {
        for (theme, rollout) in rollouts {
            events.publish(.rolloutChanged(theme: theme, rollout: rollout), generation: generation)
        }
    }

    /// Returns once the caches in front were sent every purge the changes so far made (at once
    /// without caches to purge).
    public func awaitPurgesSent() {
        purgesSent?()
    }

    /// Makes `theme` the one `current` stands for (the cluster's choice arriving) and tells the
    /// event stream (with `generation`, the switch's in the store); nothing happens when it
    /// already is, or when no such theme is loaded.
    public func applyActive(_ theme: String, generation: Generation? = nil, announcing: Bool = true) {
        AdminRoutes.apply(theme, library: library, events: events, generation: generation, announcing: announcing, logger: logger)
    }
}
