import Foundation
import HTTPServer
import ImageCoders
import Logging
import Sharding

/// One key of the configuration: its name, what it does, how a JSON value is checked and
/// stored, and how the value is shown. `ServerSettings.all` is the one list of keys: the config
/// reader, `themed config check` and the test that keeps docs/CONFIG.md complete all use it.
public struct Setting: Sendable {
    public let name: String
    public let summary: String
    let assign: @Sendable (inout ServerSettings, Any) throws -> Void
    let show: @Sendable (ServerSettings) -> String

    /// The value a fresh `ServerSettings` has, as JSON.
    public var defaultValue: String { show(ServerSettings()) }

    static func text(_ name: String, _ path: WritableKeyPath<ServerSettings, String> & Sendable, _ summary: String) -> Setting {
        Setting(name: name, summary: summary, assign: { $0[keyPath: path] = try nonEmptyString($1) }, show: { quoted($0[keyPath: path]) })
    }

    static func optionalText(_ name: String, _ path: WritableKeyPath<ServerSettings, String?> & Sendable, _ summary: String) -> Setting {
        Setting(name: name, summary: summary, assign: { $0[keyPath: path] = try nonEmptyString($1) },
                show: { $0[keyPath: path].map(quoted) ?? "null" })
    }

    static func shard(_ name: String, _ path: WritableKeyPath<ServerSettings, Shard?> & Sendable, _ summary: String) -> Setting {
        Setting(name: name, summary: summary, assign: { settings, value in
            guard let text = value as? String, let shard = Shard(text) else {
                throw ServerSettings.Invalid(description: "must be \"N/COUNT\" with 1 <= N <= COUNT <= \(Shard.maximumCount), such as \"2/8\"")
            }
            settings[keyPath: path] = shard
        }, show: { $0[keyPath: path].map { quoted($0.description) } ?? "null" })
    }

    static func seconds(_ name: String, _ path: WritableKeyPath<ServerSettings, Double> & Sendable, _ range: ClosedRange<Double>,
                        _ summary: String) -> Setting {
        Setting(name: name, summary: summary, assign: { $0[keyPath: path] = try number($1, range) }, show: { format($0[keyPath: path]) })
    }

    static func integer(_ name: String, _ path: WritableKeyPath<ServerSettings, Int> & Sendable, _ range: ClosedRange<Double>,
                        _ summary: String) -> Setting {
        Setting(name: name, summary: summary, assign: { settings, value in
            let number = try number(value, range)
            guard number.rounded() == number else { throw ServerSettings.Invalid(description: "must be a whole number") }
            settings[keyPath: path] = Int(number)
        }, show: { String($0[keyPath: path]) })
    }

    /// A list of strings; `check` refuses what its entries may not be (its error's description says why).
    static func textList(_ name: String, _ path: WritableKeyPath<ServerSettings, [String]> & Sendable, _ summary: String,
                         check: @escaping @Sendable ([String]) throws -> Void = { _ in }) -> Setting {
        Setting(name: name, summary: summary, assign: { settings, value in
            guard let list = value as? [Any], let texts = list as? [String], !texts.contains(where: \.isEmpty) else {
                throw ServerSettings.Invalid(description: "must be a list of non-empty strings")
            }
            do { try check(texts) } catch { throw ServerSettings.Invalid(description: "\(error)") }
            settings[keyPath: path] = texts
        }, show: { "[" + $0[keyPath: path].map(quoted).joined(separator: ", ") + "]" })
    }

    /// Named image transforms: an object of objects (`ImagePreset(json:)` says what each may hold).
    static func presets(_ name: String, _ path: WritableKeyPath<ServerSettings, [String: ImagePreset]> & Sendable, _ summary: String) -> Setting {
        Setting(name: name, summary: summary, assign: { settings, value in
            guard let object = value as? [String: Any] else { throw ServerSettings.Invalid(description: "must be an object of named presets") }
            var presets: [String: ImagePreset] = [:]
            for (preset, body) in object {
                guard !preset.isEmpty, preset.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                    throw ServerSettings.Invalid(description: "preset name \(quoted(preset)) may hold only letters, digits, - and _")
                }
                guard let fields = body as? [String: Any] else { throw ServerSettings.Invalid(description: "preset \(quoted(preset)) must be an object") }
                do { presets[preset] = try ImagePreset(json: fields, maxDimension: 65_536) } catch {
                    throw ServerSettings.Invalid(description: "preset \(quoted(preset)): \(error)")
                }
            }
            settings[keyPath: path] = presets
        }, show: { settings in
            settings[keyPath: path].isEmpty ? "{}" : "{" + settings[keyPath: path].keys.sorted().map { "\(quoted($0)): {...}" }.joined(separator: ", ") + "}"
        })
    }

    /// `[{"url", "secret", "events"}]`, each checked by `WebhookSubscription`; shown without secrets.
    static func webhooks(_ name: String, _ summary: String) -> Setting {
        Setting(name: name, summary: summary, assign: { settings, value in
            guard let list = value as? [Any] else { throw ServerSettings.Invalid(description: "must be a list of {url, secret, events}") }
            settings.webhooks = try list.enumerated().map { index, entry throws(ServerSettings.Invalid) in try WebhookSubscription(json: entry, at: index) }
        }, show: { settings in
            "[" + settings.webhooks.map { "{\"url\": \(quoted($0.url.absoluteString)), \"events\": [\($0.events.sorted().map(quoted).joined(separator: ", "))]}" }
                .joined(separator: ", ") + "]"
        })
    }

    static func flag(_ name: String, _ path: WritableKeyPath<ServerSettings, Bool> & Sendable, _ summary: String) -> Setting {
        Setting(name: name, summary: summary, assign: { settings, value in
            guard isBoolean(value), let flag = value as? Bool else { throw ServerSettings.Invalid(description: "must be true or false") }
            settings[keyPath: path] = flag
        }, show: { String($0[keyPath: path]) })
    }

    /// true, false, or null for the rule the code decides (`ServerSettings.loopbackIsOperator`).
    static func optionalFlag(_ name: String, _ path: WritableKeyPath<ServerSettings, Bool?> & Sendable, _ summary: String) -> Setting {
        Setting(name: name, summary: summary, assign: { settings, value in
            if value is NSNull { settings[keyPath: path] = nil; return }
            guard isBoolean(value), let flag = value as? Bool else { throw ServerSettings.Invalid(description: "must be true, false or null") }
            settings[keyPath: path] = flag
        }, show: { $0[keyPath: path].map { String($0) } ?? "null" })
    }

    static func choice<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ path: WritableKeyPath<ServerSettings, Choice> & Sendable, _ summary: String
    ) -> Setting where Choice.RawValue == String {
        Setting(name: name, summary: summary, assign: { settings, value in
            let names = Choice.allCases.map(\.rawValue)
            guard let text = value as? String, let choice = Choice(rawValue: text) else {
                throw ServerSettings.Invalid(description: "must be one of \(names.map(quoted).joined(separator: ", "))")
            }
            settings[keyPath: path] = choice
        }, show: { quoted($0[keyPath: path].rawValue) })
    }

    private static func nonEmptyString(_ value: Any) throws -> String {
        guard let text = value as? String, !text.isEmpty else { throw ServerSettings.Invalid(description: "must be a non-empty string") }
        return text
    }

    private static func number(_ value: Any, _ range: ClosedRange<Double>) throws -> Double {
        if !isBoolean(value), let number = (value as? NSNumber)?.doubleValue ?? (value as? Int).map(Double.init) ?? (value as? Double),
           range.contains(number) {
            return number
        }
        throw ServerSettings.Invalid(description: "must be a number in \(format(range.lowerBound))...\(format(range.upperBound))")
    }

    /// JSON's true and false arrive as NSNumbers that also cast to Int (and 1 casts to Bool):
    /// only their type code tells them from numbers.
    private static func isBoolean(_ value: Any) -> Bool {
        if type(of: value) == Bool.self { return true }
        guard let number = value as? NSNumber, type(of: value) != Int.self, type(of: value) != Double.self else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    private static func quoted(_ text: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\(text)\""
    }
}

extension ServerSettings {
    /// Every setting, in the order docs/CONFIG.md lists them.
    public static let all: [Setting] = [
        .text("host", \.host, "Address to listen on."),
        .integer("port", \.port, 0...65535, "Port to listen on (0 picks a free one)."),
        .text("themes", \.themes, "Folder of themes (must exist)."),
        .text("db", \.db, "SQLite index file (created if missing)."),
        .text("blobs", \.blobs, "Blob store folder: encoded images and data, compressed answers (created if missing)."),
        .seconds("blobGraceSeconds", \.blobGraceSeconds, 0...31_536_000, "How long a blob no theme references any more is kept."),
        .integer("maxConnections", \.maxConnections, 1...100_000, "Open connections at most; past it a new one gets 503."),
        .seconds("headerTimeoutSeconds", \.headerTimeoutSeconds, 0.1...3600, "A request head must arrive whole within this (a total); else 408."),
        .seconds("bodyTimeoutSeconds", \.bodyTimeoutSeconds, 0.1...3600, "A request body must arrive within this once the head is in; else 408."),
        .seconds("idleTimeoutSeconds", \.idleTimeoutSeconds, 0.1...86400, "A keep-alive connection with no request for this long is closed."),
        .integer("minimumSendRate", \.minimumSendRate, 0...1_000_000_000, "Bytes per second a client must read answers at, per window."),
        .seconds("sendGraceSeconds", \.sendGraceSeconds, 0.1...3600, "The window over which minimumSendRate is measured."),
        .integer("loopYieldAfterMicroseconds", \.loopYieldAfterMicroseconds, 0...1_000_000, "An event loop busy at every wake for this long hands its core over once its answers are written (sched_yield), so readers on the same cores run sooner; 0: never. docs/PERFORMANCE.md measures it beside wrk and beside CPU-bound neighbours."),
        .integer("loopIdleMicroseconds", \.loopIdleMicroseconds, 1...1_000_000, "A wait for events longer than this counts as the loop having been idle (its busy time starts again)."),
        .integer("decodeThreads", \.decodeThreads, 0...256, "Worker threads for decoding and encoding (0: one per core)."),
        .integer("responseCacheBytes", \.responseCacheBytes, 0...1e12, "Budget of the response cache (whole answers of lookups); each event loop's own copies of the answers it sends take up to an eighth more."),
        .integer("atlasCacheBytes", \.atlasCacheBytes, 0...1e12, "Budget of decoded packed atlases."),
        .integer("catalogCacheBytes", \.catalogCacheBytes, 0...1e12, "Budget of parsed catalogs: each counts its mapped file and about 1 KiB per parsed rendition."),
        .integer("decodeMemoryBytes", \.decodeMemoryBytes, 0...1e12, "Working memory of the decodes and encodes under way."),
        .integer("imageMaxDimension", \.imageMaxDimension, 1...65_536, "Largest w= or h= an image request may ask (larger: 400)."),
        .integer("derivedImageBytes", \.derivedImageBytes, 0...1e13, "Budget of the images transforms make (w=, h=, format=, q=, dpr=), on disk in blobs/derived, least recently used out first; the content themes reference is apart and never evicted. 0: transforms are not kept."),
        .integer("transformConcurrency", \.transformConcurrency, 0...256, "Transforms made at once (0: one per core); more wait in a queue of transformQueue."),
        .integer("transformQueue", \.transformQueue, 1...100_000, "Transforms that may wait for a free transformConcurrency slot; past it a transform is 503 with Retry-After, and cached answers keep their speed."),
        .choice("imageTransforms", \.imageTransforms, "Who may ask w=, h=, fit=, q= and format= of an image: \"open\" (anyone; the log warns when host is not loopback), \"signed\" (presets for anyone, the rest only with a valid sig=, see themed sign) or \"presets\" (presets only). A refused transform is 403."),
        .presets("imagePresets", \.imagePresets, "Named transforms anyone may ask as ?preset=NAME, e.g. {\"thumb\": {\"w\": 120, \"h\": 120, \"fit\": \"cover\", \"format\": \"webp\", \"q\": 80}}."),
        .textList("imageSigningKeys", \.imageSigningKeys, "Keys of sig= (HMAC-SHA-256 of the path and query): a signature by any of them is valid, so a new key can be added before the old one goes. At least 16 characters each.",
                  check: { keys in
                      if let short = keys.first(where: { $0.utf8.count < 16 }) { throw ServerSettings.Invalid(description: "key \(short.prefix(4))... is shorter than 16 characters") }
                  }),
        .integer("imageMaxPixels", \.imageMaxPixels, 1...1e10, "Most pixels an image may decode to or be made at; checked on its header (larger: 422)."),
        .optionalText("activeToken", \.activeToken, "The operator's bearer token: what PUT /active, aliases and rollouts need (with a cluster store, teams' tokens may too)."),
        .optionalFlag("operatorLoopback", \.operatorLoopback, "Whether a loopback client without a token is the operator. null: only without a cluster store and without activeToken. Never for a request forwarded (Forwarded, X-Forwarded-For) by a peer not in trustedProxies."),
        .optionalText("cluster", \.cluster, "PostgreSQL URL of the cluster store; set, the themes folder follows its releases (docs/DEPLOY.md)."),
        .shard("shard", \.shard, "This replica's share of the themes, \"N/COUNT\": it holds and serves only the themes shard N owns (and their ancestors); others get 421 (docs/DEPLOY.md \"Shards\")."),
        .seconds("clusterUnreachableSeconds", \.clusterUnreachableSeconds, 1...86400, "How long a starting replica waits for the cluster store before serving its folder as it is; past it, /healthz and /metrics show the store unreachable (serving and readiness go on)."),
        .integer("releaseRetention", \.releaseRetention, 1...100_000, "Releases kept per theme in the cluster store (plus anything scheduled); older ones and the blobs only they used are dropped."),
        .integer("releaseMaxBytes", \.releaseMaxBytes, 1...1e12, "Largest release upload (POST /themes/{theme}/releases) and the most an archive may unpack to; larger: 413."),
        .textList("purgeURLs", \.purgeURLs, "Caches (http://host:port, Varnish with xkey) sent PURGE with the theme's key when its content changes."),
        .webhooks("webhooks", "Where changes are posted, signed as Standard Webhooks sign them: [{\"url\": \"https://...\", \"secret\": \"whsec_...\", \"events\": [\"release-published\", \"alias-changed\", \"active-changed\", \"theme-error\"]}] (docs/REVIEW.md)."),
        .seconds("webhookRetrySeconds", \.webhookRetrySeconds, 0.01...3600, "A webhook that fails is tried again after this, then twice as long each time, 5 tries in all; then the delivery is listed at GET /webhooks/deliveries."),
        .flag("watch", \.watch, "Follow changes to the themes folder (inotify)."),
        .seconds("heartbeatSeconds", \.heartbeatSeconds, 0.1...3600, "Interval of the comment lines that keep /events streams open."),
        .integer("eventRefetchRate", \.eventRefetchRate, 1...1_000_000, "Refetches a second one change may set off: an event reaching more streams than this carries `refetchWithin` (milliseconds, at most 10 s), over which clients spread their refetches."),
        .integer("eventHistory", \.eventHistory, 1...1_000_000, "Change events kept for streams that reconnect with Last-Event-ID; with a cluster store, a starting replica loads the store's newest this many, so streams that move to it during a deploy resume instead of refetching."),
        .integer("maxAgeSeconds", \.maxAgeSeconds, 0...31_536_000, "Cache-Control max-age of name routes."),
        .integer("sharedMaxAgeSeconds", \.sharedMaxAgeSeconds, 0...31_536_000, "Cache-Control s-maxage of name routes (shared caches)."),
        .integer("staleWhileRevalidateSeconds", \.staleWhileRevalidateSeconds, 0...31_536_000, "Cache-Control stale-while-revalidate of name routes."),
        .choice("logFormat", \.logFormat, "Log lines as \"text\" or \"json\" (one object per line), on standard error."),
        .choice("logLevel", \.logLevel, "Least level logged."),
        .optionalText("accessLog", \.accessLog, "Access log: a file path, or \"-\" for standard output; unset: none."),
        .textList("trustedProxies", \.trustedProxies,
                  "Proxies in front (addresses or CIDR networks, e.g. [\"127.0.0.1\", \"10.0.0.0/8\"]) whose X-Forwarded-For names the client: what the failed-token limit and the operator's loopback check count.",
                  check: { entries in _ = try TrustedProxies(entries) }),
        .textList("corsAllowedOrigins", \.corsAllowedOrigins, "Origins whose pages may read the public routes (CORS); \"*\": any. Never the admin routes."),
    ]
}
