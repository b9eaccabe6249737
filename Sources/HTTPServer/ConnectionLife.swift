import HTTPTypes

/// The life of one connection without its socket: what it is reading, whether it may answer the
/// next request, when it closes, and every deadline. A value that takes events (bytes arrived, a
/// request complete, an answer queued, the outbox flushed, a tick of the clock) with the `Moment`
/// they happened at, and returns what the connection must do; `Connection` glues a socket to it.
///
/// Why a value apart from the socket: each rule here (a head's total deadline, 100-continue sent
/// once, a deferred answer holding back the next pipelined one, shutdown waiting for it) is then
/// tested with moments made up by the test (`ConnectionLifeTests`), with no socket and no sleep.
struct ConnectionLife {
    /// The connection's deadlines (from `HTTPServer.Configuration`).
    struct Deadlines {
        var header: Duration
        var body: Duration
        var idle: Duration
        /// Bytes per second that answers waiting to be written must reach the client at, measured
        /// over windows of `sendGrace`.
        var minimumSendRate: Int
        var sendGrace: Duration

        init(_ configuration: HTTPServer.Configuration) {
            (header, body, idle) = (configuration.headerTimeout, configuration.bodyTimeout, configuration.idleTimeout)
            (minimumSendRate, sendGrace) = (configuration.minimumSendRate, configuration.sendGrace)
        }
    }

    /// What the connection is reading.
    enum Reading: Equatable {
        /// Nothing of a next request yet.
        case betweenRequests
        /// A request's head, whose first byte came at `since`.
        case head(since: Moment)
        /// A request's body (in memory or to an upload's file), its head complete at `since`.
        case body(since: Moment, continueSent: Bool)
    }

    /// Whether the next request may be answered.
    enum Answering: Equatable {
        /// In turn: each request's answer is queued as it is read.
        case inTurn
        /// A deferred answer is being worked out: nothing after it is answered until it arrives.
        case awaitingDeferred
        /// A streaming answer holds the connection until it ends (then the connection closes).
        case streaming
    }

    private(set) var reading = Reading.betweenRequests
    private(set) var answering = Answering.inTurn
    /// An answer said `Connection: close` (or a stream ended): the connection closes once the
    /// outbox is written, and reads no further request.
    private(set) var closesWhenFlushed = false
    /// An answer was queued on this connection: until then no client can have one unread.
    private(set) var hasAnswered = false
    private(set) var shuttingDown = false
    /// Asked to close once its answer is out (`closeWhenAnswered`): it reads no further request.
    private(set) var closesAfterAnswer = false
    /// When its writing side was shut, if it was: it waits for the client to close (`tick` closes
    /// it after `lingerLimit`).
    private(set) var lingeringSince: Moment?
    /// The deferred answer under way is to a GET or HEAD: the only answers caches keep.
    private(set) var deferredAnswerCacheable = false
    private(set) var isClosed = false
    private(set) var lastActivity: Moment
    /// While answers wait to be written: when the current measuring window began, and how many
    /// bytes reached the socket in it.
    private(set) var sendWindow: (started: Moment, written: Int)?
    let deadlines: Deadlines

    init(deadlines: Deadlines, now: Moment) {
        self.deadlines = deadlines
        lastActivity = now
    }

    /// Whether the next request in the inbox may be read and answered now.
    var answersNext: Bool { !isClosed && !closesWhenFlushed && !closesAfterAnswer && answering == .inTurn }

    /// Whether a request that asked to keep the connection open may: not once shutdown began.
    func keepsAlive(_ requested: Bool) -> Bool { requested && !shuttingDown }

    // MARK: Reading

    /// Bytes came from the client.
    mutating func received(at now: Moment) {
        if reading == .betweenRequests { reading = .head(since: now) }
        lastActivity = now
    }

    /// A request's head is complete and its body is still coming; returns whether to send
    /// `100 Continue` now (RFC 9110 10.1.1: a client that expects it waits before the body; sent
    /// once).
    mutating func awaitingBody(expectsContinue: Bool, at now: Moment) -> Bool {
        switch reading {
        case .body(let since, let continueSent):
            guard expectsContinue && !continueSent else { return false }
            reading = .body(since: since, continueSent: true)
            return true
        case .head, .betweenRequests:
            reading = .body(since: now, continueSent: expectsContinue)
            return expectsContinue
        }
    }

    /// A request is whole (an upload's body included). Bytes already read beyond it are the next
    /// request's head, whose deadline starts now.
    mutating func requestComplete(at now: Moment, moreBuffered: Bool) {
        reading = moreBuffered ? .head(since: now) : .betweenRequests
    }

    /// The request was refused before it was whole (a malformed head, a limit, a body that could
    /// not be stored): its answer is the connection's last.
    mutating func requestRefused() {
        reading = .betweenRequests
        closesWhenFlushed = true
    }

    // MARK: Answering

    /// An answer whose length is known was queued.
    mutating func answered(keepAlive: Bool) {
        hasAnswered = true
        if !keepAlive { closesWhenFlushed = true }
    }

    /// A deferred answer is being worked out for a request with `method`.
    mutating func answerDeferred(for method: HTTPRequest.Method) {
        answering = .awaitingDeferred
        deferredAnswerCacheable = method == .get || method == .head
    }

    /// A deferred answer arrived: returns whether it is still wanted (the connection is open).
    mutating func deferredAnswerArrived() -> Bool {
        guard !isClosed else { return false }
        answering = .inTurn
        return true
    }

    mutating func streamStarted() { answering = .streaming }

    /// The stream's writer finished: what it queued goes out, then the connection closes.
    mutating func streamFinished() { closesWhenFlushed = true }

    // MARK: Writing

    /// The outbox, empty until now, holds bytes to write: the send-rate window starts.
    mutating func sendingStarted(at now: Moment) { sendWindow = (now, 0) }

    /// `count` bytes reached the socket.
    mutating func sent(_ count: Int) { sendWindow?.written += count }

    /// What to do once the outbox is written.
    enum AfterFlush: Equatable {
        case close
        /// Shut the writing side and wait for the client to close (`closeWhenAnswered`).
        case linger
        /// Read the requests already in the inbox.
        case answerBuffered
        case wait
    }

    /// The outbox is empty: everything queued reached the socket.
    mutating func flushed(at now: Moment, inboxEmpty: Bool) -> AfterFlush {
        sendWindow = nil
        lastActivity = now
        if closesAfterAnswer, lingeringSince == nil, answering != .awaitingDeferred {
            lingeringSince = now
            return .linger
        }
        if closesWhenFlushed || (shuttingDown && answering == .inTurn && inboxEmpty) { return .close }
        return inboxEmpty ? .wait : .answerBuffered
    }

    // MARK: Ending

    enum OnCloseWhenAnswered: Equatable {
        /// Nothing sent is unread as far as this connection can tell: a stream (never kept by a
        /// cache), a client already sending its next request, a connection closing or closed.
        case nothingToAwait
        /// Shut the writing side now and wait for the client to close.
        case lingerNow
        /// The answer being worked out or written goes out first (`flushed` says `.linger`).
        case afterAnswer
        /// Already lingering, or about to: wait for the same close.
        case alreadyClosing
    }

    /// The server wants to know that the client has read every answer sent so far
    /// (`HTTPServer.closeKeptConnections`): a client that closes its side after the server shut
    /// its own has read to the end. `unsent`: bytes still in the outbox.
    mutating func closeWhenAnswered(unsent: Int, at now: Moment) -> OnCloseWhenAnswered {
        guard !isClosed, answering != .streaming else { return .nothingToAwait }
        if lingeringSince != nil || closesAfterAnswer { return .alreadyClosing }
        // An answer no cache keeps, such as a change's own (`PUT /active` answers once the change
        // is served everywhere): the client read the answers before it when it sent the request.
        if answering == .awaitingDeferred && !deferredAnswerCacheable { return .nothingToAwait }
        if unsent > 0 || answering == .awaitingDeferred {
            closesAfterAnswer = true
            return .afterAnswer
        }
        // A connection that never answered has nothing unread, and its client may be sending its
        // first request as it was accepted: shutting the writes would leave that request with no
        // answer (a `PUT /active` sent just as another switch's purges went out read only the end).
        guard reading == .betweenRequests, !closesWhenFlushed, hasAnswered else { return .nothingToAwait }
        (closesAfterAnswer, lingeringSince) = (true, now)
        return .lingerNow
    }

    /// How long a connection whose writing side was shut waits for its client to close.
    static let lingerLimit = Duration.seconds(2)

    enum OnShutdown: Equatable {
        case close
        case finishStream
        /// A request is in progress: it is answered, then the connection closes.
        case finishCurrent
    }

    /// The server is stopping. An idle connection closes now; a deferred answer still coming is
    /// sent first; a stream is ended.
    mutating func shutdown(idle: Bool) -> OnShutdown {
        shuttingDown = true
        if answering == .streaming { return .finishStream }
        return idle && answering == .inTurn ? .close : .finishCurrent
    }

    /// The socket is closed: returns whether it was open (close runs once).
    mutating func close() -> Bool {
        defer { isClosed = true }
        return !isClosed
    }

    // MARK: Deadlines

    enum OnTick: Equatable {
        case none
        /// Too slow to read its answers, or idle too long: closed without an answer.
        case close
        /// A request's head or body did not arrive in time: answered 408 with this reason.
        case timeOut(String)
    }

    /// The deadlines at `now`, with `unsent` bytes waiting in the outbox: answers being written
    /// must keep the minimum rate (per window of `sendGrace`); a request's head and body must
    /// arrive within their timeouts (totals, not per read); an idle keep-alive connection closes.
    mutating func tick(at now: Moment, unsent: Int) -> OnTick {
        guard !isClosed else { return .none }
        if let since = lingeringSince { return now - since > Self.lingerLimit ? .close : .none }
        if unsent > 0 {
            if let window = sendWindow, now - window.started > deadlines.sendGrace {
                let elapsed = now - window.started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                guard Double(window.written) / seconds >= Double(deadlines.minimumSendRate) else { return .close }
                sendWindow = (now, 0)
            }
            return .none
        }
        guard answering == .inTurn, !closesWhenFlushed else { return .none }
        switch reading {
        case .body(let since, _) where now - since > deadlines.body:
            requestRefused()
            return .timeOut("request body not received in time")
        case .head(let since) where now - since > deadlines.header:
            requestRefused()
            return .timeOut("request head not received in time")
        case .betweenRequests where now - lastActivity > deadlines.idle:
            return .close
        default:
            return .none
        }
    }
}
