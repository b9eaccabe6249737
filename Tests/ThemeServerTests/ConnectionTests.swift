import Foundation
import Testing
import TestSupport
import ThemeContent

/// HTTP/1.1 behaviour: keep-alive, pipelining, limits, timeouts, concurrency, shutdown.
@Suite("HTTP connections", .serialized)
struct ConnectionTests {
    @Test("several requests on one connection, pipelined in one write, answered in order")
    func pipelining() throws {
        let server = try ServerFixture()
        let client = try server.client()
        client.send("GET /themes/light/colors/primary HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /themes/nope HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().json["name"] as? String == "primary")
        #expect(try client.readResponse().json["status"] as? String == "ok")
        #expect(try client.readResponse().status == 404)
        #expect(try client.request("/healthz").status == 200)
    }

    @Test("HEAD sends the GET's Content-Length and no body; a 304 has no body and the connection goes on")
    func headAndNotModified() throws {
        let server = try ServerFixture()
        let client = try server.client()
        let image = try client.request("/themes/light/images/logo?scale=2&appearance=dark")
        let etag = try #require(image.headers["etag"])
        let head = try client.request("/themes/light/images/logo?scale=2&appearance=dark", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String(image.body.count))
        let notModified = try client.request("/themes/light/images/logo?scale=2&appearance=dark", headers: ["If-None-Match": etag])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(try client.request("/healthz").status == 200, "the connection is still in step")
    }

    @Test("a cold image waits for a worker off the event loop; other requests on the same loop are answered meanwhile")
    func decodingOffTheLoop() throws {
        let workers = WorkerPool(threads: 1)
        let gate = DispatchSemaphore(value: 0)
        workers.submit { gate.wait() } // the only worker is busy until the gate opens
        let server = try ServerFixture(configure: { _ in }, workers: workers)
        let cold = try server.client()
        cold.send("GET /themes/light/images/logo?scale=2 HTTP/1.1\r\nHost: x\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(!cold.hasPendingData(), "the image waits for the worker")
        for _ in 0..<20 {
            let other = try server.client()
            #expect(try other.request("/themes/light/colors/primary").status == 200)
        }
        gate.signal()
        let image = try cold.readResponse()
        #expect(image.status == 200)
        #expect(image.text.hasSuffix("variant 1"))
        #expect(try cold.request("/healthz").status == 200, "the connection goes on after the deferred answer")
    }

    @Test("shutdown waits for a deferred answer still being worked out, then closes")
    func shutdownFinishesDeferredAnswers() throws {
        let workers = WorkerPool(threads: 1)
        let gate = DispatchSemaphore(value: 0)
        workers.submit { gate.wait() }
        let server = try ServerFixture(configure: { _ in }, workers: workers)
        let client = try server.client()
        client.send("GET /themes/light/images/logo?scale=3 HTTP/1.1\r\nHost: x\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.1)
        let stopped = DispatchSemaphore(value: 0)
        let http = server.server!
        Thread {
            http.shutdown(timeout: .seconds(5))
            stopped.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.2)
        gate.signal()
        let image = try client.readResponse()
        #expect(image.status == 200)
        #expect(image.text.hasSuffix("variant 2"))
        #expect(client.isClosedByServer())
        stopped.wait()
    }

    @Test("Connection: close is honoured")
    func connectionClose() throws {
        let server = try ServerFixture()
        let client = try server.client()
        let response = try client.request("/healthz", headers: ["Connection": "close"])
        #expect(response.headers["connection"] == "close")
        #expect(client.isClosedByServer())
    }

    @Test("limits: request line 414, headers 431, body 413, malformed 400; each closes the connection")
    func limits() throws {
        let server = try ServerFixture { configuration in
            configuration.maxRequestLineBytes = 1024
            configuration.maxHeaderBytes = 2048
            configuration.maxBodyBytes = 100
        }
        let cases: [(String, Int)] = [
            ("GET /\(String(repeating: "a", count: 2000)) HTTP/1.1\r\n\r\n", 414),
            ("GET / HTTP/1.1\r\nX-Big: \(String(repeating: "b", count: 5000))\r\n\r\n", 431),
            ("PUT /themes HTTP/1.1\r\nContent-Length: 1000\r\n\r\n", 413),
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

    @Test("a client that stalls mid-header gets 408 and is disconnected after the timeout")
    func stalledClient() throws {
        let server = try ServerFixture { $0.headerTimeout = .milliseconds(300) }
        let client = try server.client()
        client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
        let start = Date()
        let response = try client.readResponse()
        #expect(response.status == 408)
        #expect(client.isClosedByServer())
        #expect(Date().timeIntervalSince(start) < 3)
    }

    @Test("idle keep-alive connections are closed after the idle timeout")
    func idleTimeout() throws {
        let server = try ServerFixture { $0.idleTimeout = .milliseconds(300) }
        let client = try server.client()
        #expect(try client.request("/healthz").status == 200)
        #expect(client.isClosedByServer())
    }

    @Test("past the connection limit a client gets 503")
    func connectionLimit() throws {
        let server = try ServerFixture { $0.maxConnections = 2 }
        let first = try server.client(), second = try server.client()
        #expect(try first.request("/healthz").status == 200)
        #expect(try second.request("/healthz").status == 200)
        let third = try server.client()
        #expect(try third.readResponse().status == 503)
    }

    @Test("many concurrent clients all get answers")
    func concurrentClients() throws {
        let server = try ServerFixture()
        let port = server.port
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 32) { worker in
            do {
                let client = try TestClient(port: port)
                for request in 0..<25 {
                    let path = request % 2 == 0 ? "/themes/light/colors/primary?appearance=dark" : "/themes/dark/images/logo?scale=\(worker % 3 + 1)"
                    if try client.request(path).status != 200 { failures.add() }
                }
            } catch {
                failures.add()
            }
        }
        #expect(failures.value == 0)
    }

    @Test("shutdown closes idle connections and stops accepting")
    func gracefulShutdown() throws {
        let server = try ServerFixture()
        let client = try server.client()
        #expect(try client.request("/healthz").status == 200)
        server.server.shutdown(timeout: .seconds(2))
        #expect(client.isClosedByServer())
        #expect(throws: (any Error).self) { try TestClient(port: server.port).request("/healthz") }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
