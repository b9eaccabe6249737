import JSON
import ThemeVocabulary

/// What a change does to a theme's contrast pairs (`themed diff`): each pair and mode whose ratio
/// moved, before and after, and whether it crossed its minimum: a pair that now fails is what a
/// reviewer must see first.
public struct ContrastDiff: Sendable {
    public struct Change: Sendable {
        public var check: ContrastReport.Check
        public var before: Double?
        public var after: Double?
        /// Passed before and fails now (a colour gone is a failure).
        public var breaks: Bool
        /// Failed before and passes now.
        public var mends: Bool
    }

    public let changes: [Change]
    public var broken: [Change] { changes.filter(\.breaks) }

    /// The pairs of `after` (theme.json's as the change leaves it), compared mode by mode with
    /// the same pairs in `before`; a ratio moves when it does to the hundredth.
    public init(from before: ContrastReport, to after: ContrastReport) {
        var old: [String: ContrastReport.Check] = [:]
        for check in before.checks { old[Self.key(check)] = check }
        changes = after.checks.compactMap { check in
            let was = old[Self.key(check)]
            let (a, b) = (was?.ratio.map(Self.hundredths), check.ratio.map(Self.hundredths))
            guard a != b else { return nil }
            return Change(check: check, before: was?.ratio, after: check.ratio, breaks: (was?.passes ?? true) && !check.passes,
                          mends: was.map { !$0.passes } ?? false && check.passes)
        }
    }

    private static func key(_ check: ContrastReport.Check) -> String { "\(check.pair.foreground)\u{0}\(check.pair.background)\u{0}\(check.mode.name)" }
    private static func hundredths(_ ratio: Double) -> Double { (ratio * 100).rounded() / 100 }

    /// `label over background in dark: 4.6 -> 4.43 (below 4.5)`.
    public static func describe(_ change: Change) -> String {
        func ratio(_ value: Double?) -> String { value.map { ThemeSettings.ContrastPair.format($0) } ?? "-" }
        let pair = change.check.pair
        let note = change.breaks ? " (now below \(ratio(pair.minimum)))" : change.mends ? " (now at least \(ratio(pair.minimum)))" : ""
        return "\(pair.foreground) over \(pair.background) in \(change.check.mode.name): \(ratio(change.before)) -> \(ratio(change.after))\(note)"
    }

    /// For a pull request comment, after the colours: the pairs that now fail first.
    public var markdown: String {
        guard !changes.isEmpty else { return "" }
        var lines = ["", "**Contrast**: \(changes.count) pair\(changes.count == 1 ? "" : "s") moved, \(broken.count) now below \(broken.count == 1 ? "its" : "their") minimum",
                     "", "| pair | mode | before | after | |", "|---|---|---|---|---|"]
        func ratio(_ value: Double?) -> String { value.map { ThemeSettings.ContrastPair.format($0) + ":1" } ?? "–" }
        for change in changes.filter(\.breaks) + changes.filter({ !$0.breaks }) {
            let pair = change.check.pair
            let note = change.breaks ? "**below \(ThemeSettings.ContrastPair.format(pair.minimum))**" : change.mends ? "mended" : ""
            lines.append("| `\(pair.foreground)` over `\(pair.background)` | \(change.check.mode.name) | \(ratio(change.before)) | \(ratio(change.after)) | \(note) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A moved ratio as JSON, each to the hundredth (null where a colour was missing).
    struct Body: Encodable {
        var foreground: String
        var background: String
        var mode: String
        var minimum: Double
        @Nullable var before: Double?
        @Nullable var after: Double?
        var breaks: Bool
        var mends: Bool
    }
}

/// The moved ratios, as a list.
extension ContrastDiff: Encodable {
    public func encode(to encoder: any Encoder) throws {
        try changes.map { change in
            Body(foreground: change.check.pair.foreground, background: change.check.pair.background, mode: change.check.mode.name,
                 minimum: change.check.pair.minimum, before: change.before.map(Self.hundredths), after: change.after.map(Self.hundredths),
                 breaks: change.breaks, mends: change.mends)
        }.encode(to: encoder)
    }
}
