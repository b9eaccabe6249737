#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import HTTPTypes
import Synchronization

/// One client connection. Everything mutable is touched only on `queue`.
final class Connection: @unchecked Sendable {
    let fd: Int32
    let remoteAddress: String
    unowned let server: HTTPServer
    let loop: EventLoop
    var queue: DispatchQueue { loop.queue }
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var timer: DispatchSourceTimer?
    private var inbox: [UInt8] = []
    private var outbox: [UInt8] = []
    private var outboxOffset = 0
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
        queue.async { [self] in
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [weak self] in self?.readAvailable() }
            readSource = source
            source.resume()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .milliseconds(100), repeating: .milliseconds(100))
            timer.setEventHandler { [weak self] in self?.checkTimeouts() }
            self.timer = timer
            timer.resume()
        }
    }

    func shutdown() {
        queue.async { [self] in
            shuttingDown = true
            if let streaming {
                streaming.finish()
            } else if inbox.isEmpty && outboxOffset >= outbox.count {
                close()
            }
        }
    }

    private func readAvailable() {
        let scratch = loop.scratch
        while !closed {
            let count = recv(fd, scratch.baseAddress, scratch.count, 0)
            if count > 0 {
                inbox.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                lastActivity = .now
                continue
            }
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                close()
                return
            }
            if errno == EINTR { continue }
            break
        }
        processInbox()
    }

    private func processInbox() {
        while !closed && !closeWhenFlushed && streaming == nil && !inbox.isEmpty {
            switch parser.parse(inbox[...], remoteAddress: remoteAddress) {
            case .incomplete:
                return
            case .failure(let status, let message):
                let body = Array("{\"error\":{\"code\":\"\(status.code == 400 ? "bad_request" : "limit_exceeded")\",\"message\":\"\(message)\"}}".utf8)
                enqueue(Response(status: status, headers: [.contentType: "application/json"], body: body), method: .get, keepAlive: false)
                inbox.removeAll()
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
            if !keepAlive { headers[.connection] = "close" }
            outbox += ResponseWriter.head(status: response.status, headers: headers, bodyLength: body.count)
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
        queue.async { [self] in
            guard !closed else { return }
            outbox += bytes
            flush()
        }
    }

    func streamFinish() {
        queue.async { [self] in
            closeWhenFlushed = true
            flush()
        }
    }

    private func flush() {
        while outboxOffset < outbox.count {
            let sent = outbox.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress.map { $0 + outboxOffset }, buffer.count - outboxOffset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                outboxOffset += sent
                continue
            }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                waitForWritable()
                return
            }
            if sent < 0 && errno == EINTR { continue }
            close()
            return
        }
        outbox.removeAll(keepingCapacity: true)
        outboxOffset = 0
        lastActivity = .now
        if closeWhenFlushed || (shuttingDown && streaming == nil && inbox.isEmpty) {
            close()
        } else if !inbox.isEmpty {
            processInbox()
        }
    }

    private func waitForWritable() {
        guard writeSource == nil else { return }
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in
            guard let self else { return }
            self.writeSource?.cancel()
            self.writeSource = nil
            self.flush()
        }
        writeSource = source
        source.resume()
    }

    private func checkTimeouts() {
        guard !closed, streaming == nil, outboxOffset >= outbox.count else { return }
        let idle = ContinuousClock.now - lastActivity
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
        readSource?.cancel()
        writeSource?.cancel()
        timer?.cancel()
        readSource = nil
        writeSource = nil
        timer = nil
        Glibc.close(fd)
        streaming?.closed()
        streaming = nil
        server.connectionClosed(self)
    }
}

/// The writer a streaming response gets; hops onto the connection's queue.
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
