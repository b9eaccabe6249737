import Foundation
import Logging

/// Tells the caches in front (Varnish with xkey, or anything that takes the same request) to
/// drop a theme's answers once this process serves the theme's new content: on every
/// theme-added, -reloaded and -removed event, `PURGE /` with `xkey-purge: theme:<name>` to each
/// configured cache; on active-changed, the key `current`. Keys match the `xkey` headers that
/// `SharedCacheMiddleware` puts on answers.
///
/// Purges go out on their own queue, after the event: the index that answers the cache's next
/// request already holds the new generation. A cache that does not answer is logged and skipped;
/// its copies then live out their `s-maxage`.
public struct SurrogatePurger: Sendable {
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

    let targets: [Target]
    let logger: Logger
    private let queue = DispatchQueue(label: "themed-purge")

    public init(targets: [Target], logger: Logger) {
        self.targets = targets
        self.logger = logger
    }

    /// The keys an event makes stale, or none.
    static func keys(for event: EventHub.Event) -> [String] {
        switch event.type {
        case "theme-added", "theme-reloaded", "theme-removed":
            guard case .object(let members) = event.data, let name = members.first(where: { $0.0 == "theme" }), case .string(let theme) = name.1 else { return [] }
            return ["theme:\(SharedCacheMiddleware.token(theme))"]
        case "active-changed": return ["current"]
        default: return []
        }
    }

    func attach(to events: EventHub) {
        guard !targets.isEmpty else { return }
        events.observe { [self] event in
            let keys = Self.keys(for: event)
            guard !keys.isEmpty else { return }
            queue.async { for target in targets { purge(keys, at: target) } }
        }
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
