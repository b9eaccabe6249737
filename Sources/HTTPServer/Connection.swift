#if canImport(Glibc)
import Glibc
#endif
import CLinux
import HTTPTypes

/// One client connection: glues its socket to its life (`ConnectionLife`: what it reads, when it
/// may answer, when it closes, every deadline), its outbox (`Outbox`) and the parser. Everything
/// mutable is touched only on its loop's thread (checked in debug builds: `EventLoop.assertOnLoop`).
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
    /// The server's handlers and settings, held here: read for every request, they then cost no
    /// trip through the unowned reference to the server.
    private let handler: HTTPServer.Handler
    private let headResponder: (any HeadResponder)?
    private let configuration: HTTPServer.Configuration
    let loop: EventLoop
    private let parser: RequestParser
    @exclusivity(unchecked) private var life: ConnectionLife
    @exclusivity(unchecked) private var inbox: [UInt8] = []
    @exclusivity(unchecked) private var outbox = Outbox()
    /// An upload route's request whose body is being written to its spool file.
    @exclusivity(unchecked) private var upload: SpoolingUpload?
    @exclusivity(unchecked) private var streaming: StreamWriter?
    /// The fields the head responder adds to a kept answer for the request at hand, emptied for
    /// each request and its storage reused.
    @exclusivity(unchecked) private var ownFields = FieldLines()
    // What the loop watches the socket for, and whether a write is queued for the end of the wake.
    @exclusivity(unchecked) private var readingPaused = false
    @exclusivity(unchecked) private var waitingToWrite = false
    @exclusivity(unchecked) private var writeQueued = false
    /// `processInbox` is running (further up this thread's stack).
    @exclusivity(unchecked) private var processing = false
    /// Told when the connection closes, after `closeWhenAnswered`.
    @exclusivity(unchecked) private var closeAwaited: [Countdown] = []

    /// Reading stops while a client has more unread answers or unparsed requests than this; it
    /// resumes when they have gone (back-pressure for pipelining clients that do not read).
    static let pendingLimit = 1 << 20

    init(fd: Int32, remoteAddress: String, server: HTTPServer, loop: EventLoop) {
        (self.fd, self.remoteAddress, self.server, self.loop) = (fd, remoteAddress, server, loop)
        (handler, headResponder) = (server.handler, server.headResponder)
        let configuration = server.configuration
        self.configuration = configuration
        life = ConnectionLife(deadlines: .init(configuration), now: .now)
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
            switch life.shutdown(idle: inbox.isEmpty && outbox.isEmpty) {
            case .close: close()
            case .finishStream: streaming?.finish()
            case .finishCurrent: break
            }
        }
    }

    /// Shuts the writing side once the answer under way went out, and counts `closed` down when
    /// the client has closed too (at once when there is nothing to wait for): a client reads to
    /// the end before it sees the end; what it still sends is dropped until it closes.
    func closeWhenAnswered(_ closed: Countdown) {
        loop.execute { [self] in
            let next = life.closeWhenAnswered(unsent: outbox.unsent, at: loop.now)
            guard next != .nothingToAwait else { return closed.countDown() }
            closeAwaited.append(closed)
            if next == .lingerNow { Glibc.shutdown(fd, Int32(SHUT_WR)) }
        }
    }

    // MARK: Reading

    func readable() {
        loop.assertOnLoop()
        let scratch = loop.scratch
        while !life.isClosed && !readingPaused {
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
                inbox.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                life.received(at: loop.now)
                loop.lastRead.store(loop.now.nanoseconds, ordering: .relaxed)
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

    private func pauseReading() {
        readingPaused = true
        loop.setInterest(self, read: false, write: waitingToWrite)
    }

    /// Reads and answers the requests in the inbox, in order, while the connection may answer.
    private func processInbox() {
        // An answer written at once (flush) would come back here for the next pipelined request:
        // the loop below takes it instead, so the stack does not grow with each one.
        guard !processing else { return }
        processing = true
        defer { processing = false }
        while life.answersNext && (!inbox.isEmpty || upload?.file.remaining == 0) {
            guard outbox.unsent < Self.pendingLimit else {
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
                if life.awaitingBody(expectsContinue: expectsContinue, at: loop.now) { sendContinue() }
                return
            case .failure(let status, let message):
                refuse(.serverError(status, code: status.code == 400 ? "bad_request" : "limit_exceeded", message: message))
            case .spool(let request, let length, let keepAlive, let version, let consumed):
                inbox.removeFirst(consumed)
                guard let spool = configuration.spool, let file = try? SpoolFile(directory: spool.directory, length: length) else {
                    refuse(.serverError(.internalServerError, code: "internal", message: "the upload cannot be stored"))
                    return
                }
                upload = SpoolingUpload(request: request, file: file, keepAlive: keepAlive, version: version)
                let expectsContinue = length > 0 && request.headers[.expect]?.lowercased() == "100-continue"
                if life.awaitingBody(expectsContinue: expectsContinue, at: loop.now) { sendContinue() }
            case .request(var head, let keepAlive, let version, let consumed):
                (head.received, head.loop) = (loop.now, loop.number)
                inbox.removeFirst(consumed)
                life.requestComplete(at: loop.now, moreBuffered: !inbox.isEmpty)
                let keepAlive = life.keepsAlive(keepAlive)
                if let headResponder {
                    ownFields.removeAll()
                    if let answer = headResponder.answer(head, requestFields: &ownFields) {
                        queueAnswer(fixedPart: answer.head, body: answer.response.body, requestFields: ownFields, method: head.method,
                                    keepAlive: keepAlive, version: version)
                        continue
                    }
                }
                do {
                    enqueue(handler(try head.request()), method: head.method, keepAlive: keepAlive, version: version)
                } catch {
                    // Not so: the parser checked the target as `Request` does. Answered all the same.
                    refuse(.serverError(.badRequest, code: "bad_request", message: error.description))
                }
            }
        }
    }

    /// Answers a request that will not be read whole with `response`, the connection's last.
    private func refuse(_ response: Response) {
        abandonUpload()
        inbox.removeAll()
        life.requestRefused()
        enqueue(response, method: .get, keepAlive: false)
    }

    private func sendContinue() {
        queue(Self.continueLine)
        flush()
    }

    private static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Writes the inbox's share of the upload's body to its file; once the body is whole, hands
    /// the request on. Returns whether it did (false: more bytes are needed, or it failed).
    private func receiveUpload() -> Bool {
        guard var upload else { return false }
        let whole: Request?
        do {
            whole = try upload.receive(from: &inbox)
        } catch {
            refuse(.serverError(.internalServerError, code: "internal", message: "the upload cannot be stored"))
            return false
        }
        guard var request = whole else {
            self.upload = upload
            return false
        }
        self.upload = nil
        (request.received, request.loop) = (loop.now, loop.number)
        life.requestComplete(at: loop.now, moreBuffered: !inbox.isEmpty)
        enqueue(handler(request), method: request.method, keepAlive: life.keepsAlive(upload.keepAlive), version: upload.version)
        return true
    }

    /// A body that will not be finished (the client left, or was too slow): its file goes.
    private func abandonUpload() {
        upload?.file.discard()
        upload = nil
    }

    // MARK: Answering

    private func queue(_ bytes: [UInt8]) {
        let wasEmpty = outbox.unsent == 0
        outbox.append(bytes)
        noteQueued(wasEmpty: wasEmpty)
    }

    /// The outbox was empty before what was just queued: the send-rate window starts.
    private func noteQueued(wasEmpty: Bool) {
        if wasEmpty && outbox.unsent > 0 { life.sendingStarted(at: loop.now) }
    }

    /// Queues `response`: at once when its body's length is known, when it arrives for a deferred
    /// one, or its head and then what its writer sends for a stream.
    private func enqueue(_ response: Response, method: HTTPRequest.Method, keepAlive: Bool, version: HTTPVersion = .http11) {
        switch response.body {
        case .bytes, .file:
            queueAnswer(fixedPart: ResponseWriter.fixedPart(of: response, bodyLength: response.bodyLength), body: response.body,
                        requestFields: response.requestFields, method: method, keepAlive: keepAlive, version: version)
        case .deferred(let start):
            life.answerDeferred(for: method)
            start { [self] response in
                loop.execute { [self] in
                    guard life.deferredAnswerArrived() else { return }
                    enqueue(response, method: method, keepAlive: keepAlive, version: version)
                    processInbox()
                }
            }
        case .stream(let start):
            var response = response
            response.headers[.cacheControl] = response.headers[.cacheControl] ?? "no-cache"
            let wasEmpty = outbox.unsent == 0
            var buffer = outbox.takeTail()
            ResponseWriter.appendHead(fixedPart: ResponseWriter.fixedPart(of: response, bodyLength: nil), requestFields: response.requestFields,
                                      connection: "close", date: loop.dateLine, to: &buffer)
            outbox.putTail(buffer)
            noteQueued(wasEmpty: wasEmpty)
            var sendBuffer = configuration.streamSendBuffer
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
            let writer = StreamWriter(connection: self)
            streaming = writer
            life.streamStarted()
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
        let wasEmpty = outbox.unsent == 0
        var buffer = outbox.takeTail()
        ResponseWriter.appendHead(fixedPart: fixedPart, requestFields: requestFields, connection: connectionField, date: loop.dateLine, to: &buffer)
        if method != .head, case .bytes(let bytes) = body { buffer += bytes }
        outbox.putTail(buffer)
        if method != .head, case .file(let region) = body { outbox.append(region) }
        noteQueued(wasEmpty: wasEmpty)
        life.answered(keepAlive: keepAlive)
        writeAfterThisWake()
    }

    /// Queues bytes of a streaming response (from any thread); a client past the backlog limit is let go.
    func streamWrite(_ bytes: [UInt8]) {
        loop.execute { [self] in
            guard !life.isClosed else { return }
            guard outbox.unsent + bytes.count <= configuration.streamBacklogLimit else {
                close()
                return
            }
            queue(bytes)
            flush()
        }
    }

    func streamFinish() {
        loop.execute { [self] in
            life.streamFinished()
            flush()
        }
    }

    // MARK: Writing

    func writable() { flush() }

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
        loop.assertOnLoop()
        while !outbox.isEmpty, !life.isClosed {
            guard let sent = outbox.writeFirstChunk(to: fd) else {
                close() // a file shorter than its region: the promised length cannot be kept
                return
            }
            if sent > 0 {
                outbox.wrote(sent)
                life.sent(sent)
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
        guard !life.isClosed else { return }
        if waitingToWrite || readingPaused {
            (waitingToWrite, readingPaused) = (false, false)
            loop.setInterest(self, read: true, write: false)
        }
        switch life.flushed(at: loop.now, inboxEmpty: inbox.isEmpty) {
        case .close: close()
        case .linger: Glibc.shutdown(fd, Int32(SHUT_WR))
        case .answerBuffered: processInbox()
        case .wait: break
        }
    }

    // MARK: Deadlines and closing

    /// The loop's tick: the deadlines of `ConnectionLife.tick`.
    func checkTimeouts(now: Moment) {
        switch life.tick(at: now, unsent: outbox.unsent) {
        case .none: break
        case .close: close()
        case .timeOut(let reason):
            refuse(.serverError(.requestTimeout, code: "timeout", message: reason))
        }
    }

    func close() {
        loop.assertOnLoop()
        guard life.close() else { return }
        abandonUpload()
        loop.unregister(self)
        Glibc.close(fd)
        streaming?.closed()
        streaming = nil
        for closed in closeAwaited { closed.countDown() }
        closeAwaited = []
        server.connectionClosed(self)
    }
}
