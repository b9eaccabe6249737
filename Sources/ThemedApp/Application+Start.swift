import CLinux
import Cluster
import Foundation
import Logging
import Synchronization
import ThemeIndex
import ThemeServer
import ThemeVocabulary

extension Application {
    /// Listens, then serves: an index that already holds themes at once, a first start (or a
    /// replica, whose folder the store may just have changed) once indexed. Until then every
    /// request gets 503 with Retry-After. Then the folder watcher and the timers run. `ready` is
    /// called once the service answers.
    public func start(ready: @Sendable (Application) -> Void = { _ in }) throws {
        removeLeftoverUploads()
        try run(parts.webhooks)
        try run(parts.content)
        // Listening comes first: a port in use stops the start before anything is written.
        try run(every: Listening.self)
        func announce() {
            ready(self)
            notifier.ready(status: "serving \(self.service?.library.themes.count ?? 0) themes on port \(server.port)")
        }

        // With a cluster store, the themes folder follows its releases: the first sync comes
        // before the first index (bounded by clusterUnreachableSeconds), later ones reload it.
        // What the follower reports waits until the service serves (`attach`, below): the first
        // index reads what the syncs before it wrote, and what came during it follows.
        let follower = parts.follower
        if let connections = parts.desk?.connections { Thread.detachNewThread { connections.openAhead() } }
        if let follower {
            try run(follower)
            if !follower.awaitFirstSync(timeout: parts.unreachableLimit) {
                parts.logger.warning("cluster store not reached; serving the themes folder as it is")
            }
        }
        // With a store, event ids are its generations, from what the first sync applied.
        let service = try makeService(clusterGeneration: follower?.generation)
        // An index that already holds themes is served at once, and the folder is compared with it
        // right after: what changed while themed was stopped arrives as a reload, with its events,
        // and start-up does not grow with the number of themes.
        let servedFromIndex = follower == nil && !service.library.themes.isEmpty
        if servedFromIndex {
            service.rehearse()
            parts.served.serve(service)
            announce()
        }
        // With a cluster store, the event history starts with the store's newest changes: a stream
        // that moves here from a replica that stopped (a deploy) resumes by Last-Event-ID. The first
        // index's changes are then not announced again: the history tells them as the store made them.
        let startedAt = service.events.lastID
        let history = follower.flatMap { storeHistory(through: startedAt, holding: $0.holds) }
        follower?.dropHeldReports()
        // Once served, the comparison is background work and requests come first: it runs below
        // them, as the decoders do (at 10,000 themes it takes seconds of a core). A first start
        // serves nothing until it is done.
        let announcing = history == nil
        let compare: @Sendable () throws -> SyncReport = { try service.reload(announcingChanges: announcing) }
        let report = try servedFromIndex ? Self.belowRequests(compare) : compare()
        // The aliases a replayed rollout concerns are those of the first sync.
        if let follower, let audiences = parts.audiences { audiences.follow(follower.audiences) }
        if let history { service.recordHistory(history.changes, completeAfter: history.completeAfter) }
        if let active = follower?.active { service.applyActive(active, generation: startedAt, announcing: history == nil) }
        if !servedFromIndex { service.rehearse() }
        // From here the follower's reports reach the service, those held since the first index
        // began first (a release or a switch that came meanwhile).
        follower?.attach(followerCallbacks(service))
        // A replica answers only once the store lists it with what it serves: a change made the
        // moment it is ready (behind a balancer, at once) waits for it like for the others.
        if let follower, follower.hasSynced, !follower.awaitReported(timeout: parts.unreachableLimit) {
            parts.logger.warning("cluster store not told what this replica serves; serving anyway (changes do not wait for it until it is)")
        }
        parts.served.serve(service)
        parts.logger.info("indexed themes", metadata: ["reindexed": "\(report.reindexedSources.count)", "unchanged": "\(report.unchangedSources)",
                                                       "themes": "\(service.library.themes.map(\.name))"])
        if !servedFromIndex { announce() }
        let settings = parts.settings
        if settings.imageTransforms == .open, parts.listens, !["127.0.0.1", "::1", "localhost"].contains(settings.host) {
            parts.logger.warning("imageTransforms is \"open\" and the server listens beyond loopback: anyone can make it encode and keep any image size (up to derivedImageBytes); set \"signed\" or \"presets\" (docs/API.md)",
                                 metadata: ["host": "\(settings.host)"])
        }
        if settings.cluster != nil, SessionScheduling().applies == true {
            parts.logger.notice("the kernel shares the CPUs by session here (kernel.sched_autogroup_enabled = 1, no CPU cgroup of its own): on a host the replicas, the cache and the store saturate, the store and operator commands wait for the CPU and changes take seconds to return; turn autogroup off or run each service in a CPU cgroup (docs/DEPLOY.md)")
        }
        try run(every: FolderWatching.self)
        try run(every: RepeatingTimers.self)
    }

    /// Release uploads go to files beside the index as they arrive; what a killed process left
    /// there is removed first.
    private func removeLeftoverUploads() {
        guard parts.settings.cluster != nil else { return }
        let uploads = parts.settings.uploadsFolder
        try? FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? []
        where name.hasPrefix("body-") || name.hasPrefix("release-") {
            try? FileManager.default.removeItem(atPath: "\(uploads)/\(name)")
        }
    }

    /// Runs `work` on a thread of its own at niceness 10 (batch scheduling) and waits for it: a
    /// thread can lower its priority, but only a privileged one can raise it back.
    private static func belowRequests<T: Sendable>(_ work: @escaping @Sendable () throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = themed_lower_thread_priority(10)
            let result = Result { try work() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLock({ $0 }) else { throw StartupError("the comparison ended without an outcome") }
        return try result.get()
    }

    /// The store's newest `eventHistory` changes up to `generation` (where this replica's event ids
    /// start), of the themes it holds and every switch; nil, and streams from before the start told
    /// to resync, when the store has not answered.
    private func storeHistory(through generation: Generation, holding holds: (String) -> Bool)
        -> (changes: [(generation: Generation, theme: String, change: ThemeService.PastChange)], completeAfter: Generation)? {
        guard let url = parts.settings.cluster, generation > 0 else { return nil }
        do {
            let history = try ClusterStore(url: url).history(through: generation, limit: parts.settings.eventHistory)
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
            parts.logger.info("event history loaded from the cluster store", metadata: ["changes": "\(changes.count)", "through": "\(generation)"])
            return (changes, history.completeAfter)
        } catch {
            parts.logger.warning("event history not loaded; streams from before this start will resync", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
