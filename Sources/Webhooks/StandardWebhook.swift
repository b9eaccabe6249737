import Foundation
import Hashing

/// A change as Standard Webhooks (standardwebhooks.com) post it: a JSON body and three headers,
/// `webhook-id` (the same for every try of one message, so a receiver can drop a repeat),
/// `webhook-timestamp` (seconds since 1970) and `webhook-signature`: `v1,` and the base64
/// HMAC-SHA-256 of `id.timestamp.body` under the subscription's key.
public struct StandardWebhook: Sendable, Equatable {
    public var id: String
    public var timestamp: Int
    public var body: [UInt8]

    public init(id: String, timestamp: Int, body: [UInt8]) {
        (self.id, self.timestamp, self.body) = (id, timestamp, body)
    }

    public func signature(key: [UInt8]) -> String {
        let signed = Array("\(id).\(timestamp).".utf8) + body
        return "v1," + Data(HMAC.sha256(key: key, message: signed)).base64EncodedString()
    }

    public func headers(key: [UInt8]) -> [(String, String)] {
        [("content-type", "application/json"), ("webhook-id", id), ("webhook-timestamp", String(timestamp)), ("webhook-signature", signature(key: key))]
    }
}
