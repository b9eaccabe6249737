import Cluster
import Dispatch
import Foundation
import HTTPServer
import Synchronization
import ThemeContent
import ThemeServer
import Webhooks

/// A part of the daemon with threads of its own: `Application.start` runs the services in their
/// list's order, and `Application.shutdown` stops them in the reverse order.
public protocol ApplicationService: AnyObject, Sendable {
    /// How the log names it.
    var name: String { get }
    /// Starts its work and returns once it is under way.
    func run() throws
    /// Stops it and returns when its threads ended; false when one did not in its time.
    func shutdown() -> Bool
}

/// Posts a change's webhooks to their subscribers; its outbox keeps what is not posted yet.
extension WebhookDispatcher: ApplicationService {
    public var name: String { "webhooks" }
    public func run() { start() }
    public func shutdown() -> Bool { shutdown(timeout: .seconds(5)) }
}

/// Follows the cluster store's releases, switches and audiences.
extension ClusterFollower: ApplicationService {
    public var name: String { "cluster follower" }
    public func run() { start() }
    public func shutdown() -> Bool {
        stop()
        return true
    }
}

/// Decodes, transforms and warms content off the event loops; its pools' threads start with it
/// and wait for work.
extension ContentStore: ApplicationService {
    public var name: String { "content" }
    public func run() {}
}

/// The HTTP server, listening unless a test asks the service directly (its event loops run either
/// way). Its shutdown ends the event streams first, with a hint to reconnect soon (to another
/// replica, behind a balancer) spread over two seconds so that the replicas left do not take
/// every client at once, then drains the connections.
final class Listening: ApplicationService {
    let server: HTTPServer
    let served: ServedService
    let address: String
    let listens: Bool

    init(server: HTTPServer, served: ServedService, address: String, listens: Bool) {
        (self.server, self.served, self.address, self.listens) = (server, served, address, listens)
    }

    var name: String { "http server" }

    func run() throws {
        guard listens else { return }
        do {
            try server.start()
        } catch {
            throw StartupError("port: cannot listen on \(address): \(error)")
        }
    }

    func shutdown() -> Bool {
        served.current?.events.closing(retryMilliseconds: 500...2500)
        server.shutdown()
        return true
    }
}

/// Reloads a theme when its files change in the themes folder.
final class FolderWatching: ApplicationService {
    let directory: String
    let settleTime: Duration
    let changed: @Sendable (ThemeWatcher.Change) -> Void
    private let watcher = Mutex<ThemeWatcher?>(nil)

    init(directory: String, settleTime: Duration, changed: @escaping @Sendable (ThemeWatcher.Change) -> Void) {
        (self.directory, self.settleTime, self.changed) = (directory, settleTime, changed)
    }

    var name: String { "folder watcher" }

    func run() throws {
        let started = try ThemeWatcher(directory: directory, settleTime: settleTime, changed: changed)
        watcher.withLock { $0 = started }
    }

    func shutdown() -> Bool {
        watcher.withLock { $0 }?.stop()
        return true
    }
}

/// Work repeated at an interval: heartbeats, the store's reachability, heap trims, systemd's watchdog.
final class RepeatingTimers: ApplicationService {
    struct Task: Sendable {
        let seconds: Double
        let action: @Sendable () -> Void
    }

    /// Dispatch sources may be cancelled from any thread.
    private struct Running: @unchecked Sendable {
        var timers: [DispatchSourceTimer] = []
    }

    let tasks: [Task]
    private let running = Mutex(Running())

    init(_ tasks: [Task]) { self.tasks = tasks }

    var name: String { "timers" }

    func run() {
        let started = tasks.map { task in
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + task.seconds, repeating: task.seconds)
            timer.setEventHandler(handler: task.action)
            timer.resume()
            return timer
        }
        running.withLock { $0.timers = started }
    }

    func shutdown() -> Bool {
        running.withLock { $0 }.timers.forEach { $0.cancel() }
        return true
    }
}
