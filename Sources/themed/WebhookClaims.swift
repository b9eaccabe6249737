import Cluster
import Synchronization

/// With a cluster store, the connection webhook claims go through (`ClusterStore.claimWebhook`):
/// opened when first needed, and again after one fails.
final class WebhookClaims: Sendable {
    let url: String
    private let store = Mutex<ClusterStore?>(nil)

    init(url: String) { self.url = url }

    /// What `WebhookDispatcher` asks before it posts a message to a subscriber.
    var claim: @Sendable (_ message: String, _ subscriber: String) throws -> Bool {
        { [self] message, subscriber in try claim(message, for: subscriber) }
    }

    private func claim(_ message: String, for subscriber: String) throws -> Bool {
        try store.withLock { kept in
            let current = try kept ?? ClusterStore(url: url)
            do {
                let claimed = try current.claimWebhook(message: message, url: subscriber)
                kept = current
                return claimed
            } catch {
                kept = nil
                throw error
            }
        }
    }
}
