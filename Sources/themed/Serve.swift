import ArgumentParser
import AssetCatalog
import BlobStore
import Cluster
import CLinux
import Dispatch
import Foundation
import Hashing
import HTTPServer
import ImageCoders
import HTTPTypes
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

/// `themed serve`: index the themes and answer lookups over HTTP until SIGTERM or SIGINT.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the themes folder over HTTP/JSON.",
        discussion: "Settings come from defaults, then --config (default config/themed.json when present), then flags. "
            + "A setting or path that cannot be used is one line on standard error and exit status 2.")

    @OptionGroup var options: SettingOptions

    func run() throws {
        // Before anything uses libcrypto: its exit-time cleanup would pull it from under the
        // background threads still hashing when the daemon exits (see `LibCrypto`).
        LibCrypto.setUp
        let settings = try options.resolve()
        // Freed bitmaps go back to the system rather than staying in the heap, and the heap is
        // split in four arenas a core (see the shim): with fewer, the event loops waited on arena
        // locks the warming's and decoders' low-priority threads held; with glibc's eight a core,
        // more memory for nothing (docs/PERFORMANCE.md has both). A heap keeps 8 MiB free at its
        // top between the trims, so that requests do not grow and shrink it each time.
        _ = themed_fix_mmap_threshold(128 << 10)
        _ = themed_fix_trim_threshold(8 << 20)
        _ = themed_limit_arenas(Int32(4 * max(2, ProcessInfo.processInfo.activeProcessorCount)))
        let openFiles = themed_raise_open_file_limit()
        let accessLog = try Startup.check(settings, creating: true)
        let format: LineLogHandler.Format = settings.logFormat == .json ? .json : .text
        LoggingSystem.bootstrap { LineLogHandler(label: $0, format: format, level: settings.logLevel) }
        let logger = Logger(label: "themed")
        let notifier = Notifier()
        if openFiles >= 0, openFiles < settings.maxConnections + 64 {
            logger.warning("the open-file limit is below maxConnections: connections past it are refused",
                           metadata: ["limit": "\(openFiles)", "maxConnections": "\(settings.maxConnections)"])
        }

        // Listening comes first: a port in use stops the start before anything is written. Until
        // the first index is served, every request gets 503 with Retry-After.
        let answering = ServedService()
        var configuration = settings.serverConfiguration
        // Release uploads go to files beside the index as they arrive; what a killed process
        // left there is removed first.
        let uploads = Startup.uploadsFolder(settings)
        if settings.cluster != nil {
            try? FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? []
            where name.hasPrefix("body-") || name.hasPrefix("release-") {
                try? FileManager.default.removeItem(atPath: "\(uploads)/\(name)")
            }
            configuration.spool = BodySpool(directory: uploads, maxBytes: settings.releaseMaxBytes, accepts: ReleaseRoutes.receivesUpload)
        }
        let server = HTTPServer(configuration: configuration, logger: logger, headResponder: answering) { request in
            answering.handle(request) ?? Startup.notReady
        }
        do {
            try server.start()
        } catch {
            throw Startup.failure("port: cannot listen on \(settings.host):\(settings.port): \(error)")
        }

        // Signals are caught from the start: a SIGTERM while the first index is built still
        // drains and exits cleanly.
        let stop = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard number == SIGHUP else { stop.signal(); return }
                guard let service = answering.current else { return }
                logger.info("SIGHUP: rescanning every theme")
                notifier.reloading()
                do { try service.reload() } catch { logger.error("rescan failed", metadata: ["error": "\(error)"]) }
                notifier.reloaded(status: "serving \(service.library.themes.count) themes on port \(server.port)")
            }
            source.resume()
            sources.append(source)
        }

        // With a cluster store, the themes folder follows its releases: the first sync comes
        // before the first index (bounded by clusterUnreachableSeconds), later ones reload it.
        let draining = Mutex(false)
        let unreachableLimit = Duration.milliseconds(Int(settings.clusterUnreachableSeconds * 1000))
        // What the follower reports waits until the service serves (`attach`, below): the first
        // index reads what the syncs before it wrote, and what came during it follows.
        let follower = settings.cluster.map { url in
            ClusterFollower(url: url, materializer: Materializer(themesDirectory: URL(fileURLWithPath: settings.themes).standardizedFileURL.path),
                            logger: logger, retention: settings.releaseRetention, shard: settings.shard,
                            replicaName: "\(ProcessInfo.processInfo.hostName):\(server.port)")
        }
        // Ready while it can serve: a store outage of any length leaves a replica serving what it
        // has (and the front door sending it traffic); how stale that may be is in /healthz,
        // /metrics and the log, not in readiness, which every replica would lose at once.
        let readiness: @Sendable () -> String? = { draining.withLock { $0 } ? "draining" : nil }
        let storeContact = follower.map { follower in
            StoreContact(silence: { follower.lastContact.map { ContinuousClock.now - $0 } }, unreachableAfter: unreachableLimit)
        }
        let releases = settings.cluster.map { url in
            ReleaseDesk(cluster: url, workDirectory: uploads, themesDirectory: URL(fileURLWithPath: settings.themes).standardizedFileURL.path,
                        retention: settings.releaseRetention, maxUploadBytes: settings.releaseMaxBytes,
                        pendingSchedules: { follower?.schedules ?? [] })
        }
        if let follower {
            follower.start()
            if !follower.awaitFirstSync(timeout: unreachableLimit) { logger.warning("cluster store not reached; serving the themes folder as it is") }
        }

        let metrics = ServiceMetrics()
        let audiences = releases.map { desk in
            ClusterAudiences(desk: desk, defaultActive: { answering.current?.library.activeTheme })
        }
        let service: ThemeService
        let webhooks: WebhookDispatcher
        do {
            // With a store, event ids are its generations, from what the first sync applied.
            (service, webhooks) = try Startup.service(settings, accessLog: accessLog, logger: logger, readiness: readiness, storeContact: storeContact,
                                          releases: releases, audiences: audiences, metrics: metrics, clusterGeneration: follower.map { $0.generation },
                                          otherShards: { follower.map { Array($0.listings.values) } ?? [] },
                                          sinceLastRead: { server.lastRead.map { Moment.now - $0 } })
        } catch {
            server.shutdown()
            throw Startup.failure("\(error)")
        }
        // An index that already holds themes is served at once, and the folder is compared with it
        // right after: what changed while themed was stopped arrives as a reload, with its events,
        // and start-up does not grow with the number of themes. A first start (an empty index)
        // and a cluster replica (whose folder the store may just have changed) index first.
        let announceReady = {
            print("themed: serving \(service.themesDirectory) on http://\(settings.host):\(server.port)")
            notifier.ready(status: "serving \(service.library.themes.count) themes on port \(server.port)")
        }
        let servedFromIndex = follower == nil && !service.library.themes.isEmpty
        if servedFromIndex {
            service.rehearse()
            answering.serve(service)
            announceReady()
        }
        // With a cluster store, the event history starts with the store's newest changes: a stream
        // that moves here from a replica that stopped (a deploy) resumes by Last-Event-ID. The first
        // index's changes are then not announced again: the history tells them as the store made them.
        let startedAt = service.events.lastID
        let history = follower.flatMap { follower in
            Startup.storeHistory(settings, through: startedAt, holding: follower.holds, logger: logger)
        }
        follower?.dropHeldReports()
        // Once served, the comparison is background work and requests come first: it runs below
        // them, as the decoders do (at 10,000 themes it takes seconds of a core). A first start
        // serves nothing until it is done.
        let announcing = history == nil
        let compare: @Sendable () throws -> SyncReport = { try service.reload(announcingChanges: announcing) }
        let report = try servedFromIndex ? Self.belowRequests(compare) : compare()
        // The aliases a replayed rollout concerns are those of the first sync.
        if let follower, let audiences { audiences.follow(follower.audiences) }
        if let history { service.recordHistory(history.changes, completeAfter: history.completeAfter) }
        if let active = follower?.active { service.applyActive(active, generation: startedAt, announcing: history == nil) }
        if !servedFromIndex { service.rehearse() }
        // From here the follower's reports reach the service, those held since the first index
        // began first (a release or a switch that came meanwhile).
        follower?.attach(Self.followerCallbacks(service, audiences: audiences))
        // A replica answers only once the store lists it with what it serves: a change made the
        // moment it is ready (behind a balancer, at once) waits for it like for the others.
        if let follower, follower.hasSynced, !follower.awaitReported(timeout: unreachableLimit) {
            logger.warning("cluster store not told what this replica serves; serving anyway (changes do not wait for it until it is)")
        }
        answering.serve(service)
        let names = service.library.themes.map(\.name)
        logger.info("indexed themes", metadata: ["reindexed": "\(report.reindexedSources.count)", "unchanged": "\(report.unchangedSources)",
                                                 "themes": "\(names)"])
        if !servedFromIndex { announceReady() }

        if settings.imageTransforms == .open, !["127.0.0.1", "::1", "localhost"].contains(settings.host) {
            logger.warning("imageTransforms is \"open\" and the server listens beyond loopback: anyone can make it encode and keep any image size (up to derivedImageBytes); set \"signed\" or \"presets\" (docs/API.md)",
                           metadata: ["host": "\(settings.host)"])
        }
        let watcher = settings.watch ? try ThemeWatcher(directory: service.themesDirectory) { theme in
            do { try service.reload(only: theme) } catch { logger.error("reload failed", metadata: ["theme": "\(theme)", "error": "\(error)"]) }
        } : nil
        var timers: [DispatchSourceTimer] = []
        timers.append(Self.every(settings.heartbeatSeconds) { service.events.heartbeat() })
        if let storeContact {
            // One line when the store has been silent past the limit, one when it answers again.
            let wasReachable = Mutex(true)
            timers.append(Self.every(1) {
                let reachable = storeContact.isReachable
                guard wasReachable.withLock({ was in defer { was = reachable }; return was != reachable }) else { return }
                if reachable {
                    logger.info("cluster store answers again; following its releases")
                } else {
                    logger.warning("cluster store unreachable; still serving and ready, with what this replica has (releases may be stale)",
                                   metadata: ["silent_seconds": "\(storeContact.silentSeconds)"])
                }
            })
        }
        // What bursts of requests freed goes back to the system once a minute (a palette sweep of
        // 10,000 brands left 40 MB of free pages in the heap); a trim takes a few milliseconds.
        timers.append(Self.every(60) { _ = themed_trim_heap() })
        // systemd restarts the service when the pings stop; half the interval leaves a margin.
        if let interval = notifier.watchdogInterval {
            timers.append(Self.every(Double(interval.components.seconds) / 2 + Double(interval.components.attoseconds) / 2e18) { notifier.watchdog() })
        }

        stop.wait()
        logger.info("shutting down")
        draining.withLock { $0 = true }
        notifier.stopping()
        follower?.stop()
        timers.forEach { $0.cancel() }
        watcher?.stop()
        // Event streams end with a hint to reconnect soon (to another replica, behind a balancer),
        // spread over two seconds so that the replicas left do not take every client at once.
        service.events.closing(retryMilliseconds: 500...2500)
        server.shutdown()
        // After the server: no change is heard any more. What was heard is kept in the outbox.
        if !webhooks.shutdown() { logger.warning("a webhook post did not end within 5 s of the shutdown") }
        sources.forEach { $0.cancel() }
        accessLog?.flush()
        // Nothing the daemon built is torn down on the way out: the process ends, and a teardown
        // would run on whichever thread lets go last (a cancelled timer releases its handler on a
        // Dispatch worker, later), racing the exit handlers: OpenSSL's cleanup freed its tables
        // while a worker closed the index, and the heap was found corrupt (once, in CI).
        Self.keptUntilExit = [server, service, webhooks, answering, watcher as Any, follower as Any, notifier, timers, sources]
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
        guard let result = outcome.withLock({ $0 }) else { throw ValidationError("the comparison ended without an outcome") }
        return try result.get()
    }

    /// What a replica's follower tells its service once it serves: releases to index, switches,
    /// refused releases, how its own themes are listed (with shards) and assignments to follow.
    private static func followerCallbacks(_ service: ThemeService, audiences: ClusterAudiences?) -> ClusterFollower.Callbacks {
        .init(themesChanged: { themes in
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

    /// Written once, as `run` ends, and never read.
    nonisolated(unsafe) private static var keptUntilExit: [Any] = []

    private static func every(_ seconds: Double, _ action: @escaping @Sendable () -> Void) -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler(handler: action)
        timer.resume()
        return timer
    }
}
