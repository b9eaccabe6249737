@testable import HTTPServer
import HTTPTypes
import Testing

/// A connection's life without a socket: each event at a moment the test makes up, and the action
/// the life asks for. Every deadline is tested here with no sleep.
@Suite("ConnectionLife: keep-alive, pipelining, deferred answers, streams, shutdown, deadlines")
struct ConnectionLifeTests {
    /// Deadlines short enough to read: head 10 s, body 30 s, idle 60 s, 1,024 bytes/s per 10 s.
    static let deadlines: ConnectionLife.Deadlines = {
        var configuration = HTTPServer.Configuration()
        (configuration.headerTimeout, configuration.bodyTimeout, configuration.idleTimeout) = (.seconds(10), .seconds(30), .seconds(60))
        (configuration.minimumSendRate, configuration.sendGrace) = (1024, .seconds(10))
        return ConnectionLife.Deadlines(configuration)
    }()

    /// The moment `seconds` after the connection opened.
    static func at(_ seconds: Double) -> Moment { Moment(nanoseconds: Int64(seconds * 1e9)) }
    static func at(_ seconds: Int) -> Moment { at(Double(seconds)) }

    func opened() -> ConnectionLife { ConnectionLife(deadlines: Self.deadlines, now: Self.at(0)) }

    @Test("a request read and answered with keep-alive leaves the connection waiting for the next")
    func keepAlive() {
        var life = opened()
        life.received(at: Self.at(1))
        #expect(life.reading == .head(since: Self.at(1)))
        life.requestComplete(at: Self.at(1), moreBuffered: false)
        life.answered(keepAlive: true)
        #expect(life.answersNext)
        life.sendingStarted(at: Self.at(1))
        life.sent(120)
        let afterFlush = life.flushed(at: Self.at(1), inboxEmpty: true)
        #expect(afterFlush == .wait)
        #expect(life.reading == .betweenRequests)
    }

    @Test("Connection: close: no further request is read, and the connection closes once written")
    func closeAfterAnswer() {
        var life = opened()
        life.received(at: Self.at(1))
        life.requestComplete(at: Self.at(1), moreBuffered: true)
        life.answered(keepAlive: false)
        #expect(!life.answersNext, "the pipelined request after it is not answered")
        let afterFlush = life.flushed(at: Self.at(1), inboxEmpty: false)
        #expect(afterFlush == .close)
        var wasOpen = life.close()
        #expect(wasOpen)
        wasOpen = life.close()
        #expect(!wasOpen, "closing runs once")
    }

    @Test("pipelining: the request read with another behind it starts the next head's deadline at once")
    func pipelining() {
        var life = opened()
        life.received(at: Self.at(1))
        life.requestComplete(at: Self.at(2), moreBuffered: true)
        #expect(life.reading == .head(since: Self.at(2)))
        life.answered(keepAlive: true)
        let afterFlush = life.flushed(at: Self.at(2), inboxEmpty: false)
        #expect(afterFlush == .answerBuffered)
    }

    @Test("a deferred answer holds back the next request until it arrives; after a close it is dropped")
    func deferred() {
        var life = opened()
        life.received(at: Self.at(1))
        life.requestComplete(at: Self.at(1), moreBuffered: true)
        life.answerDeferred(for: .get)
        #expect(!life.answersNext)
        let onTick = life.tick(at: Self.at(100), unsent: 0)
        #expect(onTick == .none, "no deadline runs while the service works")
        let stillWanted = life.deferredAnswerArrived()
        #expect(stillWanted)
        #expect(life.answersNext)

        var closed = opened()
        closed.answerDeferred(for: .get)
        _ = closed.close()
        let closedStillWanted = closed.deferredAnswerArrived()
        #expect(!closedStillWanted, "the client left: nothing to send it to")
    }

    @Test("100-continue is sent once, when the head is complete and the client expects it")
    func expectContinue() {
        var life = opened()
        life.received(at: Self.at(1))
        var sendsContinue = life.awaitingBody(expectsContinue: true, at: Self.at(2))
        #expect(sendsContinue)
        sendsContinue = life.awaitingBody(expectsContinue: true, at: Self.at(3))
        #expect(!sendsContinue, "sent already")
        #expect(life.reading == .body(since: Self.at(2), continueSent: true))

        var plain = opened()
        plain.received(at: Self.at(1))
        let plainSendsContinue = plain.awaitingBody(expectsContinue: false, at: Self.at(2))
        #expect(!plainSendsContinue)
    }

    @Test("a head must arrive whole within the header timeout, counted from its first byte, however it trickles")
    func headTimeout() {
        var life = opened()
        life.received(at: Self.at(1))
        for second in 2...10 {
            life.received(at: Self.at(second)) // a byte a second
            let onTick = life.tick(at: Self.at(second), unsent: 0)
            #expect(onTick == .none)
        }
        let onTick = life.tick(at: Self.at(11.5), unsent: 0)
        #expect(onTick == .timeOut("request head not received in time"))
        #expect(!life.answersNext, "the 408 is the connection's last answer")
        let afterFlush = life.flushed(at: Self.at(11.5), inboxEmpty: true)
        #expect(afterFlush == .close)
    }

    @Test("a body must arrive within the body timeout from the end of its head")
    func bodyTimeout() {
        var life = opened()
        life.received(at: Self.at(1))
        _ = life.awaitingBody(expectsContinue: false, at: Self.at(2))
        var onTick = life.tick(at: Self.at(31), unsent: 0)
        #expect(onTick == .none, "the head's timeout no longer applies")
        onTick = life.tick(at: Self.at(32.5), unsent: 0)
        #expect(onTick == .timeOut("request body not received in time"))
    }

    @Test("an idle keep-alive connection closes after the idle timeout from its last activity")
    func idleTimeout() {
        var life = opened()
        life.received(at: Self.at(5))
        life.requestComplete(at: Self.at(5), moreBuffered: false)
        life.answered(keepAlive: true)
        _ = life.flushed(at: Self.at(6), inboxEmpty: true)
        var onTick = life.tick(at: Self.at(65), unsent: 0)
        #expect(onTick == .none)
        onTick = life.tick(at: Self.at(66.5), unsent: 0)
        #expect(onTick == .close)
    }

    @Test("answers must reach the client at the minimum rate per window; a client that reads slowly enough is kept")
    func sendRate() {
        var life = opened()
        life.sendingStarted(at: Self.at(0))
        life.sent(20_000)
        var onTick = life.tick(at: Self.at(10.5), unsent: 500_000)
        #expect(onTick == .none, "20,000 bytes in 10.5 s: fast enough")
        #expect(life.sendWindow?.started == Self.at(10.5), "a new window starts")
        life.sent(1_000)
        onTick = life.tick(at: Self.at(21), unsent: 499_000)
        #expect(onTick == .close, "1,000 bytes in 10.5 s is under 1,024/s")
    }

    @Test("no head or idle deadline runs while answers wait to be written or a stream is open")
    func deadlinesWhileWriting() {
        var life = opened()
        life.received(at: Self.at(1))
        let onTick = life.tick(at: Self.at(50), unsent: 10)
        #expect(onTick == .none, "unsent bytes: only the send rate is checked")

        var stream = opened()
        stream.streamStarted()
        let streamOnTick = stream.tick(at: Self.at(1_000), unsent: 0)
        #expect(streamOnTick == .none)
    }

    @Test("shutdown closes an idle connection, lets a request in progress finish, ends a stream")
    func shutdown() {
        var idle = opened()
        let idleOnShutdown = idle.shutdown(idle: true)
        #expect(idleOnShutdown == .close)

        var busy = opened()
        busy.received(at: Self.at(1))
        busy.requestComplete(at: Self.at(1), moreBuffered: false)
        busy.answerDeferred(for: .get)
        let busyOnShutdown = busy.shutdown(idle: true)
        #expect(busyOnShutdown == .finishCurrent, "the deferred answer is still sent")
        #expect(!busy.keepsAlive(true), "and it says Connection: close")
        let busyStillWanted = busy.deferredAnswerArrived()
        #expect(busyStillWanted)
        let busyAfterFlush = busy.flushed(at: Self.at(2), inboxEmpty: true)
        #expect(busyAfterFlush == .close)

        var streaming = opened()
        streaming.streamStarted()
        let streamingOnShutdown = streaming.shutdown(idle: true)
        #expect(streamingOnShutdown == .finishStream)
        var streamingAfterFlush = streaming.flushed(at: Self.at(2), inboxEmpty: true)
        #expect(streamingAfterFlush == .wait, "the stream's last bytes go first")
        streaming.streamFinished()
        streamingAfterFlush = streaming.flushed(at: Self.at(3), inboxEmpty: true)
        #expect(streamingAfterFlush == .close)
    }

    /// A connection that read a request at `second` and queued its answer, keep-alive.
    func answering(at second: Int) -> ConnectionLife {
        var life = opened()
        life.received(at: Self.at(second))
        life.requestComplete(at: Self.at(second), moreBuffered: false)
        life.answered(keepAlive: true)
        life.sendingStarted(at: Self.at(second))
        return life
    }

    /// The same with its answer written.
    func answered(at second: Int) -> ConnectionLife {
        var life = answering(at: second)
        _ = life.flushed(at: Self.at(second), inboxEmpty: true)
        return life
    }

    /// A connection that answered a request at 1 s and works out a deferred answer to a `method`
    /// request read at 2 s.
    func deferring(_ method: HTTPRequest.Method) -> ConnectionLife {
        var life = answered(at: 1)
        life.received(at: Self.at(2))
        life.requestComplete(at: Self.at(2), moreBuffered: false)
        life.answerDeferred(for: method)
        return life
    }

    @Test("closing when answered: an idle connection shuts its writes at once and reads no next request; asked again it is already closing; it ends 2 s later if the client does not")
    func closeWhenAnsweredIdle() {
        var idle = answered(at: 1)
        let asked = idle.closeWhenAnswered(unsent: 0, at: Self.at(2))
        #expect(asked == .lingerNow)
        #expect(!idle.answersNext && idle.lingeringSince == Self.at(2))
        let askedAgain = idle.closeWhenAnswered(unsent: 0, at: Self.at(2.5))
        #expect(askedAgain == .alreadyClosing)
        var tick = idle.tick(at: Self.at(3.5), unsent: 0)
        #expect(tick == .none, "waiting for the client")
        tick = idle.tick(at: Self.at(4.5), unsent: 0)
        #expect(tick == .close, "past ConnectionLife.lingerLimit")
    }

    @Test("closing when answered: an answer being written, or worked out, goes out first; then the writes shut")
    func closeWhenAnsweredAfterAnswer() {
        var writing = answering(at: 1)
        let askedWhileWriting = writing.closeWhenAnswered(unsent: 4096, at: Self.at(1))
        #expect(askedWhileWriting == .afterAnswer)
        let written = writing.flushed(at: Self.at(2), inboxEmpty: true)
        #expect(written == .linger)

        var deferred = deferring(.get)
        let askedWhileDeferred = deferred.closeWhenAnswered(unsent: 0, at: Self.at(2))
        #expect(askedWhileDeferred == .afterAnswer)
        let earlierWritten = deferred.flushed(at: Self.at(2), inboxEmpty: true)
        #expect(earlierWritten == .wait, "the deferred answer is still to come")
        let stillWanted = deferred.deferredAnswerArrived()
        #expect(stillWanted)
        deferred.answered(keepAlive: true)
        let deferredWritten = deferred.flushed(at: Self.at(3), inboxEmpty: true)
        #expect(deferredWritten == .linger && deferred.lingeringSince == Self.at(3))
    }

    @Test("closing when answered: nothing to wait for on a stream, an answer to a PUT being worked out, a connection that never answered, a client sending its next request, a connection closing or closed")
    func closeWhenAnsweredNothingToAwait() {
        var streaming = opened()
        streaming.streamStarted()
        let stream = streaming.closeWhenAnswered(unsent: 10, at: Self.at(1))
        #expect(stream == .nothingToAwait)

        // PUT /active answers once the change is served, which waits for this call: no cache
        // keeps that answer, so it is not waited for.
        var changing = deferring(.put)
        let change = changing.closeWhenAnswered(unsent: 0, at: Self.at(2))
        #expect(change == .nothingToAwait)
        let stillWanted = changing.deferredAnswerArrived()
        changing.answered(keepAlive: true)
        let written = changing.flushed(at: Self.at(3), inboxEmpty: true)
        #expect(stillWanted && written == .wait, "kept alive as ever")

        // Nothing was answered on a connection just accepted: its client may be sending its
        // first request, which is read and answered.
        var fresh = opened()
        let justAccepted = fresh.closeWhenAnswered(unsent: 0, at: Self.at(1))
        #expect(justAccepted == .nothingToAwait && fresh.answersNext && fresh.lingeringSince == nil)

        var sending = answered(at: 1)
        sending.received(at: Self.at(2))
        let nextUnderWay = sending.closeWhenAnswered(unsent: 0, at: Self.at(2))
        #expect(nextUnderWay == .nothingToAwait && sending.answersNext, "the answer before was read; the next one is answered as ever")

        var closing = opened()
        closing.received(at: Self.at(1))
        closing.requestComplete(at: Self.at(1), moreBuffered: false)
        closing.answered(keepAlive: false)
        _ = closing.flushed(at: Self.at(1), inboxEmpty: true)
        let closes = closing.closeWhenAnswered(unsent: 0, at: Self.at(1))
        #expect(closes == .nothingToAwait)
        _ = closing.close()
        let closed = closing.closeWhenAnswered(unsent: 0, at: Self.at(2))
        #expect(closed == .nothingToAwait)
    }
}
