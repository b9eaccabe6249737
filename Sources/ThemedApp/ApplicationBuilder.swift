import AssetCatalog
import BlobStore
import Cluster
import Foundation
import HTTPServer
import ImageCoders
import JSON
import Logging
import Logs
import Releases
import Settings
import ThemeContent
import ThemeIndex
import ThemeServer
import ThemeVocabulary
import Webhooks

/// What a test changes of the daemon `buildApplication` makes from settings. `themed serve`
/// changes nothing.
public struct ApplicationOverrides {
    public var logger = Logger(label: "themed")
    /// Written instead of the settings' `accessLog`.
    public var accessLog: AccessLog?
    /// The decoders' pool, with no warming after a reload: a test that watches cold loads.
    public var decoders: WorkerPool?
    /// The folder watcher's quiet time before an in-place write is reloaded.
    public var watchSettleTime = Duration.milliseconds(300)
    /// False: nothing listens, and requests go to `Application.service` directly.
    public var listens = true
    /// Applied last to the HTTP server's configuration.
    public var server: (inout HTTPServer.Configuration) -> Void = { _ in }

    public init() {}
}

/// The daemon as `themed serve` runs it and the tests start it: settings checked, the index, the
/// content store, the HTTP server, the cluster store's follower and desk, the webhooks, and the
/// services that run beside them. The port is bound (unless `listens` is false), and nothing is
/// accepted or run until `Application.start`.
public func buildApplication(_ settings: ServerSettings, overrides: ApplicationOverrides = ApplicationOverrides()) throws -> Application {
    let accessLog = try overrides.accessLog ?? settings.check(creating: true)
    let logger = overrides.logger
    let served = ServedService()
    let uploads = settings.uploadsFolder
    var configuration = settings.serverConfiguration
    if settings.cluster != nil {
        configuration.spool = BodySpool(directory: uploads, maxBytes: settings.releaseMaxBytes, accepts: ReleaseRoutes.receivesUpload)
    }
    overrides.server(&configuration)
    let server = HTTPServer(configuration: configuration, logger: logger, headResponder: served) { request in
        served.handle(request) ?? Application.notReady
    }
    // The port first: one in use stops the start before the index or blob store is touched.
    if overrides.listens {
        do {
            try server.bind()
        } catch {
            server.shutdown()
            throw StartupError("port: cannot listen on \(settings.host):\(settings.port): \(error)")
        }
    }
    let follower = settings.cluster.map { url in
        ClusterFollower(url: url, materializer: Materializer(themesDirectory: settings.themesPath),
                        logger: logger, retention: settings.releaseRetention, shard: settings.shard,
                        replicaName: { "\(ProcessInfo.processInfo.hostName):\(server.port)" })
    }
    let pendingSchedules: @Sendable () -> [Schedule] = { follower?.schedules ?? [] }
    // The desk's connections and token check are shared by every request that changes the store
    // (the active theme's, the audiences').
    let desk = settings.cluster.map { url in
        let connections = StoreConnections(cluster: url)
        return ReleaseDesk(connections: connections, tokens: TokenCheck(connections: connections), workDirectory: uploads,
                           themesDirectory: settings.themesPath, retention: settings.releaseRetention,
                           maxUploadBytes: settings.releaseMaxBytes, pendingSchedules: pendingSchedules)
    }
    let metrics = ServiceMetrics()
    // A release's message carries its diff against the release before it: with a cluster store
    // from the store's two releases, in folder mode from the index before and after the reload.
    let folderDiffs = desk == nil && settings.webhooks.contains(where: { $0.events.contains("release-published") })
        ? FolderReleaseDiffs(themesDirectory: settings.themesPath) : nil
    let parts = Application.Parts(
        settings: settings, logger: logger, accessLog: accessLog, metrics: metrics, served: served, server: server,
        index: try ThemeIndex(databasePath: settings.db), content: try makeContentStore(settings, overrides: overrides, logger: logger, server: server),
        follower: follower, desk: desk,
        audiences: desk.map { desk in
            ClusterAudiences(connections: desk.connections, tokens: desk.tokens, pendingSchedules: pendingSchedules,
                             defaultActive: { served.current?.library.activeTheme })
        },
        activeTheme: desk.map { desk in ClusterActiveTheme(connections: desk.connections, tokens: desk.tokens, pendingSchedules: pendingSchedules) },
        webhooks: makeWebhooks(settings, desk: desk, folderDiffs: folderDiffs, metrics: metrics, logger: logger), folderDiffs: folderDiffs,
        watchSettleTime: overrides.watchSettleTime, listens: overrides.listens)
    return Application(parts)
}

/// Decoding, transforms and the blob stores, as the settings size them.
private func makeContentStore(_ settings: ServerSettings, overrides: ApplicationOverrides, logger: Logger, server: HTTPServer) throws -> ContentStore {
    let workers = overrides.decoders ?? (settings.decodeThreads > 0 ? WorkerPool(threads: settings.decodeThreads) : WorkerPool())
    AssetCatalog.decodedAtlases.setCapacity(settings.atlasCacheBytes)
    let blobs = try BlobStore(directory: settings.blobs)
    for problem in blobs.problems { logger.warning("blob store damaged", metadata: ["problem": "\(problem)"]) }
    let coders = ImageCoderRegistry(limits: ImageLimits(maxPixels: settings.imageMaxPixels, maxDimension: settings.imageMaxDimension))
    let derived = DerivedImages(blobs: try BlobStore(directory: settings.blobs + "/derived"), budgetBytes: settings.derivedImageBytes)
    for problem in derived.blobs.problems { logger.warning("derived image store damaged", metadata: ["problem": "\(problem)"]) }
    // The lowest priority there is: a flood of transforms takes what the loops and decoders leave.
    let transforms = settings.transformConcurrency > 0
        ? WorkerPool(threads: settings.transformConcurrency, queueLimit: settings.transformQueue, niceness: 19)
        : WorkerPool(queueLimit: settings.transformQueue, niceness: 19)
    return ContentStore(blobs: blobs, configuration: .init(
        catalogBytes: settings.catalogCacheBytes, decodeBytes: settings.decodeMemoryBytes, workers: workers, coders: coders,
        collectionGrace: .milliseconds(Int(settings.blobGraceSeconds * 1000)), warmsAfterReload: overrides.decoders == nil,
        derived: derived, transforms: transforms,
        warmingPace: WarmingPace(sinceLastRead: { server.lastRead.map { Moment.now - $0 } })))
}

/// The webhooks' dispatcher, adding each release's diff to its message.
private func makeWebhooks(_ settings: ServerSettings, desk: ReleaseDesk?, folderDiffs: FolderReleaseDiffs?, metrics: ServiceMetrics,
                          logger: Logger) -> WebhookDispatcher {
    var releaseDiff: (@Sendable (String, JSONValue) -> (key: String, value: JSONValue)?)?
    if let desk {
        releaseDiff = { @Sendable type, data in
            guard type == "release-published", case .string(let theme)? = data["theme"], case .int(let generation)? = data["generation"] else { return nil }
            return desk.diffDetails(theme: theme, generation: Generation(generation)).map { ("diff", $0) }
        }
    } else if let folderDiffs {
        releaseDiff = { @Sendable type, data in folderDiffs.details(type: type, data: data) }
    }
    return WebhookDispatcher(subscriptions: settings.webhooks, retrySeconds: settings.webhookRetrySeconds, metrics: metrics, logger: logger,
                             outbox: settings.cluster.map { StoreOutbox(url: $0, subscribers: settings.webhooks.map(\.url.absoluteString)) },
                             details: releaseDiff)
}
