import Foundation

/// One entry of the `webhooks` setting: where changes are posted, the secret they are signed
/// with (Standard Webhooks' `whsec_` and base64 form), and which kinds of change it wants.
public struct WebhookSubscription: Sendable, Equatable {
    /// The kinds of change a webhook may ask for. `draft-created` and `draft-approved` name the
    /// review flow's drafts, which this server does not make yet: asked for, they are never sent.
    public static let events = ["release-published", "draft-created", "draft-approved", "rollout-changed", "alias-changed", "active-changed", "theme-error"]

    public var url: URL
    /// The key HMAC-SHA-256 signs with: the secret's bytes after `whsec_`, base64-decoded.
    public var key: [UInt8]
    public var events: Set<String>

    public init(url: URL, key: [UInt8], events: Set<String>) {
        (self.url, self.key, self.events) = (url, key, events)
    }

    /// `{"url": "https://...", "secret": "whsec_...", "events": ["release-published", ...]}`.
    init(json value: Any, at index: Int) throws(ServerSettings.Invalid) {
        let place = "webhooks[\(index)]"
        guard let fields = value as? [String: Any] else { throw ServerSettings.Invalid(description: "\(place) must be an object of url, secret and events") }
        if let unknown = Set(fields.keys).subtracting(["url", "secret", "events"]).sorted().first {
            throw ServerSettings.Invalid(description: "\(place) has no key \"\(unknown)\" (it takes url, secret and events)")
        }
        guard let text = fields["url"] as? String, let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
              url.host?.isEmpty == false else {
            throw ServerSettings.Invalid(description: "\(place).url must be an http or https URL")
        }
        guard let secret = fields["secret"] as? String, secret.hasPrefix("whsec_"), let key = Data(base64Encoded: String(secret.dropFirst(6))),
              key.count >= 16 else {
            throw ServerSettings.Invalid(description: "\(place).secret must be whsec_ and at least 16 bytes in base64 (as Standard Webhooks make them)")
        }
        guard let events = fields["events"] as? [String], !events.isEmpty else {
            throw ServerSettings.Invalid(description: "\(place).events must list at least one of \(Self.events.joined(separator: ", "))")
        }
        if let unknown = events.first(where: { !Self.events.contains($0) }) {
            throw ServerSettings.Invalid(description: "\(place).events: \"\(unknown)\" is not one of \(Self.events.joined(separator: ", "))")
        }
        self.init(url: url, key: Array(key), events: Set(events))
    }
}
