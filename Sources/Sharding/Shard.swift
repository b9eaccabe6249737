import Hashing
import ThemeVocabulary

/// One replica group's share of a platform's themes: shard `number` of `count` ("2/8").
///
/// The rule (rendezvous hashing, docs/DEPLOY.md "Shards"): each shard scores a theme by the
/// SHA-256 of "<shard>:<theme>", its last four bytes read as a little-endian number, and the
/// highest score owns the theme (a tie goes to the lower shard number). That number is what
/// Varnish's `directors.shard().key("<shard>:<theme>")` returns, so the VCL in front computes the
/// same owner as the replicas without a table. Adding a shard moves only the themes the new
/// shard wins; the others keep their owner.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1...count.
    public let number: Int
    public let count: Int

    /// At most this many shards: a theme's owner is found by scoring every shard.
    public static let maximumCount = 1024

    public init?(number: Int, count: Int) {
        guard (1...Self.maximumCount).contains(count), (1...count).contains(number) else { return nil }
        self.init(checked: number, count: count)
    }

    /// Reads "2/8".
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let number = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(number: number, count: count)
    }

    public var description: String { "\(number)/\(count)" }

    /// The shard of this one's count that owns `theme`.
    public func owner(of theme: String) -> Shard {
        var best = (number: 1, score: Self.score(of: theme, on: 1))
        for number in stride(from: 2, through: count, by: 1) {
            let score = Self.score(of: theme, on: number)
            if score > best.score { best = (number, score) }
        }
        return Shard(checked: best.number, count: count)
    }

    private init(checked number: Int, count: Int) {
        (self.number, self.count) = (number, count)
    }

    /// Whether this shard serves `theme` (a kept generation of a theme, `brand@43`, goes with it).
    public func owns(_ theme: String) -> Bool { owner(of: ThemeName.pin(in: theme)?.theme ?? theme) == self }

    /// `theme`'s score on shard `number`: Varnish's `key("<number>:<theme>")`.
    public static func score(of theme: String, on number: Int) -> UInt32 {
        let digest = ContentHash.of(Array("\(number):\(theme)".utf8)).bytes
        return digest[28...31].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The themes a replica of this shard holds among `themes`: those it owns and their
    /// ancestors (a child resolves through its parent, so the parent's files must be here too,
    /// though another shard serves the parent itself). `parent` names a theme's parent, if any;
    /// an ancestor outside `themes` is included (the caller fetches it), a cycle ends the walk.
    public func themesToHold(among themes: some Sequence<String>, parent: (String) -> String?) -> Set<String> {
        var held = Set<String>()
        for theme in themes where owns(theme) {
            var next: String? = theme
            while let name = next, held.insert(name).inserted {
                next = parent(name)
            }
        }
        return held
    }
}
