import Foundation
import Testing
import TestSupport

/// The `webhooks` setting as a subscriber sees it: `themed serve` posts each change, signed as
/// Standard Webhooks sign them, to a real HTTP receiver that verifies the signature with PyPI's
/// `standardwebhooks` (scripts/webhook-receiver.py); a receiver that was down gets the message
/// once it is back; one that never answers has its message listed as failed after 5 tries.
@Suite("webhooks, as a subscriber receives them")
struct WebhookTests {
    static let secret = "whsec_" + Data((0..<24).map { UInt8(($0 * 37 + 11) & 255) }).base64EncodedString()
    static let token = "webhook-operator-token"

    @Test("signed changes reach a receiver that verifies them; a receiver that was down gets them after retries; one that never answers is listed",
          .needsPython(["standardwebhooks"]))
    func signedDeliveries() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.colorSet("themes/light", "primary", [(nil, ["red": "0.1", "green": "0.2", "blue": "0.3"], [:])])
        fixtures.colorSet("themes/dark", "primary", [(nil, ["red": "0.9", "green": "0.8", "blue": "0.7"], [:])])
        let (port, silent) = (Loopback.freePort(), Loopback.freePort())
        let out = folder + "/received.jsonl"
        let config: [String: Any] = [
            "activeToken": Self.token, "webhookRetrySeconds": 0.1,
            "webhooks": [["url": "http://127.0.0.1:\(port)/hook", "secret": Self.secret, "events": ["release-published", "active-changed", "theme-error"]],
                         ["url": "http://127.0.0.1:\(silent)/hook", "secret": Self.secret, "events": ["active-changed"]]],
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        let receiver = try WebhookReceiver(port: port, secret: Self.secret, out: out)
        let server = try ServeProcess(executable: DaemonTests.executable, arguments: ["--config", "themed.json", "--themes", fixtures.path("themes")], in: folder)
        defer { server.stop() }
        let auth = ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/json"]

        let switched = try HTTP.request("PUT", "/active", port: server.port, headers: auth, body: Array(#"{"theme": "dark"}"#.utf8))
        #expect(switched.status == 200, "\(switched.text)")
        #expect(WebhookReceiver.delivered(receiver.records { WebhookReceiver.delivered($0, "active-changed", theme: "dark") }, "active-changed", theme: "dark"))

        // A file dropped into a theme is a release of it; its message carries the theme before
        // the edit against after.
        fixtures.colorSet("themes/light", "primary", [(nil, ["red": "0.3", "green": "0.2", "blue": "0.1"], [:])])
        func diffs(_ records: [[String: Any]]) -> [[String: Any]] {
            records.compactMap { record in
                (record["data"] as? [String: Any]).flatMap { $0["theme"] as? String == "light" ? $0["diff"] as? [String: Any] : nil }
            }
        }
        let released = receiver.records { !diffs($0).isEmpty }
        let diff = diffs(released).first
        #expect(((diff?["summary"] as? [String: Any])?["colors"] as? [String: Any])?["changed"] as? Int == 1, "\(released)")
        #expect((diff?["changes"] as? [String])?.first?.hasPrefix("changed: primary every mode #1A334DFF -> #4D331AFF") == true, "\(String(describing: diff))")
        #expect(diff?["to"] as? Int ?? 0 > diff?["from"] as? Int ?? 0)

        // The receiver goes down; the switch made meanwhile, refused at least once, arrives once it is back.
        receiver.isDown = true
        #expect(try HTTP.request("PUT", "/active", port: server.port, headers: auth, body: Array(#"{"theme": "light"}"#.utf8)).status == 200)
        #expect(waitUntil(10) { receiver.refusedCount >= 1 }, "tried while down")
        receiver.isDown = false
        let records = receiver.records { WebhookReceiver.delivered($0, "active-changed", theme: "light") }
        #expect(WebhookReceiver.delivered(records, "active-changed", theme: "light"), "\(records)")
        #expect(records.allSatisfy { $0["verified"] as? Bool == true }, "every message verified: \(records)")

        // The silent subscriber's two messages: 5 tries each (0.1 + 0.2 + 0.4 + 0.8 s apart, one
        // after the other), then listed.
        #expect(try HTTP.get("/webhooks/deliveries", port: server.port).status == 401, "the operator's")
        var failed: [[String: Any]] = []
        _ = try waitUntil(10) {
            let deliveries = try HTTP.get("/webhooks/deliveries", port: server.port, headers: auth)
            failed = ((try? JSONSerialization.jsonObject(with: Data(deliveries.body))) as? [String: Any])?["failed"] as? [[String: Any]] ?? []
            return failed.count >= 2
        }
        #expect(failed.count == 2 && failed.allSatisfy { ($0["url"] as? String)?.contains(":\(silent)/") == true && $0["attempts"] as? Int == 5 },
                "\(failed)")
        let metrics = try HTTP.get("/metrics", port: server.port).text
        func counter(_ name: String) -> Int {
            metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
        }
        #expect(counter("themed_webhooks_failed_total") == 2)
        #expect(counter("themed_webhooks_delivered_total") >= 3 && counter("themed_webhooks_retried_total") >= 9,
                "\(metrics.split(separator: "\n").filter { $0.contains("webhook") })")
    }

    @Test("the setting refuses what cannot be delivered or signed, naming it")
    func badSettings() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (webhooks, expected) in [(#"[{"url": "ftp://x", "secret": "whsec_AAAAAAAAAAAAAAAAAAAAAAAA", "events": ["theme-error"]}]"#, "webhooks[0].url must be an http or https URL"),
                                     (#"[{"url": "https://x.test/h", "secret": "abc", "events": ["theme-error"]}]"#, "webhooks[0].secret must be whsec_"),
                                     (#"[{"url": "https://x.test/h", "secret": "whsec_AAAAAAAAAAAAAAAAAAAAAAAA", "events": ["theme-changed"]}]"#, "\"theme-changed\" is not one of")] {
            try Data(#"{"webhooks": \#(webhooks)}"#.utf8).write(to: URL(fileURLWithPath: folder + "/bad.json"))
            let run = try DaemonTests.run(["config", "check", "bad.json"], in: folder)
            #expect(run.status == 2 && run.errors.contains(expected), "\(run.errors)")
        }
    }
}
