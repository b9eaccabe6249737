import Dispatch
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// `closeKeptConnections`: the server learns that its clients have read every answer it sent,
/// because each closes its side after the server shut its own (what a cache in front does once
/// its fetch is stored). Real sockets on loopback; `ConnectionLifeTests` has the rules.
@Suite("closing kept connections and awaiting the clients")
struct KeptConnectionTests {
    /// `closeKeptConnections` on a thread of its own, as a replica's follower calls it.
    final class Closing: Sendable {
        private let outcome = Mutex<Bool?>(nil)
        private let returned = DispatchSemaphore(value: 0)

        init(_ server: HTTPServer, timeout: Duration) {
            Thread { [self] in
                let allClosed = server.closeKeptConnections(awaitingClients: timeout)
                outcome.withLock { $0 = allClosed }
                returned.signal()
            }.start()
        }

        /// nil while the call waits.
        var result: Bool? { outcome.withLock { $0 } }

        func wait() -> Bool? {
            returned.wait()
            return result
        }
    }

    /// The client's end: the server sees it close.
    static func closeClientSide(_ client: TestClient) { shutdown(client.fd, Int32(SHUT_RDWR)) }

    @Test("an idle kept-alive connection is shut at once, and the call returns once the client has closed too")
    func idleConnection() throws {
        let server = try PlainServer()
        let client = try server.client()
        #expect(try client.request("/hello").status == 200)
        let closing = Closing(server.server, timeout: .seconds(10))
        #expect(client.isClosedByServer(), "the client reads to the end of what it was sent")
        #expect(closing.result == nil, "the server waits for the client's close, the sign it read everything")
        Self.closeClientSide(client)
        #expect(closing.wait() == true)
        #expect(waitUntil { server.server.connectionCount == 0 })
    }

    @Test("an answer being worked out goes out whole before the end")
    func answerUnderWay() throws {
        let server = try PlainServer()
        let client = try server.client()
        client.send("GET /gated HTTP/1.1\r\nHost: x\r\n\r\n")
        server.started.wait()
        let closing = Closing(server.server, timeout: .seconds(10))
        server.gate.signal()
        #expect(try client.readResponse().text == "opened")
        #expect(client.isClosedByServer())
        #expect(closing.result == nil)
        Self.closeClientSide(client)
        #expect(closing.wait() == true)
    }

    @Test("an event stream, an answer to a PUT being worked out, and a client already sending its next request, are not waited for; all go on")
    func notWaitedFor() throws {
        let server = try PlainServer()
        let stream = try server.client()
        stream.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try stream.readUntil("tick\n")
        // As PUT /active, whose answer waits for the change this call is part of.
        let changing = try server.client()
        changing.send("PUT /gated HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
        server.started.wait()
        let sending = try server.client()
        #expect(try sending.request("/hello").status == 200)
        let answered = try #require(server.server.lastRead)
        sending.send("GET /hel")
        #expect(waitUntil { server.server.lastRead.map { $0 > answered } == true }, "the server has read the half-sent head")
        #expect(Closing(server.server, timeout: .seconds(10)).wait() == true)
        _ = try stream.readUntil("tick\n")
        server.gate.signal()
        #expect(try changing.readResponse().text == "opened")
        #expect(try changing.request("/hello").status == 200, "kept alive")
        sending.send("lo HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try sending.readResponse().text == "hello", "the request after the call is answered as ever")
    }

    @Test("a connection just accepted, its first request not yet sent, is not waited for and has that request answered")
    func justAccepted() throws {
        let server = try PlainServer()
        let client = try server.client()
        #expect(waitUntil { server.server.connectionCount == 1 }, "the server holds the connection")
        #expect(Closing(server.server, timeout: .seconds(10)).wait() == true)
        #expect(try client.request("/hello").text == "hello", "answered, not ended with nothing")
        #expect(try client.request("/hello").status == 200, "and kept alive")
    }

    @Test("a client that never closes is waited for until the timeout: the call says so")
    func timeout() throws {
        let server = try PlainServer()
        let client = try server.client()
        #expect(try client.request("/hello").status == 200)
        let started = ContinuousClock.now
        #expect(Closing(server.server, timeout: .milliseconds(300)).wait() == false)
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(client.isClosedByServer(), "its writing side was shut all the same")
    }
}
