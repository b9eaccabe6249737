import Dispatch
import Foundation
import HTTPServer
import Testing
import TestSupport

/// HTTP/1.1 on real sockets: keep-alive, pipelining, limits, deadlines, concurrency, shutdown.
/// What a connection decides is tested without sockets in `ConnectionLifeTests`; these show that
/// the socket side carries it out.
@Suite("HTTP connections", .serialized)
struct ConnectionTests {
    @Test("several requests on one connection, pipelined in one write, answered in order")
    func pipelining() throws {
        let server = try PlainServer()
        let client = try server.client()
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\nHEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().text == "hello")
        #expect(try client.readResponse().status == 404)
        let head = try client.readResponse(headRequest: true)
        #expect(head.status == 200 && head.headers["content-length"] == "5")
        #expect(try client.request("/hello").status == 200, "the connection is still in step")
    }

    @Test("a deferred answer is worked out off the loop: other clients are answered meanwhile, and the connection goes on after it")
    func deferredOffTheLoop() throws {
        let server = try PlainServer()
        let waiting = try server.client()
        waiting.send("GET /gated HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        server.started.wait()
        for _ in 0..<20 {
            #expect(try server.client().request("/hello").status == 200)
        }
        #expect(!waiting.hasPendingData(), "the pipelined /hello waits behind the deferred answer")
        server.gate.signal()
        #expect(try waiting.readResponse().text == "opened")
        #expect(try waiting.readResponse().text == "hello", "then the request behind it, in order")
    }

    @Test("shutdown waits for a deferred answer still being worked out, then closes")
    func shutdownFinishesDeferredAnswers() throws {
        let server = try PlainServer()
        let client = try server.client()
        client.send("GET /gated HTTP/1.1\r\nHost: x\r\n\r\n")
        server.started.wait()
        let stopped = DispatchSemaphore(value: 0)
        let http = server.server
        Thread {
            http.shutdown(timeout: .seconds(5))
            stopped.signal()
        }.start()
        #expect(waitUntil { (try? TestClient(port: server.port)) == nil }, "the server stops accepting")
        server.gate.signal()
        #expect(try client.readResponse().text == "opened")
        #expect(client.isClosedByServer())
        stopped.wait()
    }

    @Test("Connection: close is honoured")
    func connectionClose() throws {
        let server = try PlainServer()
        let client = try server.client()
        let response = try client.request("/hello", headers: ["Connection": "close"])
        #expect(response.headers["connection"] == "close")
        #expect(client.isClosedByServer())
    }

    @Test("limits: request line 414, headers 431, body 413, malformed 400, version 505; each closes the connection")
    func limits() throws {
        let server = try PlainServer { configuration in
            configuration.maxRequestLineBytes = 1024
            configuration.maxHeaderBytes = 2048
            configuration.maxBodyBytes = 100
        }
        let cases: [(String, Int)] = [
            ("GET /\(String(repeating: "a", count: 2000)) HTTP/1.1\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nX-Big: \(String(repeating: "b", count: 5000))\r\n\r\n", 431),
            ("PUT /themes HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", 413),
            ("NOT A REQUEST\r\n\r\n", 400),
            ("GET / HTTP/2.0\r\n\r\n", 505),
        ]
        for (raw, status) in cases {
            let client = try server.client()
            client.send(raw)
            let response = try client.readResponse()
            #expect(response.status == status, "\(raw.prefix(30))")
            #expect(client.isClosedByServer())
        }
    }

    @Test("a client that stalls mid-head gets 408 and is disconnected (ConnectionLifeTests has the deadline's rules)")
    func stalledClient() throws {
        let server = try PlainServer { $0.headerTimeout = .milliseconds(300) }
        let client = try server.client()
        client.send("GET /hello HTTP/1.1\r\nHost: x\r\n")
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(response.json["error"] != nil)
        #expect(client.isClosedByServer())
    }

    @Test("an idle keep-alive connection is closed after the idle timeout")
    func idleTimeout() throws {
        let server = try PlainServer { $0.idleTimeout = .milliseconds(300) }
        let client = try server.client()
        #expect(try client.request("/hello").status == 200)
        #expect(client.isClosedByServer())
    }

    @Test("past the connection limit a client gets 503")
    func connectionLimit() throws {
        let server = try PlainServer { $0.maxConnections = 2 }
        let first = try server.client(), second = try server.client()
        #expect(try first.request("/hello").status == 200)
        #expect(try second.request("/hello").status == 200)
        let third = try server.client()
        #expect(try third.readResponse().status == 503)
    }

    @Test("many concurrent clients all get answers")
    func concurrentClients() throws {
        let server = try PlainServer()
        let port = server.port
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            do {
                let client = try TestClient(port: port)
                for _ in 0..<25 where try client.request("/hello").status != 200 { failures.add() }
            } catch {
                failures.add()
            }
        }
        #expect(failures.value == 0)
    }

    @Test("a stream goes on until its client leaves; shutdown ends it")
    func streams() throws {
        let server = try PlainServer()
        let client = try server.client()
        client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try client.readUntil("tick\ntick\n")
        #expect(first.hasPrefix("HTTP/1.1 200"))
        #expect(first.lowercased().contains("cache-control: no-cache"))
        server.server.shutdown(timeout: .seconds(2))
        #expect(server.server.connectionCount == 0, "the stream was ended and its connection closed")
        _ = try? client.readUntil("no more ticks", timeout: 2) // what was sent before the end
        #expect(client.isClosedByServer(allowingReset: true))
    }

    @Test("shutdown closes idle connections and stops accepting")
    func gracefulShutdown() throws {
        let server = try PlainServer()
        let client = try server.client()
        #expect(try client.request("/hello").status == 200)
        server.server.shutdown(timeout: .seconds(2))
        #expect(client.isClosedByServer())
        #expect(throws: (any Error).self) { try TestClient(port: server.port).request("/hello") }
    }
}
