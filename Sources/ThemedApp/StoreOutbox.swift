import Cluster
import Foundation
import JSON
import Synchronization
import Webhooks

/// The webhooks' outbox in the cluster store (`ClusterStore`'s `themed_webhook_*` tables), shared
/// by the replicas. Messages are kept, and the lists read, through one connection; each subscriber
/// has a connection of its own, which holds its turn (a lock that ends with the connection, so a
/// replica that stops lets another post in its place). A connection that fails is opened again
/// when next needed.
final class StoreOutbox: WebhookOutbox {
    let url: String
    private let shared = KeptConnection()
    private let turns: [String: KeptConnection]

    init(url: String, subscribers: [String]) {
        self.url = url
        turns = Dictionary(subscribers.map { ($0, KeptConnection()) }, uniquingKeysWith: { first, _ in first })
    }

    /// A connection opened when first needed and dropped when it fails, with whether it holds its
    /// subscriber's turn.
    final class KeptConnection: Sendable {
        private let state = Mutex<(store: ClusterStore, hasTurn: Bool)?>(nil)

        func use<Result>(_ url: String, _ body: (any WebhookOutboxStore, inout Bool) throws -> Result) throws -> Result {
            try state.withLock { kept in
                var (store, hasTurn) = try kept ?? (ClusterStore(url: url), false)
                do {
                    let result = try body(store, &hasTurn)
                    kept = (store, hasTurn)
                    return result
                } catch {
                    kept = nil
                    throw error
                }
            }
        }
    }

    func keep(id: String, type: String, data: JSONValue) throws {
        try shared.use(url) { store, _ in try store.keepWebhook(id: id, type: type, data: data.serialized(), keptAt: Int(Date().timeIntervalSince1970)) }
    }

    func next(for subscriber: String, types: Set<String>, limit: Int) throws -> [OutboxMessage]? {
        guard let turn = turns[subscriber] else { return nil }
        return try turn.use(url) { store, hasTurn in
            if !hasTurn { hasTurn = try store.takeWebhookTurn(url: subscriber) }
            guard hasTurn else { return nil }
            return try store.webhookMessages(for: subscriber, types: types.sorted(), limit: limit).map { message in
                OutboxMessage(sequence: message.sequence, id: message.id, type: message.type, keptAt: message.keptAt,
                              data: (try? JSONParser.parse(Array(message.data.utf8))) ?? .object([]), body: message.body.map { Array($0.utf8) })
            }
        }
    }

    func seal(_ message: OutboxMessage, body: [UInt8]) throws -> [UInt8] {
        try shared.use(url) { store, _ in Array(try store.sealWebhook(sequence: message.sequence, body: String(decoding: body, as: UTF8.self)).utf8) }
    }

    func done(_ message: OutboxMessage, for subscriber: String, failure: WebhookFailure?) throws {
        guard let turn = turns[subscriber] else { return }
        let stored = failure.map { ($0.id, $0.type, $0.url, $0.attempts, $0.error, $0.at.timeIntervalSince1970) }
        try turn.use(url) { store, _ in try store.webhookDone(sequence: message.sequence, url: subscriber, failure: stored) }
    }

    func failures() throws -> [WebhookFailure] {
        try shared.use(url) { store, _ in try store.webhookFailures(limit: WebhookDispatcher.failuresKept) }.map {
            WebhookFailure(id: $0.id, type: $0.type, url: $0.url, attempts: $0.attempts, error: $0.error, at: Date(timeIntervalSince1970: $0.at))
        }
    }

    func waiting(for subscribers: [(url: String, types: Set<String>)]) throws -> Int {
        try shared.use(url) { store, _ in
            try subscribers.reduce(0) { total, subscriber in total + (try store.webhooksWaiting(for: subscriber.url, types: subscriber.types.sorted())) }
        }
    }
}
