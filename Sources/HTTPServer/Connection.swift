#if canImport(Glibc)
import Glibc
#endif
import CLinux
import HTTPTypes
import Synchronization

/// One client connection. Everything mutable is touched only on its loop's thread.
///
/// Its state is `@exclusivity(unchecked)`: the runtime's check that no two accesses to a class's
/// property overlap (a thread-local lookup at each) cost about 2% of the server's time on a kept
/// answer, and here there is nothing for it to find: one thread, and each method reads or changes
/// a property and lets go of it before it calls out (buffers go to other functions as copies or
/// locals). The one access held across a call, `ownFields` lent to the head handler, is to a
/// property nothing but this class can reach.
final class Connection: @unchecked Sendable {
    let fd: Int32
    let remoteAddress: String
    unowned let server: HTTPServer
    /// The server's handler and settings, held here: read for every request, they then cost no
    /// trip through the unowned reference to the server.
    private let handler: HTTPServer.Handler
    private let headHandler: HTTPServer.HeadHandler?
    private let configuration: HTTPServer.Configuration
    let loop: EventLoop
    @exclusivity(unchecked) private var inbox: [UInt8] = []
    /// Answers not yet written: bytes, and file regions sent with `sendfile`, in order.
    @exclusivity(unchecked) private var outbox: [Chunk] = []
    /// How much of the first chunk is written.
    @exclusivity(unchecked) private var outboxOffset = 0
    /// The buffer of answers already written, emptied and kept for the next ones.
    @exclusivity(unchecked) private var spareBuffer: [UInt8] = []
    /// Bytes in the outbox not yet written.
    @exclusivity(unchecked) private var unsent = 0

    private enum Chunk {
        case bytes([UInt8])
        case file(FileRegion)
    }
    @exclusivity(unchecked) private var waitingToWrite = false
    /// Answers wait to be written when the loop has handled this wake's events.
    @exclusivity(unchecked) private var writeQueued = false
    @exclusivity(unchecked) private var closeWhenFlushed = false
    @exclusivity(unchecked) private var closed = false
    @exclusivity(unchecked) private var streaming: StreamWriter?
    /// An upload route's request whose body is being written to its spool file.
    @exclusivity(unchecked) private var upload: Upload?

    /// An upload route's request, the file its body goes to, and how the answer is to be sent.
    private struct Upload {
        var request: Request
        var file: SpoolFile
        let keepAlive: Bool
        let version: HTTPVersion
    }
    /// A deferred response is being worked out: nothing after it is answered until it arrives.
    @exclusivity(unchecked) private var awaitingResponse = false
    @exclusivity(unchecked) private var lastActivity = Moment.now
    /// When the request now arriving sent its first byte, and when its head was complete.
    @exclusivity(unchecked) private var requestStarted: Moment?
    @exclusivity(unchecked) private var bodyStarted: Moment?
    @exclusivity(unchecked) private var sentContinue = false
    /// While answers wait to be written: when the current measuring window began, and how many
    /// bytes reached the socket in it (the minimum send rate is checked per window).
    @exclusivity(unchecked) private var sendWindowStarted: Moment?
    @exclusivity(unchecked) private var bytesWritten = 0
    /// Reading stops while a client has more unread answers or unparsed requests than this; it
    /// resumes when they have gone (back-pressure for pipelining clients that do not read).
    static let pendingLimit = 1 << 20
    @exclusivity(unchecked) private var readingPaused = false
    /// `processInbox` is running (further up this thread's stack).
    @exclusivity(unchecked) private var processing = false
    @exclusivity(unchecked) private var shuttingDown = false
    private let parser: RequestParser
    /// The fields the head handler adds to a prepared answer for the request at hand, emptied for
    /// each request and its storage reused.
    @exclusivity(unchecked) private var ownFields = FieldLines()

    init(fd: Int32, remoteAddress: String, server: HTTPServer, loop: EventLoop) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.server = server
        self.loop = loop
        (handler, headHandler) = (server.handler, server.headHandler)
        let configuration = server.configuration
        self.configuration = configuration
        parser = RequestParser(limits: .init(requestLineBytes: configuration.maxRequestLineBytes,
                                             headerBytes: configuration.maxHeaderBytes,
                                             bodyBytes: configuration.maxBodyBytes),
                               spool: configuration.spool)
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
            } else if inbox.isEmpty && unsent == 0 && !awaitingResponse {
                close() // idle; a deferred answer still coming closes the connection once sent
            }
        }
    }

    func readable() {
        let scratch = loop.scratch
        while !closed && !readingPaused {
            if inbox.count > Self.pendingLimit + configuration.maxBodyBytes {
                // An upload's bytes go on to its file: reading need not stop for them.
                if upload != nil { processInbox() }
                if inbox.count > Self.pendingLimit + configuration.maxBodyBytes {
                    pauseReading()
                    break
                }
            }
            let count = recv(fd, scratch.baseAddress, scratch.count, 0)
            if count > 0 {
                if inbox.isEmpty && requestStarted == nil { requestStarted = loop.now }
                inbox.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                lastActivity = loop.now
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

    private func pauseReading() {
        readingPaused = true
        loop.setInterest(self, read: false, write: waitingToWrite)
    }

    private func processInbox() {
        // An answer written at once (flush) would come back here for the next pipelined request:
        // the loop below takes it instead, so the stack does not grow with each one.
        guard !processing else { return }
        processing = true
        defer { processing = false }
        while !closed && !closeWhenFlushed && streaming == nil && !awaitingResponse && (!inbox.isEmpty || upload?.file.remaining == 0) {
            guard unsent < Self.pendingLimit else {
                if !readingPaused { pauseReading() }
                return
            }
            if upload != nil {
                guard receiveUpload() else { return }
                continue
            }
            switch parser.parse(inbox[...], remoteAddress: remoteAddress) {
            case .incomplete(.receivingHead):
                return
            case .incomplete(.receivingBody(let expectsContinue)):
                if bodyStarted == nil { bodyStarted = loop.now }
                // RFC 9110 10.1.1: a client that expects 100-continue waits for it before the body.
                if expectsContinue && !sentContinue {
                    sentContinue = true
                    queue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    flush()
                }
                return
            case .failure(let status, let message):
                inbox.removeAll()
                enqueue(Self.errorResponse(status, code: status.code == 400 ? "bad_request" : "limit_exceeded", message: message),
                        method: .get, keepAlive: false)
            case .spool(let request, let length, let keepAlive, let version, let consumed):
                inbox.removeFirst(consumed)
                guard let spool = configuration.spool, let file = try? SpoolFile(directory: spool.directory, length: length) else {
                    inbox.removeAll()
                    enqueue(Self.errorResponse(.internalServerError, code: "internal", message: "the upload cannot be stored"), method: .get, keepAlive: false)
                    return
                }
                upload = Upload(request: request, file: file, keepAlive: keepAlive, version: version)
                bodyStarted = loop.now
                if length > 0, request.headers[.expect]?.lowercased() == "100-continue" {
                    queue(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                    flush()
                }
            case .request(var head, let keepAlive, let version, let consumed):
                (head.received, head.loop) = (loop.now, loop.number)
                inbox.removeFirst(consumed)
                (requestStarted, bodyStarted, sentContinue) = (inbox.isEmpty ? nil : loop.now, nil, false)
                if let headHandler {
                    ownFields.removeAll()
                    if let answer = headHandler(head, &ownFields) {
                        queueAnswer(fixedPart: answer.head, body: answer.response.body, requestFields: ownFields, method: head.method,
                                    keepAlive: keepAlive && !shuttingDown, version: version)
                        continue
                    }
                }
                do {
                    let response = handler(try head.request())
                    enqueue(response, method: head.method, keepAlive: keepAlive && !shuttingDown, version: version)
                } catch {
                    // Not so: the parser checked the target as `Request` does. Answered all the same.
                    inbox.removeAll()
                    enqueue(Self.errorResponse(.badRequest, code: "bad_request", message: error.description), method: .get, keepAlive: false)
                }
            }
        }
    }

    /// Writes the inbox's share of the upload's body to its file; once the body is whole, hands
    /// the request on. Returns whether it did (false: more bytes are needed, or it failed).
    private func receiveUpload() -> Bool {
        guard var upload else { return false }
        do {
            let taken = try upload.file.write(inbox[...])
            inbox.removeFirst(taken)
        } catch {
            abandonUpload()
            inbox.removeAll()
            enqueue(Self.errorResponse(.internalServerError, code: "internal", message: "the upload cannot be stored"), method: .get, keepAlive: false)
            return false
        }
        guard upload.file.remaining == 0 else {
            self.upload = upload
            return false
        }
        self.upload = nil
        upload.request.spooledBody = upload.file.finish()
        (upload.request.received, upload.request.loop) = (loop.now, loop.number)
        (requestStarted, bodyStarted, sentContinue) = (inbox.isEmpty ? nil : loop.now, nil, false)
        let response = handler(upload.request)
        enqueue(response, method: upload.request.method, keepAlive: upload.keepAlive && !shuttingDown, version: upload.version)
        return true
    }

    /// A body that will not be finished (the client left, or was too slow): its file goes.
    private func abandonUpload() {
        upload?.file.discard()
        upload = nil
    }

    /// `{"error":{"code":...,"message":...}}` for answers the server gives before any handler.
    static func errorResponse(_ status: HTTPResponse.Status, code: String, message: String) -> Response {
        let body = Array("{\"error\":{\"code\":\"\(code)\",\"message\":\"\(message)\"}}".utf8)
        return Response(status: status, headers: [.contentType: "application/json"], body: body)
    }

    private func queue(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        appendToOutbox { $0 += bytes }
    }

    /// Lets `write` append to the outbox's last buffer (see `takeTailBuffer`).
    private func appendToOutbox(_ write: (inout [UInt8]) -> Void) {
        var buffer = takeTailBuffer()
        let before = buffer.count
        write(&buffer)
        let added = buffer.count - before
        putTailBuffer(buffer, added: added)
    }

    /// The bytes waiting at the end of the outbox, taken off it so that they grow in place
    /// (consecutive bytes go out in one send), or else the buffer of an earlier answer kept for
    /// reuse: answering does not allocate a buffer per response. `putTailBuffer` puts it back.
    private func takeTailBuffer() -> [UInt8] {
        if let last = outbox.indices.last, case .bytes = outbox[last], case .bytes(let bytes) = outbox.removeLast() { return bytes }
        var buffer: [UInt8] = []
        swap(&buffer, &spareBuffer)
        return buffer
    }

    /// Puts the buffer `takeTailBuffer` gave back at the end of the outbox, `added` bytes longer.
    private func putTailBuffer(_ buffer: consuming [UInt8], added: Int) {
        if added > 0 && unsent == 0 { (sendWindowStarted, bytesWritten) = (loop.now, 0) }
        unsent += added
        if !buffer.isEmpty { outbox.append(.bytes(buffer)) }
    }

    private func queue(_ region: FileRegion) {
        guard region.count > 0 else { return }
        if unsent == 0 { (sendWindowStarted, bytesWritten) = (loop.now, 0) }
        unsent += region.count
        outbox.append(.file(region))
    }

    /// Queues `response`: at once when its body's length is known, when it arrives for a deferred
    /// one, or its head and then what its writer sends for a stream.
    private func enqueue(_ response: Response, method: HTTPRequest.Method, keepAlive: Bool, version: HTTPVersion = .http11) {
        switch response.body {
        case .bytes, .file:
            queueAnswer(fixedPart: ResponseWriter.fixedPart(of: response, bodyLength: response.bodyLength), body: response.body,
                        requestFields: response.requestFields, method: method, keepAlive: keepAlive, version: version)
        case .deferred(let start):
            awaitingResponse = true
            start { [self] response in
                loop.execute { [self] in
                    guard !closed else { return }
                    awaitingResponse = false
                    enqueue(response, method: method, keepAlive: keepAlive, version: version)
                    processInbox()
                }
            }
        case .stream(let start):
            var response = response
            response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-cache"
            appendToOutbox { buffer in
                ResponseWriter.appendHead(fixedPart: ResponseWriter.fixedPart(of: response, bodyLength: nil), requestFields: response.requestFields,
                                          connection: "close", date: loop.dateLine, to: &buffer)
            }
            var sendBuffer = configuration.streamSendBuffer
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
            let writer = StreamWriter(connection: self)
            streaming = writer
            flush()
            if method == .head { writer.finish(); return }
            start(writer)
        }
    }

    /// Queues an answer whose body's length is known (bytes or a file region): its head's fixed
    /// part with the request's own fields, and its body unless the request was a HEAD. Borrowed,
    /// not copied: a kept answer's parts are read where they are.
    private func queueAnswer(fixedPart: borrowing [UInt8], body: Response.Body, requestFields: borrowing FieldLines,
                             method: HTTPRequest.Method, keepAlive: Bool, version: HTTPVersion) {
        // HTTP/1.1 keeps a connection open unless told otherwise; HTTP/1.0 only when the answer
        // says so (RFC 9112 9.3).
        let connectionField: String? = !keepAlive ? "close" : version == .http11 ? nil : "keep-alive"
        var buffer = takeTailBuffer()
        let before = buffer.count
        ResponseWriter.appendHead(fixedPart: fixedPart, requestFields: requestFields, connection: connectionField, date: loop.dateLine, to: &buffer)
        if method != .head, case .bytes(let bytes) = body { buffer += bytes }
        let added = buffer.count - before
        putTailBuffer(buffer, added: added)
        if method != .head, case .file(let region) = body { queue(region) }
        if !keepAlive { closeWhenFlushed = true }
        writeAfterThisWake()
    }

    /// Queues bytes of a streaming response (from any thread); a client past the backlog limit is let go.
    func streamWrite(_ bytes: [UInt8]) {
        loop.execute { [self] in
            guard !closed else { return }
            guard unsent + bytes.count <= configuration.streamBacklogLimit else {
                close()
                return
            }
            queue(bytes)
            flush()
        }
    }

    func streamFinish() {
        loop.execute { [self] in
            closeWhenFlushed = true
            flush()
        }
    }

    /// Has the answers just queued written once the loop has read and answered every request that
    /// this wake found ready (`EventLoop.queueWrite`), not one at a time in between.
    ///
    /// Why: a `send` wakes the client that waits for the answer, and on a machine busy with
    /// clients the kernel may let that client run at once, in place of the loop, before the loop
    /// reaches the other requests it has already read: those then wait a time slice for nothing
    /// (under wrk -c64 on two cores, the slowest 1% of answers waited 5-7 ms, with this 2-4 ms).
    /// A pipelining client's answers also leave in one `send`.
    private func writeAfterThisWake() {
        guard !writeQueued else { return }
        writeQueued = true
        loop.queueWrite(self)
    }

    /// The loop's call at the end of the wake.
    func writeQueuedAnswers() {
        writeQueued = false
        flush()
    }

    /// Writes what is queued: bytes with `send` (one per response when the socket has room),
    /// file regions with `sendfile`, the bytes before a file flagged MSG_MORE so that a head and
    /// a small file leave in one packet.
    private func flush() {
        while !outbox.isEmpty, !closed {
            guard let (sent, size) = writeFirstChunk() else {
                close() // a file shorter than its region: the promised length cannot be kept
                return
            }
            if sent > 0 {
                outboxOffset += sent
                unsent -= sent
                bytesWritten += sent
                if outboxOffset == size { finishFirstChunk() }
                continue
            }
            if sent < 0 && errno == EINTR { continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if !waitingToWrite {
                    waitingToWrite = true
                    loop.setInterest(self, read: !readingPaused, write: true)
                }
                return
            }
            close()
            return
        }
        guard !closed else { return }
        if waitingToWrite || readingPaused {
            (waitingToWrite, readingPaused) = (false, false)
            loop.setInterest(self, read: true, write: false)
        }
        sendWindowStarted = nil
        lastActivity = loop.now
        if closeWhenFlushed || (shuttingDown && streaming == nil && inbox.isEmpty) {
            close()
        } else if !inbox.isEmpty {
            processInbox()
        }
    }

    /// Writes what the socket takes of the first chunk's unwritten part: the bytes written (or -1,
    /// errno set) and the chunk's size; nil when its file ended early. The chunk is not held once
    /// this returns, so the buffer that `finishFirstChunk` keeps is the only reference to it and is
    /// reused in place.
    private func writeFirstChunk() -> (sent: Int, size: Int)? {
        switch outbox[0] {
        case .bytes(let bytes):
            let flags = Int32(MSG_NOSIGNAL) | (outbox.count > 1 ? Int32(MSG_MORE) : 0)
            let sent = bytes.withUnsafeBytes { buffer in send(fd, buffer.baseAddress.map { $0 + outboxOffset }, bytes.count - outboxOffset, flags) }
            return (sent, bytes.count)
        case .file(let region):
            var position = off_t(region.offset + outboxOffset)
            let sent = sendfile(fd, region.descriptor, &position, region.count - outboxOffset)
            return sent == 0 ? nil : (sent, region.count)
        }
    }

    /// Drops the written first chunk; a buffer of bytes of ordinary size is kept for reuse.
    private func finishFirstChunk() {
        outboxOffset = 0
        if case .bytes(var written) = outbox.removeFirst(), written.capacity <= Self.spareBufferLimit {
            written.removeAll(keepingCapacity: true)
            spareBuffer = written
        }
    }

    static let spareBufferLimit = 64 << 10

    /// The deadlines, checked on every tick of the loop: a response being written must keep the
    /// minimum rate; a request's head and body must arrive within their timeouts (totals, not per
    /// read); an idle keep-alive connection is closed.
    func checkTimeouts(now: Moment) {
        guard !closed else { return }
        if unsent > 0 {
            if let started = sendWindowStarted, now - started > configuration.sendGrace {
                let seconds = Double((now - started).components.seconds) + Double((now - started).components.attoseconds) / 1e18
                guard Double(bytesWritten) / seconds >= Double(configuration.minimumSendRate) else {
                    close()
                    return
                }
                (sendWindowStarted, bytesWritten) = (now, 0)
            }
            return
        }
        guard streaming == nil, !awaitingResponse, !closeWhenFlushed else { return }
        let late: String? = if let started = bodyStarted {
            now - started > configuration.bodyTimeout ? "request body not received in time" : nil
        } else if let started = requestStarted {
            now - started > configuration.headerTimeout ? "request head not received in time" : nil
        } else {
            nil
        }
        if let late {
            abandonUpload()
            inbox.removeAll()
            enqueue(Self.errorResponse(.requestTimeout, code: "timeout", message: late), method: .get, keepAlive: false)
        } else if inbox.isEmpty && requestStarted == nil && now - lastActivity > configuration.idleTimeout {
            close()
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        abandonUpload()
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
