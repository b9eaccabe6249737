#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import HTTPTypes
import Logging
import Synchronization

/// A small HTTP/1.1 server on plain sockets and epoll, with the limits a public daemon needs.
///
/// A request whose head the parser has checked goes to the `HeadResponder` first, if there is one
/// (a kept answer, found from the target and a few fields read from the bytes), and otherwise,
/// made into a `Request`, to `handler`.
///
/// Connections are spread over one epoll loop per core (`EventLoop`); each answers its requests
/// in order (pipelining included), and a loop writes the answers of a wake once it has read and
/// answered every request that wake found ready, a connection's answers in one `send` (TCP_NODELAY
/// is set, so they leave at once); a loop busy for a millisecond then hands its core to the
/// readers those answers woke (`EventLoop`). The first loop also accepts, from the listening socket it
/// watches with epoll. Limits: request line, header and body sizes (414, 431, 413), a header-read
/// timeout for a client that stalls mid-request (408), an idle timeout between requests, and a
/// maximum number of connections (503 past it). `shutdown()` stops accepting, lets requests in
/// progress finish and closes idle connections.
public final class HTTPServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        public var maxConnections = 1024
        public var maxRequestLineBytes = 8 * 1024
        public var maxHeaderBytes = 16 * 1024
        public var maxBodyBytes = 1024 * 1024
        /// How long a request's head may take to arrive, from its first byte to its blank line: a
        /// total deadline, so a client that trickles a byte at a time is cut off all the same.
        public var headerTimeout: Duration = .seconds(10)
        /// How long a request's body may take to arrive once its head is complete.
        public var bodyTimeout: Duration = .seconds(30)
        /// How long a keep-alive connection may sit idle between requests.
        public var idleTimeout: Duration = .seconds(60)
        /// Answers waiting to be written must reach the client at this many bytes per second,
        /// measured over windows of `sendGrace`; a client that stops reading is disconnected.
        public var minimumSendRate = 1024
        public var sendGrace: Duration = .seconds(10)
        /// A streaming response whose client has left this many bytes unread (beyond what the
        /// kernel holds) is ended at once: an event stream's reader that far behind reconnects
        /// and resumes, rather than have the server keep its backlog.
        public var streamBacklogLimit = 64 * 1024
        /// The kernel's send buffer of a streaming response's socket (Linux doubles it): events
        /// are small, and a stalled reader then holds this much in the kernel, not the megabytes
        /// autotuning may grow it to, and reaches the backlog and send-rate checks soon.
        public var streamSendBuffer: Int32 = 16 * 1024
        /// Upload routes, whose bodies go to files up to their own limit instead of memory.
        public var spool: BodySpool?
        /// When a busy event loop hands its core over (`EventLoop.run`).
        public var yield = YieldPolicy()

        public init() {}
    }

    /// When an event loop that has had work at every wake hands its core over (`sched_yield`), so
    /// that the readers its answers woke (a proxy, clients on the same host) run before its time
    /// slice ends. Measured in docs/PERFORMANCE.md ("The loops' yield") beside wrk and beside
    /// CPU-bound neighbours, where each yield hands them a slice.
    public struct YieldPolicy: Sendable, Equatable {
        /// How long a loop keeps its core while busy before it yields; nil: it never yields.
        public var after: Duration?
        /// A wait for events longer than this counts as having waited (the loop was not busy).
        public var idle: Duration

        public init(after: Duration? = .milliseconds(1), idle: Duration = .microseconds(100)) {
            (self.after, self.idle) = (after, idle)
        }
    }

    public typealias Handler = @Sendable (Request) -> Response

    public let configuration: Configuration
    let handler: Handler
    let headResponder: (any HeadResponder)?
    let logger: Logger
    private let state = Mutex(State())
    /// One epoll loop per core; each connection lives on one of them.
    let loops: [EventLoop]

    private let listener = Mutex<Int32>(-1)

    private struct State {
        var connections: [ObjectIdentifier: Connection] = [:]
        var boundPort = 0
        var shuttingDown = false
        var nextLoop = 0
    }

    public init(configuration: Configuration, logger: Logger = Logger(label: "themed.http"), headResponder: (any HeadResponder)? = nil,
                handler: @escaping Handler) {
        self.configuration = configuration
        (self.handler, self.headResponder) = (handler, headResponder)
        self.logger = logger
        loops = (0..<Self.loopCount).map { EventLoop(number: $0, yield: configuration.yield) }
    }

    /// How many event loops a server runs: one per core.
    public static let loopCount = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// The port actually bound (useful with port 0).
    public var port: Int { state.withLock { $0.boundPort } }

    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// When an event loop last received bytes from a client; nil before the first. What the
    /// background warming asks, to keep out of the way of requests (`ThemeContent.WarmingPace`);
    /// it costs a loop one plain store a read.
    public var lastRead: Moment? {
        let latest = loops.reduce(0) { max($0, $1.lastRead.load(ordering: .relaxed)) }
        return latest == 0 ? nil : Moment(nanoseconds: latest)
    }

    /// Binds and starts accepting.
    public func start() throws {
        let listener = try bind()
        // The first loop accepts: no thread pool between a connection and its first answer.
        let loop = loops[0]
        loop.execute { [weak self] in loop.watchListener(listener) { self?.acceptAll(listener) } }
        logger.info("listening", metadata: ["address": "\(configuration.host):\(port)"])
    }

    /// Binds the port without accepting yet (connections wait in the backlog until `start`), so
    /// that a port in use stops a start before anything else is done; a second call returns the
    /// socket bound by the first.
    @discardableResult
    public func bind() throws -> Int32 {
        let existing = self.listener.withLock { $0 }
        if existing >= 0 { return existing }
        signal(SIGPIPE, SIG_IGN)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw SocketError("socket", errno) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(configuration.port).bigEndian)
        guard inet_pton(AF_INET, configuration.host == "localhost" ? "127.0.0.1" : configuration.host, &address.sin_addr) == 1 else {
            close(listener)
            throw SocketError("address \(configuration.host) is not an IPv4 address", EINVAL)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let error = errno
            close(listener)
            throw SocketError("bind \(configuration.host):\(configuration.port)", error)
        }
        guard listen(listener, 1024) == 0 else {
            let error = errno
            close(listener)
            throw SocketError("listen", error)
        }
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        state.withLock { $0.boundPort = Int(UInt16(bigEndian: actual.sin_port)) }
        self.listener.withLock { $0 = listener }
        return listener
    }

    private func acceptAll(_ listener: Int32) {
        while true {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            guard fd >= 0 else { return } // EAGAIN: all pending connections taken
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(INET_ADDRSTRLEN))
            let remote = "\(String(cString: text)):\(UInt16(bigEndian: address.sin_port))"
            let (admitted, shuttingDown, loopNumber) = state.withLock { state in
                state.nextLoop = (state.nextLoop + 1) % loops.count
                return (state.connections.count < configuration.maxConnections, state.shuttingDown, state.nextLoop)
            }
            guard admitted, !shuttingDown else {
                let body = Array("{\"error\":{\"code\":\"unavailable\",\"message\":\"too many connections\"}}".utf8)
                let response = ResponseWriter.head(status: .serviceUnavailable, headers: [.contentType: "application/json", .connection: "close"], bodyLength: body.count) + body
                _ = response.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(fd)
                continue
            }
            let connection = Connection(fd: fd, remoteAddress: remote, server: self, loop: loops[loopNumber])
            state.withLock { $0.connections[ObjectIdentifier(connection)] = connection }
            connection.start()
        }
    }

    func connectionClosed(_ connection: Connection) {
        state.withLock { _ = $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Stops accepting; idle connections close now, busy ones after their current response.
    /// Returns when every connection has closed or `timeout` has passed.
    public func shutdown(timeout: Duration = .seconds(5)) {
        let listener = self.listener.withLock { fd -> Int32 in
            defer { fd = -1 }
            return fd
        }
        if listener >= 0 {
            let unwatched = DispatchSemaphore(value: 0)
            let loop = loops[0]
            loop.execute {
                loop.unwatchListener(listener)
                close(listener)
                unwatched.signal()
            }
            unwatched.wait()
        }
        let connections = state.withLock { state -> [Connection] in
            state.shuttingDown = true
            return Array(state.connections.values)
        }
        for connection in connections { connection.shutdown() }
        let deadline = Moment.now + timeout
        while connectionCount > 0 && Moment.now < deadline {
            usleep(10_000)
        }
        for loop in loops { loop.stop() }
        if listener >= 0 { logger.info("stopped") }
    }

    /// Closes every kept-alive connection, as its idle timeout would, once the answer it is
    /// working out or writing went out, and waits up to `timeout` until each client has closed its
    /// side too. Returns whether every one did.
    ///
    /// A client that closes after the server shut its writing side has read every answer sent to
    /// it: a cache in front (Varnish) returns a connection to its pool, and closes it there, only
    /// once its fetch is done and the object stored. So when this returns true no answer sent
    /// before the call is still on its way into such a cache, and a purge sent now removes it.
    /// Event streams are left alone, and so are connections whose client is already sending its
    /// next request (it has read the answer before).
    public func closeKeptConnections(awaitingClients timeout: Duration) -> Bool {
        let connections = state.withLock { Array($0.connections.values) }
        let closed = Countdown(connections.count)
        for connection in connections { connection.closeWhenAnswered(closed) }
        return closed.wait(timeout: timeout)
    }
}

/// A socket call that failed.
public struct SocketError: Error, CustomStringConvertible {
    public var operation: String
    public var code: Int32
    init(_ operation: String, _ code: Int32) {
        self.operation = operation
        self.code = code
    }
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
