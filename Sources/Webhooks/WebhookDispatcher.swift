import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JSON
import Logging
import Settings
import Synchronization
import ThemeServer

/// Posts changes to the `webhooks` setting's subscribers, off the event loops: each subscriber
/// has a queue of its own, so its messages arrive in the order the changes were made, and a
/// subscriber that does not answer holds back only its own. A message that fails (no answer in
/// 10 s, or a status outside 2xx) is tried again after `webhookRetrySeconds`, then twice as long
/// each time, 5 tries in all; then it is listed at `GET /webhooks/deliveries` and counted in
/// `/metrics`.
public final class WebhookDispatcher: Sendable {
    /// A message that was not delivered.
    public struct Failure: Sendable {
        public var id: String
        public var type: String
        public var url: String
        public var attempts: Int
        public var error: String
        public var at: Date
    }

    public static let attempts = 5
    /// Failures listed, newest kept.
    static let failuresKept = 1000

    let subscriptions: [WebhookSubscription]
    /// Seconds before the second try; each later one waits twice as long as the one before.
    let retrySeconds: Double
    /// With a cluster store: whether this replica is the one to post a message (its id) to a
    /// subscriber (its URL), the first to claim it in the store; a store that cannot be asked
    /// posts it anyway (a repeat, with the same webhook-id, rather than a loss).
    let claim: (@Sendable (_ message: String, _ url: String) throws -> Bool)?
    /// What a message of `type` carries beside the event's data (a release's diff against the one
    /// before it, `"diff"`), worked out once per message on the first subscriber's queue that
    /// posts it; nil adds nothing.
    let details: (@Sendable (_ type: String, _ data: JSONValue) -> (key: String, value: JSONValue)?)?
    let metrics: ServiceMetrics
    let logger: Logger
    private let queues: [DispatchQueue]
    private let failed = Mutex<[Failure]>([])
    private let pending = Atomic<Int>(0)

    public init(subscriptions: [WebhookSubscription], retrySeconds: Double, metrics: ServiceMetrics, logger: Logger,
                claim: (@Sendable (_ message: String, _ url: String) throws -> Bool)? = nil,
                details: (@Sendable (_ type: String, _ data: JSONValue) -> (key: String, value: JSONValue)?)? = nil) {
        (self.subscriptions, self.metrics, self.logger, self.claim, self.details) = (subscriptions, metrics, logger, claim, details)
        self.retrySeconds = retrySeconds
        queues = subscriptions.indices.map { DispatchQueue(label: "themed-webhook-\($0)") }
    }

    /// The kind of webhook message an event of the server's stream is, or nil when webhooks carry
    /// none: a theme added or reloaded (in folder mode a file dropped, with a cluster store a
    /// release) is `release-published`; an alias's clients told to ask again, `alias-changed`; a
    /// rollout widened, halted or ended, `rollout-changed`.
    public static func type(of event: EventHub.Event) -> String? {
        switch event.type {
        case "theme-added", "theme-reloaded": "release-published"
        case "assignment-changed": "alias-changed"
        case "active-changed", "theme-error", "rollout-changed": event.type
        default: nil
        }
    }

    /// Sends `event` to every subscriber that asked for its kind: `{"type", "timestamp", "data"}`,
    /// the data as the event stream carries it. Its webhook id names the event (`msg_<id>_<kind>`).
    public func send(_ event: EventHub.Event) {
        guard let type = Self.type(of: event) else { return }
        send(type: type, id: "msg_\(event.id)_\(event.type)", data: event.data)
    }

    /// Sends a message of `type` with `data` to every subscriber that asked for it, under the
    /// webhook id `id` (what the event stream does not carry: drafts, `msg_draft_<id>_...`).
    public func send(type: String, id: String, data: JSONValue) {
        let now = Date()
        let details = self.details
        // The same bytes (and so the same signature) for every subscriber and every try.
        let message = OnceMade { () -> StandardWebhook in
            var data = data
            if case .object(let members) = data, let (key, value) = details?(type, data) { data = .object(members + [(key, value)]) }
            let body = JSONValue.object([("type", .string(type)), ("timestamp", .string(ISO8601DateFormatter().string(from: now))),
                                         ("data", data)]).serializedBytes()
            return StandardWebhook(id: id, timestamp: Int(now.timeIntervalSince1970), body: body)
        }
        for (index, subscription) in subscriptions.enumerated() where subscription.events.contains(type) {
            pending.add(1, ordering: .relaxed)
            queues[index].async { [self] in
                deliver(id: id, message, type: type, to: subscription)
                pending.subtract(1, ordering: .relaxed)
            }
        }
    }

    /// A value made the first time it is asked for, by whichever queue asks first.
    final class OnceMade<Value: Sendable>: Sendable {
        private let make: @Sendable () -> Value
        private let made = Mutex<Value?>(nil)
        init(_ make: @escaping @Sendable () -> Value) { self.make = make }
        var value: Value {
            made.withLock { made in
                if let made { return made }
                let value = make()
                made = value
                return value
            }
        }
    }

    /// Tries a message up to `attempts` times on the subscriber's queue (made once claimed: a
    /// replica that does not post it never works out its details).
    private func deliver(id: String, _ made: OnceMade<StandardWebhook>, type: String, to subscription: WebhookSubscription) {
        if let claim {
            do {
                guard try claim(id, subscription.url.absoluteString) else { return }
            } catch {
                logger.warning("webhook claim not made; posting anyway", metadata: ["id": "\(id)", "error": "\(error)"])
            }
        }
        let message = made.value
        var delay = retrySeconds
        var lastError = ""
        for attempt in 1...Self.attempts {
            if attempt > 1 {
                metrics.webhooksRetried.add(1, ordering: .relaxed)
                Thread.sleep(forTimeInterval: delay)
                delay *= 2
            }
            switch Self.post(message, to: subscription) {
            case .success:
                metrics.webhooksDelivered.add(1, ordering: .relaxed)
                return
            case .failure(let error):
                lastError = error.description
            }
        }
        metrics.webhooksFailed.add(1, ordering: .relaxed)
        logger.warning("webhook not delivered", metadata: ["url": "\(subscription.url)", "id": "\(message.id)", "error": "\(lastError)"])
        let failure = Failure(id: message.id, type: type, url: subscription.url.absoluteString, attempts: Self.attempts, error: lastError, at: Date())
        failed.withLock { list in
            list.append(failure)
            if list.count > Self.failuresKept { list.removeFirst(list.count - Self.failuresKept) }
        }
    }

    struct PostError: Error, CustomStringConvertible { var description: String }

    /// One POST, waited for (this is the subscriber's queue, never an event loop).
    static func post(_ message: StandardWebhook, to subscription: WebhookSubscription) -> Result<Void, PostError> {
        var request = URLRequest(url: subscription.url, timeoutInterval: 10)
        request.httpMethod = "POST"
        for (name, value) in message.headers(key: subscription.key) { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(message.body)
        let outcome = Mutex<Result<Void, PostError>>(.failure(PostError(description: "no answer")))
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { _, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode
            outcome.withLock { result in
                if let error { result = .failure(PostError(description: error.localizedDescription)) }
                else if let status, (200..<300).contains(status) { result = .success(()) }
                else { result = .failure(PostError(description: "answered \(status.map(String.init) ?? "nothing")")) }
            }
            done.signal()
        }.resume()
        done.wait()
        return outcome.withLock { $0 }
    }

    /// The messages not delivered after every try, oldest first.
    public var failures: [Failure] { failed.withLock { $0 } }
    /// Messages queued or being tried.
    public var pendingCount: Int { pending.load(ordering: .relaxed) }
}
