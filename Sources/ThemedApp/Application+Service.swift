import Cluster
import HTTPServer
import Foundation
import Releases
import Settings
import ThemeIndex
import ThemeServer
import ThemeVocabulary
import Webhooks

extension Application {
    /// The theme service over the index and content store, configured from the settings.
    func makeService(clusterGeneration: Generation?) throws -> ThemeService {
        let settings = parts.settings
        let index = parts.index
        // The index's pages into the page cache, off the loops: after a restart (or once the
        // system dropped its cache) the first lookups of each theme then read memory, not the disk.
        Thread.detachNewThread { index.readAhead() }
        let purger = CachePurger(targets: settings.purgeURLs.compactMap(CachePurger.Target.init(url:)), logger: parts.logger)
        var configuration = ThemeServiceConfiguration(themesDirectory: settings.themesPath)
        configuration.activeToken = settings.activeToken
        configuration.loopbackIsOperator = settings.loopbackIsOperator
        (configuration.logger, configuration.metrics, configuration.accessLog) = (parts.logger, parts.metrics, parts.accessLog)
        configuration.content = parts.content
        configuration.responseCacheBytes = settings.responseCacheBytes
        configuration.cachePolicy = CachePolicy(maxAgeSeconds: settings.maxAgeSeconds, sharedMaxAgeSeconds: settings.sharedMaxAgeSeconds,
                                                staleWhileRevalidateSeconds: settings.staleWhileRevalidateSeconds)
        configuration.allowedOrigins = settings.corsAllowedOrigins
        configuration.readiness = { [weak self] in self?.isDraining == true ? "draining" : nil }
        configuration.storeContact = parts.storeContact
        configuration.audienceStore = parts.audiences
        if !purger.targets.isEmpty {
            configuration.purge = { @Sendable keys in purger.purge(keys) }
            // The first repeat goes out once every client has read what it was answered before
            // the change (a cache's fetch then is stored and the repeat drops it), not at 150 ms.
            let server = parts.server
            configuration.purgesSent = { @Sendable in purger.awaitSent { server.closeKeptConnections(awaitingClients: $0) } }
        }
        configuration.clusterGeneration = clusterGeneration
        configuration.shard = settings.shard
        // Checked when the settings were read.
        configuration.trustedProxies = (try? TrustedProxies(settings.trustedProxies)) ?? .none
        let follower = parts.follower
        configuration.otherShards = { follower.map { Array($0.listings.values) } ?? [] }
        configuration.eventHistory = settings.eventHistory
        configuration.eventRefetchRate = settings.eventRefetchRate
        configuration.imageTransforms = ImageTransformPolicy(rule: settings.imageTransforms, presets: settings.imagePresets,
                                                             signingKeys: settings.imageSigningKeys)
        if let folderDiffs = parts.folderDiffs {
            configuration.reloadObserver = { @Sendable report, before, after in folderDiffs.reloaded(report, before: before, after: after) }
        }
        // The release routes answer 409 without a cluster store; with one, PUT /active switches
        // every replica through it. Who is an operator is settled already: with a store (the
        // audience store above) every change needs a token.
        let webhooks = parts.webhooks
        let releaseRoutes = ReleaseRoutes(desk: parts.desk, metrics: parts.metrics, operators: configuration.operators, audiences: parts.audiences,
                                          notify: { type, id, data in webhooks.send(type: type, id: id, data: data) })
        configuration.activeStore = parts.activeTheme
        configuration.collections = [releaseRoutes, WebhookRoutes(dispatcher: webhooks, operators: configuration.operators)]
        let service = try ThemeService(index: index, configuration: configuration)
        // Every change the event stream tells, the webhooks' subscribers are posted too.
        if !settings.webhooks.isEmpty { service.events.observe { webhooks.send($0) } }
        return service
    }

    /// What a replica's follower tells its service once it serves: releases to index, switches,
    /// refused releases, how its own themes are listed (with shards) and assignments to follow.
    func followerCallbacks(_ service: ThemeService) -> ClusterFollower.Callbacks {
        let audiences = parts.audiences
        return .init(themesChanged: { themes in
            for (theme, generation) in themes { _ = try? service.reload(only: theme, generation: generation) }
        }, activeChanged: { theme, generation in
            service.applyActive(theme, generation: generation)
        }, releaseRefused: { theme, generation, reason in
            service.releaseRefused(theme: theme, generation: generation, reason: reason)
        }, listings: { themes in
            // Only what the index serves now: a theme not indexed yet is asked again.
            themes.compactMap { theme, generation in
                service.library.theme(named: theme).map { info in
                    ThemeListing(name: info.name, generation: generation, revision: info.revision, parent: info.parent,
                                 colors: info.colorCount, images: info.imageCount, files: info.fileCount,
                                 errors: info.error.split(separator: "\n").map(String.init))
                }
            }
        }, audiencesChanged: { replica, generation in
            guard let audiences else { return }
            let changes = audiences.follow(replica)
            service.announceAssignmentChanges(changes.aliases, generation: generation)
            service.announceRolloutChanges(changes.rollouts, generation: generation)
        }, settled: {
            service.awaitPurgesSent()
        })
    }
}
