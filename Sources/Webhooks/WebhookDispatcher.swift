import CLinux
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JSON
import Logging
import Settings
import Synchronization
import ThemeServer

/// Posts changes to the `webhooks` setting's subscribers, off the event loops. A change is kept
/// in an outbox first (`WebhookOutbox`: in memory, or with a cluster store the store's, shared by
/// every replica); each subscriber has a thread of its own that posts the outbox's messages to it
/// in the order they were kept, so a subscriber that does not answer holds back only its own.
/// A message that fails (no answer in 10 s, or a status outside 2xx) is tried again after
/// `webhookRetrySeconds`, then twice as long each time, 5 tries in all; then it is listed at
/// `GET /webhooks/deliveries` and counted in `/metrics`, and the next one is posted. `shutdown`
/// keeps what was heard, cuts the posts under way short and ends the threads.
public final class WebhookDispatcher: Sendable {
    public static let attempts = 5
    /// Failures listed, newest kept.
    public static let failuresKept = 1000
    /// Messages read from the outbox at a time.
    static let batch = 32
    /// How long a subscriber's thread waits for a message this process keeps before it looks at
    /// the outbox again: for one another replica kept, or a turn a stopped replica let go of.
    static let idleSeconds = 1.0

    let subscriptions: [WebhookSubscription]
    /// Seconds before the second try; each later one waits twice as long as the one before.
    let retrySeconds: Double
    let outbox: any WebhookOutbox
    /// What a message of `type` carries beside the event's data (a release's diff against the one
    /// before it, `"diff"`), worked out once per message, when it is first posted; nil adds nothing.
    let details: (@Sendable (_ type: String, _ data: JSONValue) -> (key: String, value: JSONValue)?)?
    let metrics: ServiceMetrics
    let logger: Logger
    /// Keeps messages in the outbox one at a time, in the order this process heard of them.
    private let keeper = DispatchQueue(label: "themed-webhook-keeper")
    /// Signalled when a message is kept, one for each subscriber's thread.
    private let kept: [DispatchSemaphore]
    /// Posts go through a session of their own, which `shutdown` cancels.
    private let session = URLSession(configuration: .ephemeral)
    private let started = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    /// Signalled once, by `shutdown`: ends every wait between tries at once.
    private let stopped = DispatchSemaphore(value: 0)
    /// Left by each subscriber's thread as it ends.
    private let threads = DispatchGroup()

    /// Why a post ended without an outcome: the dispatcher is shutting down (the message stays in
    /// the outbox, unposted, for the next start or another replica).
    private struct Stopping: Error {}

    /// Posts what `outbox` (by default one in memory) holds once `start`ed; what is sent before
    /// waits in the outbox.
    public init(subscriptions: [WebhookSubscription], retrySeconds: Double, metrics: ServiceMetrics, logger: Logger, outbox: (any WebhookOutbox)? = nil,
                details: (@Sendable (_ type: String, _ data: JSONValue) -> (key: String, value: JSONValue)?)? = nil) {
        (self.subscriptions, self.metrics, self.logger, self.details) = (subscriptions, metrics, logger, details)
        self.retrySeconds = retrySeconds
        self.outbox = outbox ?? MemoryOutbox(subscribers: subscriptions.map { ($0.url.absoluteString, Set($0.events)) })
        kept = subscriptions.map { _ in DispatchSemaphore(value: 0) }
    }

    /// Starts a thread for each subscriber (a second call changes nothing).
    public func start() {
        guard !started.exchange(true, ordering: .sequentiallyConsistent) else { return }
        for (subscription, kept) in zip(subscriptions, kept) {
            threads.enter()
            let thread = Thread { [self] in
                themed_name_this_thread("themed-webhook")
                deliver(to: subscription, woken: kept)
                threads.leave()
            }
            thread.start()
        }
    }

    /// Stops posting, in order: no more waits between tries, every change heard so far kept in
    /// the outbox (with a cluster store, the store's: another replica or the next start posts
    /// it), the posts under way cancelled, and each subscriber's thread ended. True when every
    /// thread ended within `timeout`.
    @discardableResult
    public func shutdown(timeout: Duration = .seconds(5)) -> Bool {
        stopping.store(true, ordering: .sequentiallyConsistent)
        stopped.signal()
        keeper.sync {}
        kept.forEach { $0.signal() }
        session.invalidateAndCancel()
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return threads.wait(timeout: .now() + seconds) == .success
    }

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// Waits `seconds` between tries; false, at once, when the dispatcher is shutting down.
    private func pause(_ seconds: Double) -> Bool {
        guard stopped.wait(timeout: .now() + seconds) == .timedOut else {
            stopped.signal()  // for the next waiter: the signal stands until the process ends
            return false
        }
        return true
    }

    /// The kind of webhook message an event of the server's stream is, or nil when webhooks carry
    /// none: a theme added or reloaded (in folder mode a file dropped, with a cluster store a
    /// release) is `release-published`; an alias's clients told to ask again, `alias-changed`; a
    /// rollout widened, halted or ended, `rollout-changed`.
    public static func type(of event: EventHub.Event) -> String? {
        switch event.change {
        case .theme(.added, _), .theme(.reloaded, _): "release-published"
        case .assignmentChanged: "alias-changed"
        case .theme(.activated, _), .themeError, .rolloutChanged: event.type
        case .theme(.removed, _), .resync: nil
        }
    }

    /// Sends `event` to every subscriber that asked for its kind: `{"type", "timestamp", "data"}`,
    /// the data as the event stream carries it. Its webhook id names the event (`msg_<id>_<kind>`).
    public func send(_ event: EventHub.Event) {
        guard let type = Self.type(of: event) else { return }
        send(type: type, id: "msg_\(event.id)_\(event.type)", data: event.data)
    }

    /// Keeps a message of `type` with `data` for every subscriber that asked for its kind, under
    /// the webhook id `id` (what the event stream does not carry: drafts, `msg_draft_<id>_...`).
    /// A store that cannot be reached is asked again, as a failed post is; then the message is lost
    /// on this replica (logged and counted as failed), and kept only if another replica keeps it.
    public func send(type: String, id: String, data: JSONValue) {
        guard subscriptions.contains(where: { $0.events.contains(type) }) else { return }
        keeper.async { [self] in
            var delay = retrySeconds
            for attempt in 1...Self.attempts {
                do {
                    try outbox.keep(id: id, type: type, data: data)
                    kept.forEach { $0.signal() }
                    return
                } catch {
                    guard attempt < Self.attempts, pause(delay) else {
                        metrics.webhooksFailed.add(1, ordering: .relaxed)
                        logger.error("webhook message not kept", metadata: ["id": "\(id)", "error": "\(error)"])
                        return
                    }
                    delay *= 2
                }
            }
        }
    }

    /// A subscriber's thread: while this process has its turn, posts each message the outbox holds
    /// for it, oldest first, until `shutdown`.
    private func deliver(to subscription: WebhookSubscription, woken: DispatchSemaphore) {
        let url = subscription.url.absoluteString
        let types = Set(subscription.events)
        while !isStopping {
            let messages: [OutboxMessage]
            do {
                messages = try outbox.next(for: url, types: types, limit: Self.batch) ?? []
            } catch {
                logger.warning("webhook outbox not read", metadata: ["url": "\(url)", "error": "\(error)"])
                messages = []
            }
            if messages.isEmpty {
                _ = woken.wait(timeout: .now() + Self.idleSeconds)
                continue
            }
            do {
                for message in messages { try post(message, to: subscription) }
            } catch is Stopping {
                return
            } catch {
                // Read again from where the outbox says: the message may be posted twice (with the
                // same webhook-id), never skipped.
                logger.warning("webhook outbox not written", metadata: ["url": "\(url)", "error": "\(error)"])
                _ = woken.wait(timeout: .now() + Self.idleSeconds)
            }
        }
    }

    /// Posts a message up to `attempts` times; its body is made once, by whichever replica posts
    /// it first, so that every subscriber and every try gets the same bytes.
    private func post(_ message: OutboxMessage, to subscription: WebhookSubscription) throws {
        let body = try message.body ?? outbox.seal(message, body: body(of: message))
        var delay = retrySeconds
        var lastError = ""
        for attempt in 1...Self.attempts {
            if attempt > 1 {
                metrics.webhooksRetried.add(1, ordering: .relaxed)
                guard pause(delay) else { throw Stopping() }
                delay *= 2
            }
            // Signed at each try: a receiver refuses a timestamp more than five minutes off, and a
            // message may wait in the outbox longer than that.
            let signed = StandardWebhook(id: message.id, timestamp: Int(Date().timeIntervalSince1970), body: body)
            switch Self.post(signed, to: subscription, through: session) {
            case .success:
                metrics.webhooksDelivered.add(1, ordering: .relaxed)
                try outbox.done(message, for: subscription.url.absoluteString, failure: nil)
                return
            case .failure where isStopping:
                throw Stopping()
            case .failure(let error):
                lastError = error.description
            }
        }
        metrics.webhooksFailed.add(1, ordering: .relaxed)
        logger.warning("webhook not delivered", metadata: ["url": "\(subscription.url)", "id": "\(message.id)", "error": "\(lastError)"])
        try outbox.done(message, for: subscription.url.absoluteString,
                        failure: WebhookFailure(id: message.id, type: message.type, url: subscription.url.absoluteString, attempts: Self.attempts,
                                                error: lastError, at: Date()))
    }

    /// `{"type", "timestamp", "data"}`, the data with its details.
    private func body(of message: OutboxMessage) -> [UInt8] {
        var data = message.data
        if case .object(let members) = data, let (key, value) = details?(message.type, data) { data = .object(members + [(key, value)]) }
        let timestamp = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(message.keptAt)))
        return JSONValue.object([("type", .string(message.type)), ("timestamp", .string(timestamp)), ("data", data)]).serializedBytes()
    }

    struct PostError: Error, CustomStringConvertible { var description: String }

    /// One POST, waited for (this is the subscriber's queue, never an event loop).
    static func post(_ message: StandardWebhook, to subscription: WebhookSubscription, through session: URLSession) -> Result<Void, PostError> {
        var request = URLRequest(url: subscription.url, timeoutInterval: 10)
        request.httpMethod = "POST"
        for (name, value) in message.headers(key: subscription.key) { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(message.body)
        let outcome = Mutex<Result<Void, PostError>>(.failure(PostError(description: "no answer")))
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { _, response, error in
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
    public func failures() throws -> [WebhookFailure] { try outbox.failures() }
    /// Messages kept and not yet given to a subscriber that asked for them.
    public func waiting() throws -> Int {
        try outbox.waiting(for: subscriptions.map { ($0.url.absoluteString, Set($0.events)) })
    }
}
