import Foundation
import JSON
import Synchronization

/// A change waiting to be posted: kept once (its `id` names the change, so another replica's copy
/// of the same change is the same message), numbered in the order it was kept.
public struct OutboxMessage: Sendable, Equatable {
    /// Its place in the outbox: every subscriber gets messages in this order.
    public var sequence: Int64
    public var id: String
    public var type: String
    /// When the change was kept (seconds since 1970): the body's `timestamp`.
    public var keptAt: Int
    public var data: JSONValue
    /// The body as first posted, kept so that every subscriber and every try (on any replica)
    /// gets the same bytes; nil until then.
    public var body: [UInt8]?

    public init(sequence: Int64, id: String, type: String, keptAt: Int, data: JSONValue, body: [UInt8]? = nil) {
        (self.sequence, self.id, self.type, self.keptAt, self.data, self.body) = (sequence, id, type, keptAt, data, body)
    }
}

/// A message given up on after every try (the dead letters of `GET /webhooks/deliveries`).
public struct WebhookFailure: Sendable, Equatable {
    public var id: String
    public var type: String
    public var url: String
    public var attempts: Int
    public var error: String
    public var at: Date

    public init(id: String, type: String, url: String, attempts: Int, error: String, at: Date) {
        (self.id, self.type, self.url, self.attempts, self.error, self.at) = (id, type, url, attempts, error, at)
    }
}

/// Where messages wait for their subscribers: one list in the order messages were kept, and for
/// each subscriber the last message it was given. `WebhookDispatcher` keeps messages here and
/// posts from here, so that an outbox shared by replicas (the cluster store's) makes every
/// replica's subscribers get one copy of each change, in one order, and keeps what a stopped
/// process had not posted yet.
public protocol WebhookOutbox: Sendable {
    /// Keeps a message after every one kept before it, unless one with its id is kept already.
    func keep(id: String, type: String, data: JSONValue) throws
    /// The next messages of `types` for the subscriber at `url` (after the last one it was given),
    /// oldest first, at most `limit`; nil while another process posts to it (that process's turn
    /// holds until it stops).
    func next(for url: String, types: Set<String>, limit: Int) throws -> [OutboxMessage]?
    /// The body kept for `message`: `body` when none was kept yet.
    func seal(_ message: OutboxMessage, body: [UInt8]) throws -> [UInt8]
    /// The subscriber at `url` is done with `message`: taken, or given up on (`failure`).
    func done(_ message: OutboxMessage, for url: String, failure: WebhookFailure?) throws
    /// The messages given up on, oldest first (the newest `WebhookDispatcher.failuresKept`).
    func failures() throws -> [WebhookFailure]
    /// How many messages of their types the subscribers have not been given yet.
    func waiting(for subscribers: [(url: String, types: Set<String>)]) throws -> Int
}

/// The outbox of one process (no cluster store): in memory, so what is not posted when the
/// process stops is lost. A message leaves it once every subscriber is done with it.
public final class MemoryOutbox: WebhookOutbox {
    private struct State {
        var messages: [OutboxMessage] = []
        var nextSequence: Int64 = 1
        var given: [String: Int64] = [:]
        var failures: [WebhookFailure] = []
    }

    private let subscribers: [(url: String, types: Set<String>)]
    private let state = Mutex(State())

    /// An outbox for `subscribers`: a message is kept until each of them that wants its type is
    /// done with it.
    public init(subscribers: [(url: String, types: Set<String>)]) { self.subscribers = subscribers }

    public func keep(id: String, type: String, data: JSONValue) {
        state.withLock { state in
            guard !state.messages.contains(where: { $0.id == id }) else { return }
            state.messages.append(OutboxMessage(sequence: state.nextSequence, id: id, type: type, keptAt: Int(Date().timeIntervalSince1970), data: data))
            state.nextSequence += 1
        }
    }

    public func next(for url: String, types: Set<String>, limit: Int) -> [OutboxMessage]? {
        state.withLock { state in
            let given = state.given[url] ?? 0
            return Array(state.messages.lazy.filter { $0.sequence > given && types.contains($0.type) }.prefix(limit))
        }
    }

    public func seal(_ message: OutboxMessage, body: [UInt8]) -> [UInt8] {
        state.withLock { state in
            guard let index = state.messages.firstIndex(where: { $0.sequence == message.sequence }) else { return body }
            if let kept = state.messages[index].body { return kept }
            state.messages[index].body = body
            return body
        }
    }

    public func done(_ message: OutboxMessage, for url: String, failure: WebhookFailure?) {
        state.withLock { state in
            state.given[url] = max(state.given[url] ?? 0, message.sequence)
            if let failure {
                state.failures.append(failure)
                if state.failures.count > WebhookDispatcher.failuresKept { state.failures.removeFirst(state.failures.count - WebhookDispatcher.failuresKept) }
            }
            let given = state.given
            state.messages.removeAll { message in
                subscribers.allSatisfy { !$0.types.contains(message.type) || given[$0.url] ?? 0 >= message.sequence }
            }
        }
    }

    public func failures() -> [WebhookFailure] { state.withLock { $0.failures } }

    public func waiting(for subscribers: [(url: String, types: Set<String>)]) -> Int {
        state.withLock { state in
            subscribers.reduce(0) { total, subscriber in
                let given = state.given[subscriber.url] ?? 0
                return total + state.messages.count { $0.sequence > given && subscriber.types.contains($0.type) }
            }
        }
    }
}
