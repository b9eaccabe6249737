import Foundation
import Testing
import TestSupport

/// SIGTERM as systemd sends it, with every service busy: the daemon stops its services in order
/// and ends every thread it started.
@Suite("the daemon stops cleanly")
struct ShutdownTests {
    static let token = "shutdown-operator-token"

    @Test("SIGTERM with a webhook post waiting a minute to try again, the folder watcher, the timers and an open event stream: exit 0 within 10 s, no thread left")
    func stopsEveryService() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.colorSet("themes/light", "primary", [(nil, ["red": "0.1", "green": "0.2", "blue": "0.3"], [:])])
        fixtures.colorSet("themes/dark", "primary", [(nil, ["red": "0.9", "green": "0.8", "blue": "0.7"], [:])])
        // Nothing listens on the subscriber's port: the post is refused and waits a minute.
        let refusing = Loopback.freePort()
        let config: [String: Any] = [
            "activeToken": Self.token, "watch": true, "logFormat": "json", "heartbeatSeconds": 0.2, "webhookRetrySeconds": 60,
            "webhooks": [["url": "http://127.0.0.1:\(refusing)/hook", "secret": WebhookTests.secret, "events": ["active-changed"]]],
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        let logPath = folder + "/serve.log"
        FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try #require(FileHandle(forWritingAtPath: logPath))
        let server = try ServeProcess(executable: DaemonTests.executable, arguments: ["--config", "themed.json", "--themes", fixtures.path("themes")],
                                      in: folder, standardError: log)
        defer { server.stop() }

        let auth = ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/json"]
        #expect(try HTTP.request("PUT", "/active", port: server.port, headers: auth, body: Array(#"{"theme": "dark"}"#.utf8)).status == 200)
        #expect(waitUntil(10) { Self.counter("themed_webhooks_retried_total", port: server.port) >= 1 }, "the refused post waits to try again")
        let stream = try TestClient(port: server.port)
        stream.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try stream.readUntil("\r\n\r\n").contains("text/event-stream"))

        let started = ContinuousClock.now
        server.stop()
        #expect(ContinuousClock.now - started < .seconds(10), "\(ContinuousClock.now - started)")
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
        #expect((try? stream.readUntil("retry:", timeout: 2)) != nil, "the event stream was told to reconnect")
        try log.close()
        let records = try String(contentsOfFile: logPath, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let messages = records.compactMap { $0["message"] as? String }
        let stopped = try #require(records.last { $0["message"] as? String == "stopped" && $0["threads_left"] != nil }, "\(messages)")
        #expect(stopped["threads_left"] as? String == "none", "\(stopped)")
        #expect(!messages.contains("a service did not stop in its time"), "\(records.filter { $0["service"] != nil })")
        #expect(messages.firstIndex(of: "shutting down").map { $0 < messages.count - 1 } == true, "\(messages)")
    }

    static func counter(_ name: String, port: Int) -> Int {
        let metrics = (try? HTTP.get("/metrics", port: port))?.text ?? ""
        return metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
    }
}
