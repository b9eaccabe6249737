#if canImport(Glibc)
import Glibc
#endif
import HTTPTypes
import Synchronization

/// One client connection. Everything mutable is touched only on its loop's thread.
final class Connection: @unchecked Sendable {
    let fd: Int32
    let remoteAddress: String
    unowned let server: HTTPServer
    let loop: EventLoop
    private var inbox: [UInt8] = []
    private var outbox: [UInt8] = []
    private var outboxOffset = 0
    private var waitingToWrite = false
    private var closeWhenFlushed = false
    private var closed = false
    private var streaming: StreamWriter?
    private var lastActivity = ContinuousClock.now
    private var shuttingDown = false
    private let parser: RequestParser

    init(fd: Int32, remoteAddress: String, server: HTTPServer, loop: EventLoop) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.server = server
        self.loop = loop
        let configuration = server.configuration
        parser = RequestParser(limits: .init(requestLineBytes: configuration.maxRequestLineBytes,
                                             headerBytes: configuration.maxHeaderBytes,
                                             bodyBytes: configuration.maxBodyBytes))
    }

    func start() {
        loop.execute { [self] in
            loop.register(self)
            readable()
        }
    }

    func shutdown() {
        loop.execute { [self] in
            shuttingDown = true
            if let streaming {
                streaming.finish()
            } else if inbox.isEmpty && outboxOffset >= outbox.count {
                close()
            }
        }
    }

    func readable() {
        let scratch = loop.scratch
        while !closed {
            let count = recv(fd, scratch.baseAddress, scratch.count, 0)
            if count > 0 {
                inbox.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                lastActivity = .now
                if count < scratch.count { break }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            close() // 0: the client closed; other errors: the connection is gone
            return
        }
        processInbox()
    }

    func writable() { flush() }

    private func processInbox() {
        while !closed && !closeWhenFlushed && streaming == nil && !inbox.isEmpty {
            switch parser.parse(inbox[...], remoteAddress: remoteAddress) {
            case .incomplete:
                return
            case .failure(let status, let message):
                let body = Array("{\"error\":{\"code\":\"\(status.code == 400 ? "bad_request" : "limit_exceeded")\",\"message\":\"\(message)\"}}".utf8)
                inbox.removeAll()
                enqueue(Response(status: status, headers: [.contentType: "application/json"], body: body), method: .get, keepAlive: false)
            case .request(let request, let keepAlive, let consumed):
                inbox.removeFirst(consumed)
                let response = server.handler(request)
                enqueue(response, method: request.method, keepAlive: keepAlive && !shuttingDown)
            }
        }
    }

    private func enqueue(_ response: Response, method: HTTPRequest.Method, keepAlive: Bool) {
        var headers = response.headers
        switch response.body {
        case .bytes(let body):
            if keepAlive {
                outbox += ResponseWriter.head(status: response.status, headers: headers, encoded: response.encodedHeaders, bodyLength: body.count)
            } else {
                headers[.connection] = "close"
                outbox += ResponseWriter.head(status: response.status, headers: headers, bodyLength: body.count)
            }
            if method != .head { outbox += body }
            if !keepAlive { closeWhenFlushed = true }
            flush()
        case .stream(let start):
            headers[.connection] = "close"
            headers[.cacheControl] = headers[.cacheControl] ?? "no-cache"
            outbox += ResponseWriter.head(status: response.status, headers: headers, bodyLength: nil)
            let writer = StreamWriter(connection: self)
            streaming = writer
            flush()
            if method == .head { writer.finish(); return }
            start(writer)
        }
    }

    /// Queues bytes of a streaming response (from any thread).
    func streamWrite(_ bytes: [UInt8]) {
        loop.execute { [self] in
            guard !closed else { return }
            outbox += bytes
            flush()
        }
    }

    func streamFinish() {
        loop.execute { [self] in
            closeWhenFlushed = true
            flush()
        }
    }

    /// Writes what is queued; one `send` per response when the socket has room.
    private func flush() {
        while outboxOffset < outbox.count && !closed {
            let sent = outbox.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress.map { $0 + outboxOffset }, buffer.count - outboxOffset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                outboxOffset += sent
                continue
            }
            if sent < 0 && errno == EINTR { continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if !waitingToWrite {
                    waitingToWrite = true
                    loop.setWriteInterest(self, true)
                }
                return
            }
            close()
            return
        }
        guard !closed else { return }
        if waitingToWrite {
            waitingToWrite = false
            loop.setWriteInterest(self, false)
        }
        outbox.removeAll(keepingCapacity: outbox.count < 1 << 20)
        outboxOffset = 0
        lastActivity = .now
        if closeWhenFlushed || (shuttingDown && streaming == nil && inbox.isEmpty) {
            close()
        } else if !inbox.isEmpty {
            processInbox()
        }
    }

    func checkTimeouts(now: ContinuousClock.Instant) {
        guard !closed, streaming == nil, outboxOffset >= outbox.count else { return }
        let idle = now - lastActivity
        if !inbox.isEmpty && idle > server.configuration.headerTimeout {
            let body = Array("{\"error\":{\"code\":\"timeout\",\"message\":\"request not received in time\"}}".utf8)
            inbox.removeAll()
            enqueue(Response(status: .requestTimeout, headers: [.contentType: "application/json"], body: body), method: .get, keepAlive: false)
        } else if inbox.isEmpty && idle > server.configuration.idleTimeout {
            close()
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        loop.unregister(self)
        Glibc.close(fd)
        streaming?.closed()
        streaming = nil
        server.connectionClosed(self)
    }
}

/// The writer a streaming response gets; hands bytes to the connection's loop.
final class StreamWriter: ResponseStream, @unchecked Sendable {
    private weak var connection: Connection?
    private let state = Mutex<(open: Bool, handlers: [@Sendable () -> Void])>((true, []))

    init(connection: Connection) { self.connection = connection }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        guard state.withLock({ $0.open }), let connection else { return false }
        connection.streamWrite(bytes)
        return true
    }

    func close() { finish() }

    func finish() {
        guard state.withLock({ $0.open }) else { return }
        connection?.streamFinish()
    }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let run = state.withLock { state -> Bool in
            if state.open { state.handlers.append(handler) }
            return !state.open
        }
        if run { handler() }
    }

    /// The connection has gone.
    func closed() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.open = false
            defer { state.handlers.removeAll() }
            return state.handlers
        }
        for handler in handlers { handler() }
    }
}
