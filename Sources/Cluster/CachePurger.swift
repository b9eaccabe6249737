import Foundation
import Logging
import Synchronization

/// Tells the caches in front of the replicas (Varnish with xkey, or anything that takes the same
/// request) to drop the answers that carry some surrogate keys: `PURGE /` with `xkey-purge: <keys>`
/// to each configured cache (`purgeURLs`). The server says which keys a change makes stale
/// (`ThemeServer`'s `SurrogateKeys`, the keys its answers carry) once it serves the new content.
///
/// Purges go out on their own queue: the index that answers the cache's next request already
/// holds the new generation. A cache that does not answer is logged and skipped; its copies then
/// live out their `s-maxage`.
///
/// Each purge is sent again after `repeats` (150 ms and 1 s by default): a fetch the cache began
/// before the purge and finished after it (from this replica a moment before it changed, or from
/// another replica that has not changed yet) is kept as new and would outlive every purge until
/// its `s-maxage` (issue 53.4: a release seen through Varnish, then the old answer again for
/// seconds). The repeats drop what such fetches kept. A change is reported served only after
/// the first repeat went out (`awaitSent`): one switch in 288 changes under load was answered before it,
/// and the door gave the old `current` until the repeat, 147 ms later. A replica that can tell
/// when the fetches it answered before the change are done (`HTTPServer.closeKeptConnections`)
/// sends that repeat then, not after a guessed 150 ms.
public final class CachePurger: Sendable {
    public struct Target: Sendable, Equatable {
        public var host: String
        public var port: Int

        /// `http://host:port` (the port defaults to 80).
        public init?(url: String) {
            guard let components = URLComponents(string: url), components.scheme == "http", let host = components.host, !host.isEmpty else { return nil }
            self.host = host
            self.port = components.port ?? 80
        }
    }

    public let targets: [Target]
    /// When the purge is sent again, after the first.
    public let repeats: [Duration]
    let logger: Logger
    private let queue = DispatchQueue(label: "themed-purge")
    /// The purges whose first repeat is still to come: when it is due, and their keys.
    private let unrepeated = Mutex<[(due: DispatchTime, keys: [String])]>([])

    public init(targets: [Target], repeats: [Duration] = [.milliseconds(150), .seconds(1)], logger: Logger) {
        self.targets = targets
        self.repeats = repeats
        self.logger = logger
    }

    /// Purges `keys` at every cache, on the purger's queue (the caller does not wait), and again
    /// after each of `repeats`.
    public func purge(_ keys: [String]) {
        guard !keys.isEmpty, !targets.isEmpty else { return }
        queue.async { [self] in for target in targets { purge(keys, at: target) } }
        let now = DispatchTime.now()
        for (number, delay) in repeats.enumerated() {
            let due = now + .milliseconds(delay.milliseconds)
            if number == 0 { unrepeated.withLock { $0.append((due, keys)) } }
            queue.asyncAfter(deadline: due) { [self] in for target in targets { purge(keys, at: target) } }
        }
    }

    /// Returns once every purge asked for so far was sent, and sent again after the fetches the
    /// caches began before it: at once when `fetchesDone` (given the time until the first repeat)
    /// says they are done, else at the first repeat (the later repeats still go out after).
    public func awaitSent(fetchesDone: (Duration) -> Bool = { _ in false }) {
        queue.sync {}
        let now = DispatchTime.now()
        let pending = unrepeated.withLock { entries in
            entries.removeAll { $0.due <= now }
            return entries
        }
        guard let due = pending.map(\.due).max() else { return }
        if fetchesDone(.nanoseconds(Int64(due.uptimeNanoseconds - now.uptimeNanoseconds))) {
            let keys = Set(pending.flatMap(\.keys)).sorted()
            queue.sync { for target in targets { purge(keys, at: target) } }
            return
        }
        // Timers fire in the order of their deadlines, and the queue runs one block at a time:
        // a block due just after the repeat runs once the repeat was sent.
        let sent = DispatchSemaphore(value: 0)
        queue.asyncAfter(deadline: due + .milliseconds(1)) { sent.signal() }
        sent.wait()
    }

    /// One `PURGE` request; the status is logged, not retried.
    func purge(_ keys: [String], at target: Target) {
        let request = "PURGE / HTTP/1.1\r\nHost: \(target.host)\r\nxkey-purge: \(keys.joined(separator: " "))\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        do {
            let status = try Self.exchange(Array(request.utf8), with: target)
            if status == 200 {
                logger.debug("cache purged", metadata: ["keys": "\(keys)", "cache": "\(target.host):\(target.port)"])
            } else {
                logger.warning("cache refused a purge", metadata: ["keys": "\(keys)", "cache": "\(target.host):\(target.port)", "status": "\(status)"])
            }
        } catch {
            logger.warning("cache did not take a purge", metadata: ["keys": "\(keys)", "cache": "\(target.host):\(target.port)", "error": "\(error)"])
        }
    }

    struct PurgeError: Error, CustomStringConvertible { var description: String }

    /// Sends `request` and returns the status of the answer (2 s to connect, send and answer).
    static func exchange(_ request: [UInt8], with target: Target) throws -> Int {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(target.host, String(target.port), &hints, &found) == 0, let address = found else { throw PurgeError(description: "cannot resolve \(target.host)") }
        defer { freeaddrinfo(found) }
        let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard descriptor >= 0 else { throw PurgeError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else { throw PurgeError(description: "connect: \(String(cString: strerror(errno)))") }
        let sent = request.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { throw PurgeError(description: "send: \(String(cString: strerror(errno)))") }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        // "HTTP/1.1 200 ..." : the three digits after the first space.
        guard count >= 12, let space = buffer[..<count].firstIndex(of: UInt8(ascii: " ")), space + 3 < count,
              let status = Int(String(decoding: buffer[(space + 1)...(space + 3)], as: UTF8.self)) else {
            throw PurgeError(description: "no HTTP answer")
        }
        return status
    }
}
