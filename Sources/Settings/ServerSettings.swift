import Foundation
import ImageCoders
import Logging
import Sharding
import ThemeVocabulary

/// The daemon's settings: defaults, overridden by the config file, overridden by flags. Each
/// value remembers where it came from, for `themed config check`.
public struct ServerSettings: Equatable, Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var themes = "themes"
    public var db = "var/themed.sqlite"
    public var blobs = "var/blobs"
    public var blobGraceSeconds = 3600.0
    public var maxConnections = 1024
    public var headerTimeoutSeconds = 10.0
    public var bodyTimeoutSeconds = 30.0
    public var idleTimeoutSeconds = 60.0
    public var minimumSendRate = 1024
    public var sendGraceSeconds = 10.0
    public var loopYieldAfterMicroseconds = 1000
    public var loopIdleMicroseconds = 100
    public var decodeThreads = 0
    public var responseCacheBytes = 64 << 20
    public var atlasCacheBytes = 128 << 20
    public var catalogCacheBytes = 1 << 30
    public var decodeMemoryBytes = 64 << 20
    public var imageMaxDimension = 4096
    public var imageMaxPixels = 40_000_000
    public var activeToken: String?
    /// Whether a loopback client without a token is the operator; nil: `loopbackIsOperator` decides.
    public var operatorLoopback: Bool?
    public var cluster: String?
    public var clusterUnreachableSeconds = 30.0
    public var shard: Shard?
    public var releaseRetention = 20
    public var releaseMaxBytes = 256 << 20
    public var purgeURLs: [String] = []
    public var webhooks: [WebhookSubscription] = []
    public var webhookRetrySeconds = 1.0
    public var watch = true
    public var heartbeatSeconds = 15.0
    public var eventHistory = 256
    public var eventRefetchRate = 2_000
    public var derivedImageBytes = 512 << 20
    public var transformConcurrency = 0
    public var transformQueue = 64
    public var imageTransforms = ImageTransformRule.open
    public var imagePresets: [String: ImagePreset] = [:]
    public var imageSigningKeys: [String] = []
    public var maxAgeSeconds = 60
    public var sharedMaxAgeSeconds = 300
    public var staleWhileRevalidateSeconds = 60
    public var logFormat = LogFormat.text
    public var logLevel = Logger.Level.info
    public var accessLog: String?
    public var corsAllowedOrigins = ["*"]
    /// Proxies whose X-Forwarded-For is believed (addresses or CIDR networks; checked by `TrustedProxies`).
    public var trustedProxies: [String] = []

    public enum LogFormat: String, Sendable, CaseIterable {
        case text, json
    }

    /// Whether a client on the loopback interface may change the active theme, aliases and
    /// rollouts without a token. Secure by default: only a server that has no tokens at all (no
    /// `activeToken`, no cluster store, whose teams' tokens would otherwise be bypassed) trusts
    /// loopback, unless `operatorLoopback` says otherwise.
    public var loopbackIsOperator: Bool {
        operatorLoopback ?? (activeToken == nil && cluster == nil)
    }

    /// Where each value that is not a default came from: a config file's path or a flag.
    public var sources: [String: String] = [:]

    public init() {}

    /// A setting that cannot be used, naming the key (or file) and why.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// Reads a JSON config file; an unknown key, a wrong type or a value out of range is an error
    /// that names the key.
    public mutating func apply(configFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw Invalid(description: "\(path): cannot be read") }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch { throw Invalid(description: "\(path): not valid JSON") }
        guard let values = object as? [String: Any] else { throw Invalid(description: "\(path): top level is not an object") }
        for key in values.keys.sorted() {
            guard let setting = Self.setting(named: key) else {
                let hint = Spelling.nearest(to: key, among: Self.all.map(\.name)).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw Invalid(description: "\(path): unknown setting \"\(key)\"\(hint)")
            }
            do {
                try setting.assign(&self, values[key] as Any)
            } catch let error as Invalid {
                throw Invalid(description: "\(path): \"\(key)\" \(error.description)")
            }
            sources[key] = path
        }
    }

    /// Sets `key` from a command-line flag (already typed by the parser).
    public mutating func apply(flag: String, key: String, _ value: Any) throws {
        guard let setting = Self.setting(named: key) else { throw Invalid(description: "\(flag): no setting \"\(key)\"") }
        do {
            try setting.assign(&self, value)
        } catch let error as Invalid {
            throw Invalid(description: "\(flag) \(error.description)")
        }
        sources[key] = flag
    }

    /// Every setting with its value (as JSON) and where it came from, one per line.
    public var report: String {
        Self.all.map { setting in
            let value = setting.show(self)
            return "\(setting.name) = \(value)".padding(toLength: max(44, setting.name.count + value.count + 4), withPad: " ", startingAt: 0)
                + "# \(sources[setting.name] ?? "default")"
        }.joined(separator: "\n")
    }

    static func setting(named name: String) -> Setting? {
        all.first { $0.name == name }
    }
}
