import Hashing
import ThemeVocabulary

/// A release sent to a share of clients: `generation` to `percent` of them, the generation that
/// was current before to the rest (and to every request without an assignment) until the share
/// reaches 100. Sticky: a client's bucket depends only on the theme, the rollout's seed and its
/// id, so raising the share keeps everyone who was in, and every replica places a client alike
/// with nothing shared but the rollout itself.
public struct Rollout: Sendable, Equatable {
    public var theme: String
    public var generation: Generation
    public var previous: Generation
    /// 0 to 100, in hundredths (12.5 is 1250 basis points).
    public var basisPoints: Int
    public var seed: String

    public init(theme: String, generation: Generation, previous: Generation, percent: Double, seed: String) throws(AudienceError) {
        guard percent.isFinite, (0...100).contains(percent) else { throw AudienceError("percent must be from 0 to 100") }
        guard generation > 0, previous > 0, generation != previous else {
            throw AudienceError("a rollout sends a generation other than the current one (\(previous))")
        }
        (self.theme, self.generation, self.previous, self.seed) = (theme, generation, previous, seed)
        basisPoints = Int((percent * 100).rounded())
    }

    public var percent: Double { Double(basisPoints) / 100 }

    /// The client's place among 10,000 buckets: the first 8 bytes of SHA-256("theme:seed:client").
    public func bucket(of client: String) -> Int {
        let digest = ContentHash.of(Array("\(theme):\(seed):\(client)".utf8)).bytes
        let number = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(number % 10_000)
    }

    /// Whether the client gets the new generation.
    public func includes(_ client: String) -> Bool { bucket(of: client) < basisPoints }
}

/// A client's answer: which theme and generation to read, and why.
public struct Assignment: Sendable, Equatable {
    /// What decided it, in few values (a label in /metrics).
    public enum Kind: String, Sendable {
        case `default`, rule, pinned
        case rolloutIn = "rollout-in", rolloutOut = "rollout-out"
    }

    public var alias: String
    public var theme: String
    public var generation: Generation
    public var kind: Kind
    /// What decided it, in words: the rule and its audience, the rollout and the bucket.
    public var reason: String

    /// Where the client reads everything: generation-pinned, so a cache may keep it for good.
    public var base: String { "/themes/\(theme)@\(generation)" }
}

/// Assignments worked out in memory from aliases, rollouts and the generation each theme serves:
/// no query per request. A value: the service swaps in a new one when any of them changes.
public struct Assigner: Sendable {
    public var aliases: [String: Alias]
    public var rollouts: [String: Rollout]
    /// The generation each theme serves now (without a rollout, or to those outside one).
    public var generations: [String: Generation]

    public init(aliases: [String: Alias] = [:], rollouts: [String: Rollout] = [:], generations: [String: Generation] = [:]) {
        (self.aliases, self.rollouts, self.generations) = (aliases, rollouts, generations)
    }

    public enum Failure: Error, Equatable, Sendable {
        case noSuchAlias(String)
        /// The alias points at a theme that is not served.
        case themeGone(alias: String, theme: String)
    }

    /// The assignment of `client` for `alias`: the first rule that takes it, else the alias's
    /// theme; then the theme's rollout, if any, by the client's bucket.
    public func assign(_ alias: String, to client: Client) throws(Failure) -> Assignment {
        guard let pointer = aliases[alias] else { throw .noSuchAlias(alias) }
        var (theme, pinned, kind, reason) = (pointer.theme, pointer.generation, Assignment.Kind.default, "default")
        if let index = pointer.rules.firstIndex(where: { $0.audience.contains(client) }) {
            let rule = pointer.rules[index]
            (theme, pinned, kind, reason) = (rule.theme, rule.generation, .rule, "rule \(index + 1) (\(rule.audience.summary))")
        }
        if let pinned { return Assignment(alias: alias, theme: theme, generation: pinned, kind: .pinned, reason: reason + ", pinned") }
        if let rollout = rollouts[theme] {
            let bucket = rollout.bucket(of: client.id)
            let inside = bucket < rollout.basisPoints
            return Assignment(alias: alias, theme: theme, generation: inside ? rollout.generation : rollout.previous, kind: inside ? .rolloutIn : .rolloutOut,
                              reason: reason + ", rollout of \(rollout.generation) at \(rollout.percent.formatted)%: bucket \(bucket) \(inside ? "in" : "out")")
        }
        guard let generation = generations[theme] else { throw .themeGone(alias: alias, theme: theme) }
        return Assignment(alias: alias, theme: theme, generation: generation, kind: kind, reason: reason)
    }
}

extension Double {
    /// 10, 12.5: no trailing ".0".
    var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}
