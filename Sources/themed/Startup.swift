import ArgumentParser
import AssetCatalog
import BlobStore
import CLinux
import Cluster
import Dispatch
import Foundation
import HTTPServer
import HTTPTypes
import JSON
import ImageCoders
import Logging
import Logs
import Releases
import Settings
import Synchronization
import Systemd
import ThemeContent
import ThemeIndex
import ThemeServer
import ThemeVocabulary
import Webhooks

/// What `serve` checks and builds before it answers anything.
enum Startup {
    /// A one-line error on standard error, then exit status 2.
    static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("themed: \(message)\n".utf8))
        return ExitCode(2)
    }

    /// Where release uploads are written and unpacked: beside the index.
    static func uploadsFolder(_ settings: ServerSettings) -> String {
        URL(fileURLWithPath: FilePaths.directory(of: settings.db) + "/uploads").standardizedFileURL.path
    }

    static let notReady: Response = {
        var response = Response(status: .serviceUnavailable, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                                body: Array(#"{"error":{"code":"starting","message":"the first index is being built"}}"#.utf8))
        response.headers[.retryAfter] = "1"
        return response
    }()

    /// The paths the settings name: the themes folder must exist; the index's folder and the
    /// blob store must be writable, or creatable (`creating` makes them); the access log must
    /// open. Returns the access log.
    static func check(_ settings: ServerSettings, creating: Bool) throws -> AccessLog? {
        for url in settings.purgeURLs where CachePurger.Target(url: url) == nil {
            throw failure("purgeURLs: \(url): not an http://host:port address")
        }
        var isFolder: ObjCBool = false
        // A replica of a cluster fills its themes folder from the store, so it may start empty.
        if settings.cluster != nil, creating, !FileManager.default.fileExists(atPath: settings.themes) {
            try? FileManager.default.createDirectory(atPath: settings.themes, withIntermediateDirectories: true)
        }
        guard FileManager.default.fileExists(atPath: settings.themes, isDirectory: &isFolder), isFolder.boolValue else {
            throw failure("themes: \(settings.themes): no such folder")
        }
        let databaseFolder = FilePaths.directory(of: settings.db)
        for (key, folder) in [("db", databaseFolder), ("blobs", settings.blobs)] {
            // The folder, or the nearest ancestor that exists when it does not yet.
            var existing = folder
            while !FileManager.default.fileExists(atPath: existing, isDirectory: &isFolder), existing != "/", existing != "." {
                existing = FilePaths.directory(of: existing)
            }
            guard FileManager.default.fileExists(atPath: existing, isDirectory: &isFolder), isFolder.boolValue else {
                throw failure("\(key): \(existing): not a folder")
            }
            guard access(existing, W_OK) == 0 else { throw failure("\(key): \(existing): not writable") }
        }
        if let path = settings.accessLog, path != "-" {
            let folder = FilePaths.directory(of: path)
            let exists = FileManager.default.fileExists(atPath: path)
            let folderUsable = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue
            guard exists || folderUsable, access(exists ? path : folder, W_OK) == 0 else {
                throw failure("accessLog: \(path): cannot be written")
            }
        }
        guard creating else { return nil }
        let accessLog: AccessLog?
        do {
            accessLog = try settings.accessLog.map { AccessLog(sink: try LineSink.opening($0), format: settings.logFormat == .json ? .json : .text) }
        } catch {
            throw failure("accessLog: \(error)")
        }
        for (key, folder) in [("db", databaseFolder), ("blobs", settings.blobs)] {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw failure("\(key): \(folder): cannot be created")
            }
        }
        return accessLog
    }

    /// The store's newest `eventHistory` changes up to `generation` (where this replica's event ids
    /// start), of the themes it holds and every switch; nil, and streams from before the start told
    /// to resync, when the store has not answered.
    static func storeHistory(_ settings: ServerSettings, through generation: Generation, holding holds: (String) -> Bool,
                             logger: Logger) -> (changes: [(generation: Generation, theme: String, change: ThemeService.PastChange)], completeAfter: Generation)? {
        guard let url = settings.cluster, generation > 0 else { return nil }
        do {
            let history = try ClusterStore(url: url).history(through: generation, limit: settings.eventHistory)
            let changes = history.changes.compactMap { change -> (generation: Generation, theme: String, change: ThemeService.PastChange)? in
                let kind: ThemeService.PastChange = switch change.kind {
                case .added: .theme(.added)
                case .reloaded: .theme(.reloaded)
                case .retired: .theme(.removed)
                case .activated: .theme(.activated)
                case .assignment(let alias): .assignment(alias: alias)
                }
                // Every replica answers every assignment; a theme's own changes, its holders.
                let everywhere = switch kind {
                case .theme(.activated), .assignment: true
                default: false
                }
                return everywhere || holds(change.theme) ? (change.generation, change.theme, kind) : nil
            }
            logger.info("event history loaded from the cluster store", metadata: ["changes": "\(changes.count)", "through": "\(generation)"])
            return (changes, history.completeAfter)
        } catch {
            logger.warning("event history not loaded; streams from before this start will resync", metadata: ["error": "\(error)"])
            return nil
        }
    }

    static func service(_ settings: ServerSettings, accessLog: AccessLog?, logger: Logger,
                        readiness: @escaping @Sendable () -> String? = { nil }, storeContact: StoreContact? = nil,
                        releases: ReleaseDesk? = nil, audiences: ClusterAudiences? = nil, metrics: ServiceMetrics = ServiceMetrics(),
                        clusterGeneration: Generation? = nil,
                        otherShards: @escaping @Sendable () -> [ThemeListing] = { [] },
                        sinceLastRead: @escaping @Sendable () -> Duration? = { nil }) throws -> (service: ThemeService, webhooks: WebhookDispatcher) {
        let index = try ThemeIndex(databasePath: settings.db)
        // The index's pages into the page cache, off the loops: after a restart (or once the
        // system dropped its cache) the first lookups of each theme then read memory, not the disk.
        Thread.detachNewThread { index.readAhead() }
        let workers = settings.decodeThreads > 0 ? WorkerPool(threads: settings.decodeThreads) : WorkerPool()
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
        let content = ContentStore(blobs: blobs, configuration: .init(
            catalogBytes: settings.catalogCacheBytes, decodeBytes: settings.decodeMemoryBytes, workers: workers, coders: coders,
            collectionGrace: .milliseconds(Int(settings.blobGraceSeconds * 1000)), derived: derived, transforms: transforms,
            warmingPace: WarmingPace(sinceLastRead: sinceLastRead)))
        let policy = CachePolicy(maxAgeSeconds: settings.maxAgeSeconds, sharedMaxAgeSeconds: settings.sharedMaxAgeSeconds,
                                 staleWhileRevalidateSeconds: settings.staleWhileRevalidateSeconds)
        let themesPath = URL(fileURLWithPath: settings.themes).standardizedFileURL.path
        let purger = CachePurger(targets: settings.purgeURLs.compactMap(CachePurger.Target.init(url:)), logger: logger)
        let purge: (@Sendable ([String]) -> Void)? = purger.targets.isEmpty ? nil : { @Sendable keys in purger.purge(keys) }
        // Checked when the settings were read.
        let proxies = (try? TrustedProxies(settings.trustedProxies)) ?? .none
        var configuration = ThemeServiceConfiguration(themesDirectory: themesPath)
        configuration.activeToken = settings.activeToken
        configuration.loopbackIsOperator = settings.loopbackIsOperator
        configuration.logger = logger
        configuration.metrics = metrics
        configuration.content = content
        configuration.responseCacheBytes = settings.responseCacheBytes
        configuration.cachePolicy = policy
        configuration.accessLog = accessLog
        configuration.allowedOrigins = settings.corsAllowedOrigins
        configuration.readiness = readiness
        configuration.storeContact = storeContact
        configuration.audienceStore = audiences
        configuration.purge = purge
        configuration.purgesSent = purger.targets.isEmpty ? nil : { @Sendable in purger.awaitSent() }
        configuration.clusterGeneration = clusterGeneration
        configuration.shard = settings.shard
        configuration.trustedProxies = proxies
        configuration.otherShards = otherShards
        configuration.eventHistory = settings.eventHistory
        configuration.eventRefetchRate = settings.eventRefetchRate
        configuration.imageTransforms = ImageTransformPolicy(rule: settings.imageTransforms, presets: settings.imagePresets,
                                                             signingKeys: settings.imageSigningKeys)
        // A release's message carries its diff against the release before it: with a cluster store
        // from the store's two releases, in folder mode from the index before and after the reload.
        let folderDiffs = releases == nil && settings.webhooks.contains(where: { $0.events.contains("release-published") })
            ? FolderReleaseDiffs(themesDirectory: themesPath) : nil
        if let folderDiffs {
            configuration.reloadObserver = { @Sendable report, before, after in folderDiffs.reloaded(report, before: before, after: after) }
        }
        var releaseDiff: (@Sendable (String, JSONValue) -> (key: String, value: JSONValue)?)?
        if let releases {
            releaseDiff = { @Sendable type, data in
                guard type == "release-published", case .string(let theme)? = data["theme"], case .int(let generation)? = data["generation"] else { return nil }
                return releases.diffDetails(theme: theme, generation: Generation(generation)).map { ("diff", $0) }
            }
        } else if let folderDiffs {
            releaseDiff = { @Sendable type, data in folderDiffs.details(type: type, data: data) }
        }
        let webhooks = WebhookDispatcher(subscriptions: settings.webhooks, retrySeconds: settings.webhookRetrySeconds, metrics: metrics, logger: logger,
                                         outbox: settings.cluster.map { StoreOutbox(url: $0, subscribers: settings.webhooks.map(\.url.absoluteString)) },
                                         details: releaseDiff)
        // The release routes answer 409 without a cluster store; with one, PUT /active switches
        // every replica through it. Who is an operator is settled already: with a store (the
        // audience store above) every change needs a token.
        let releaseRoutes = ReleaseRoutes(desk: releases, metrics: metrics, operators: configuration.operators, audiences: audiences,
                                          notify: { type, id, data in webhooks.send(type: type, id: id, data: data) })
        configuration.activeStore = releases.map(ClusterActiveTheme.init(desk:))
        configuration.collections = [releaseRoutes, WebhookRoutes(dispatcher: webhooks, operators: configuration.operators)]
        let service = try ThemeService(index: index, configuration: configuration)
        // Every change the event stream tells, the webhooks' subscribers are posted too.
        if !settings.webhooks.isEmpty { service.events.observe { webhooks.send($0) } }
        return (service, webhooks)
    }
}
