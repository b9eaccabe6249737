import Foundation
import Logging
import Settings
import Testing
import TestSupport
import ThemeServer
import Webhooks

/// A dispatcher's shutdown, as `themed serve` makes it on SIGTERM: whatever each subscriber's
/// thread is doing (waiting a minute to try again, waiting on a subscriber that never answers,
/// idle), it ends at once, and a post cut short is not counted as failed: the message stays in
/// the outbox for the next start or another replica.
@Suite("webhook posts stop cleanly")
struct WebhookShutdownTests {
    /// The threads of this process named as the dispatcher names its own.
    static func webhookThreads() -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.hasPrefix("themed-webhook") == true
        }.count
    }

    static func subscription(port: Int, events: Set<String>) -> WebhookSubscription {
        WebhookSubscription(url: URL(string: "http://127.0.0.1:\(port)/hook")!, key: Array("a secret of the test".utf8), events: events)
    }

    @Test("shutdown ends every subscriber's thread within a second: one waiting a minute to try again, one whose subscriber never answers, one idle")
    func shutdownEndsEveryThread() throws {
        // A subscriber that takes the connection and never answers, one where nothing listens.
        let silent = Loopback.boundSocket(listening: true)
        defer { close(silent.descriptor) }
        _ = fcntl(silent.descriptor, F_SETFL, O_NONBLOCK)
        let refusing = Loopback.freePort()
        let metrics = ServiceMetrics()
        let dispatcher = WebhookDispatcher(subscriptions: [
            Self.subscription(port: silent.port, events: ["release-published"]),
            Self.subscription(port: refusing, events: ["release-published"]),
            Self.subscription(port: refusing, events: ["theme-error"]),
        ], retrySeconds: 60, metrics: metrics, logger: Logger(label: "webhook-shutdown-test"))
        dispatcher.start()
        #expect(waitUntil { Self.webhookThreads() == 3 }, "a thread for each subscriber: \(Self.webhookThreads())")

        dispatcher.send(type: "release-published", id: "msg_1_theme-reloaded", data: .object([("theme", .string("dark"))]))
        var accepted: [Int32] = []
        defer { accepted.forEach { close($0) } }
        #expect(waitUntil {
            let connection = accept(silent.descriptor, nil, nil)
            if connection >= 0 { accepted.append(connection) }
            return !accepted.isEmpty
        }, "the silent subscriber's post is under way")
        #expect(waitUntil { metrics.webhooksRetried.load(ordering: .relaxed) >= 1 }, "the refused post waits a minute to try again")

        let started = ContinuousClock.now
        #expect(dispatcher.shutdown(timeout: .seconds(5)), "every thread ended")
        #expect(ContinuousClock.now - started < .seconds(1), "\(ContinuousClock.now - started)")
        #expect(waitUntil(2) { Self.webhookThreads() == 0 }, "no webhook thread is left: \(Self.webhookThreads())")
        #expect(metrics.webhooksFailed.load(ordering: .relaxed) == 0, "a post cut short by the shutdown is not a failure")
        #expect(metrics.webhooksDelivered.load(ordering: .relaxed) == 0)
    }
}
