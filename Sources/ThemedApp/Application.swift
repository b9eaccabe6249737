import CLinux
import Cluster
import Foundation
import HTTPServer
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

/// The daemon: what `buildApplication` made from the settings, started by `start` (listening,
/// the first sync and index, then the services beside the server) and stopped by `shutdown`.
public final class Application: Sendable {
    /// What `buildApplication` makes; nothing in it runs yet.
    struct Parts: Sendable {
        let settings: ServerSettings
        let logger: Logger
        let accessLog: AccessLog?
        let metrics: ServiceMetrics
        let served: ServedService
        let server: HTTPServer
        let index: ThemeIndex
        let content: ContentStore
        let follower: ClusterFollower?
        let desk: ReleaseDesk?
        let audiences: ClusterAudiences?
        let activeTheme: ClusterActiveTheme?
        let webhooks: WebhookDispatcher
        let folderDiffs: FolderReleaseDiffs?
        let watchSettleTime: Duration
        let listens: Bool
    }

    let parts: Parts
    public var server: HTTPServer { parts.server }
    public var settings: ServerSettings { parts.settings }
    /// The services in the order `start` runs them; `shutdown` stops them in the reverse order.
    public let services: [any ApplicationService]
    /// The theme service, once the first index is served.
    public var service: ThemeService? { parts.served.current }
    let notifier: Notifier
    /// Set by `shutdown`: the readiness check answers "draining".
    private let draining = Atomic(false)
    var isDraining: Bool { draining.load(ordering: .relaxed) }
    private let started = Mutex<[any ApplicationService]>([])

    init(_ parts: Parts) {
        self.parts = parts
        let notifier = Notifier()
        self.notifier = notifier
        let served = parts.served
        let logger = parts.logger
        var services: [any ApplicationService] = [parts.webhooks, parts.content]
        services.append(Listening(server: parts.server, served: served, address: "\(parts.settings.host):\(parts.settings.port)", listens: parts.listens))
        if let follower = parts.follower { services.append(follower) }
        if parts.settings.watch {
            let follower = parts.follower
            services.append(FolderWatching(directory: parts.settings.themesPath, settleTime: parts.watchSettleTime) { change in
                // A release the follower swapped in is reloaded by the follower, with its generation.
                if change.isSwappedIn, follower?.materializer.holdsLastSwap(change.theme) == true { return }
                do { try served.current?.reload(only: change.theme) } catch {
                    logger.error("reload failed", metadata: ["theme": "\(change.theme)", "error": "\(error)"])
                }
            })
        }
        services.append(RepeatingTimers(Self.timerTasks(parts, notifier: notifier)))
        self.services = services
    }

    /// Where it answers, once listening.
    public var address: String { "http://\(parts.settings.host):\(parts.server.port)" }

    static let notReady: Response = {
        var response = Response(status: .serviceUnavailable, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                                body: Array(#"{"error":{"code":"starting","message":"the first index is being built"}}"#.utf8))
        response.headers[.retryAfter] = "1"
        return response
    }()

    /// Runs `service` and keeps it for `shutdown`.
    func run(_ service: any ApplicationService) throws {
        try service.run()
        started.withLock { $0.append(service) }
    }

    func run<Service: ApplicationService>(every type: Service.Type) throws {
        for case let service as Service in services { try run(service) }
    }

    /// Stops what `start` ran, in the reverse order: the timers and the folder watcher, the
    /// follower (no release is applied any more), the server (event streams told to reconnect,
    /// connections drained), the content store's threads, then the webhooks: every change heard
    /// is in the outbox (with a cluster store, the store's, for another replica or the next start).
    public func shutdown() {
        parts.logger.info("shutting down")
        draining.store(true, ordering: .relaxed)
        notifier.stopping()
        let running = started.withLock { started in
            defer { started = [] }
            return started
        }
        for service in running.reversed() where !service.shutdown() {
            parts.logger.warning("a service did not stop in its time", metadata: ["service": "\(service.name)"])
        }
        parts.accessLog?.flush()
    }

    /// Indexes every theme again (SIGHUP).
    public func rescan() {
        guard let service else { return }
        parts.logger.info("SIGHUP: rescanning every theme")
        notifier.reloading()
        do { try service.reload() } catch { parts.logger.error("rescan failed", metadata: ["error": "\(error)"]) }
        notifier.reloaded(status: "serving \(service.library.themes.count) themes on port \(parts.server.port)")
    }

    /// Heartbeats for event streams, the store's reachability in the log, heap trims, systemd's watchdog.
    private static func timerTasks(_ parts: Parts, notifier: Notifier) -> [RepeatingTimers.Task] {
        let served = parts.served
        var tasks = [RepeatingTimers.Task(seconds: parts.settings.heartbeatSeconds) { served.current?.events.heartbeat() }]
        if let storeContact = parts.storeContact {
            // One line when the store has been silent past the limit, one when it answers again.
            let wasReachable = Mutex(true)
            let logger = parts.logger
            tasks.append(.init(seconds: 1) {
                let reachable = storeContact.isReachable
                guard wasReachable.withLock({ was in defer { was = reachable }; return was != reachable }) else { return }
                if reachable {
                    logger.info("cluster store answers again; following its releases")
                } else {
                    // Silent since it last answered, or since the start when it never has.
                    let silence: Logger.Metadata = storeContact.secondsSinceAnswer.map { ["silent_seconds": "\($0)"] } ?? ["answered": "never since the start"]
                    logger.warning("cluster store unreachable; still serving and ready, with what this replica has (releases may be stale)", metadata: silence)
                }
            })
        }
        // What bursts of requests freed goes back to the system once a minute (a palette sweep of
        // 10,000 brands left 40 MB of free pages in the heap); a trim takes a few milliseconds.
        tasks.append(.init(seconds: 60) { _ = themed_trim_heap() })
        // systemd restarts the service when the pings stop; half the interval leaves a margin.
        if let interval = notifier.watchdogInterval {
            tasks.append(.init(seconds: interval / .seconds(2)) { notifier.watchdog() })
        }
        return tasks
    }
}

extension Application.Parts {
    /// How long the store may be silent before the replica says so.
    var unreachableLimit: Duration { .milliseconds(Int(settings.clusterUnreachableSeconds * 1000)) }

    /// When the cluster store last answered. A store outage of any length leaves a replica serving
    /// what it has (and the front door sending it traffic); how stale that may be is in /healthz,
    /// /metrics and the log, not in readiness, which every replica would lose at once.
    var storeContact: StoreContact? {
        follower.map { follower in
            StoreContact(silence: { follower.lastContact.map { ContinuousClock.now - $0 } }, unreachableAfter: unreachableLimit)
        }
    }
}
