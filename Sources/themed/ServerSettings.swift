import Foundation

/// The daemon's settings: defaults, overridden by the config file, overridden by flags.
struct ServerSettings: Equatable {
    var host = "127.0.0.1"
    var port = 8080
    var themes = "themes"
    var db = "var/themed.sqlite"
    /// The blob store: encoded images and data, and compressed answers, under their SHA-256.
    var blobs = "var/blobs"
    /// How long a blob no theme references any more is kept (clients and CDNs may hold its URL).
    var blobGraceSeconds = 3600.0
    var maxConnections = 1024
    var headerTimeoutSeconds = 10.0
    var bodyTimeoutSeconds = 30.0
    var idleTimeoutSeconds = 60.0
    var minimumSendRate = 1024
    var sendGraceSeconds = 10.0
    var decodeThreads = 0
    /// Byte budgets of the caches.
    var responseCacheBytes = 64 << 20
    var atlasCacheBytes = 128 << 20
    var catalogCacheBytes = 1 << 30
    /// Working memory of the decodes and encodes under way (not a cache: what is being made).
    var decodeMemoryBytes = 64 << 20
    /// Token that `PUT /active` must present; nil: loopback clients only.
    var activeToken: String?
    var watch = true
    var heartbeatSeconds = 15.0
    /// `Cache-Control` of name routes: browsers, shared caches, serving stale while revalidating.
    var maxAgeSeconds = 60
    var sharedMaxAgeSeconds = 300
    var staleWhileRevalidateSeconds = 60

    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads a JSON config file; unknown keys and wrong types are errors naming the key.
    mutating func apply(configFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw Invalid(description: "\(path): cannot be read") }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch { throw Invalid(description: "\(path): not valid JSON") }
        guard let values = object as? [String: Any] else { throw Invalid(description: "\(path): top level is not an object") }
        for (key, value) in values {
            func string() throws -> String {
                guard let text = value as? String, !text.isEmpty else { throw Invalid(description: "\(path): \"\(key)\" must be a non-empty string") }
                return text
            }
            func number(_ range: ClosedRange<Double>) throws -> Double {
                guard let number = value as? NSNumber, !(value is Bool), range.contains(number.doubleValue) else {
                    throw Invalid(description: "\(path): \"\(key)\" must be a number in \(range.lowerBound)...\(range.upperBound)")
                }
                return number.doubleValue
            }
            switch key {
            case "host": host = try string()
            case "port": port = Int(try number(0...65535))
            case "themes": themes = try string()
            case "db": db = try string()
            case "blobs": blobs = try string()
            case "blobGraceSeconds": blobGraceSeconds = try number(0...31_536_000)
            case "maxAgeSeconds": maxAgeSeconds = Int(try number(0...31_536_000))
            case "sharedMaxAgeSeconds": sharedMaxAgeSeconds = Int(try number(0...31_536_000))
            case "staleWhileRevalidateSeconds": staleWhileRevalidateSeconds = Int(try number(0...31_536_000))
            case "maxConnections": maxConnections = Int(try number(1...100_000))
            case "headerTimeoutSeconds": headerTimeoutSeconds = try number(0.1...3600)
            case "idleTimeoutSeconds": idleTimeoutSeconds = try number(0.1...86400)
            case "bodyTimeoutSeconds": bodyTimeoutSeconds = try number(0.1...3600)
            case "minimumSendRate": minimumSendRate = Int(try number(0...1_000_000_000))
            case "sendGraceSeconds": sendGraceSeconds = try number(0.1...3600)
            case "decodeThreads": decodeThreads = Int(try number(0...256))
            case "responseCacheBytes": responseCacheBytes = Int(try number(0...1e12))
            case "atlasCacheBytes": atlasCacheBytes = Int(try number(0...1e12))
            case "catalogCacheBytes": catalogCacheBytes = Int(try number(0...1e12))
            case "decodeMemoryBytes": decodeMemoryBytes = Int(try number(0...1e12))
            case "activeToken": activeToken = try string()
            case "heartbeatSeconds": heartbeatSeconds = try number(0.1...3600)
            case "watch":
                guard let flag = value as? Bool else { throw Invalid(description: "\(path): \"watch\" must be true or false") }
                watch = flag
            default: throw Invalid(description: "\(path): unknown setting \"\(key)\"")
            }
        }
    }
}
