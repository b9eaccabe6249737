import ThemeExport
import ThemeIndex

/// A theme's colour changes as a reviewer reads them, by cause: a colour that changed the same way
/// in several modes and contexts is one change that names where; an alias that changed only
/// because the colour it names did is listed beside that colour (`reaches`), not as a change of its
/// own; a colour gone because its alias broke is the error it is, not a removal.
public struct ColorCauses: Sendable {
    /// One change: a colour from one value to another, wherever it made that move.
    public struct Cause: Sendable, Equatable {
        public var name: String
        /// The value's hex before and after (nil: none in that mode).
        public var before: String?
        public var after: String?
        public var modes: [ColorMode]
        /// The combinations of contexts chosen by name where it happened (`""`: the default one).
        public var contexts: [String]
        /// The aliases that made the same move because of it, nearest first.
        public var reaches: [String]
    }

    public let changes: [Cause]
    public let added: [String]
    public let removed: [String]
    /// Colours the change took away with an error of the theme's own: each name and the error.
    public let broken: [(name: String, error: String)]
    /// Every combination of contexts compared, the default (`""`) first.
    let contextsCompared: [String]

    /// `aliases`: each colour's alias target in the theme after the change; `errors`: its error lines.
    public init(colors: ColorDiff, byContexts: [(contexts: String, diff: ColorDiff)], aliases: [String: String], errors: [String]) {
        contextsCompared = [""] + byContexts.map(\.contexts)
        struct Key: Hashable { var name: String; var before: String?; var after: String? }
        var order: [Key] = []
        var found: [Key: (modes: [ColorMode], contexts: [String])] = [:]
        for (contexts, diff) in [("", colors)] + byContexts.map({ ($0.contexts, $0.diff) }) {
            for change in diff.changed {
                for (mode, was, now) in change.modes {
                    let key = Key(name: change.name, before: was?.hex, after: now?.hex)
                    if found[key] == nil { order.append(key) }
                    var entry = found[key] ?? ([], [])
                    if !entry.modes.contains(mode) { entry.modes.append(mode) }
                    if !entry.contexts.contains(contexts) { entry.contexts.append(contexts) }
                    found[key] = entry
                }
            }
        }
        var causes = order.compactMap { key in
            found[key].map { Cause(name: key.name, before: key.before, after: key.after, modes: ColorMode.all.filter($0.modes.contains), contexts: $0.contexts, reaches: []) }
        }
        // An alias whose target made the same move goes with the target (through a chain of
        // aliases, with the first colour of it that changed on its own).
        let byName = Dictionary(grouping: causes.indices, by: { causes[$0].name })
        func root(of index: Int) -> Int {
            var current = index
            var seen: Set<Int> = [index]
            while let target = aliases[causes[current].name],
                  let next = byName[target]?.first(where: { causes[$0].before == causes[current].before && causes[$0].after == causes[current].after
                      && causes[$0].modes == causes[current].modes && causes[$0].contexts == causes[current].contexts }),
                  seen.insert(next).inserted {
                current = next
            }
            return current
        }
        var followers = Set<Int>()
        for index in causes.indices {
            let cause = root(of: index)
            if cause != index {
                causes[cause].reaches.append(causes[index].name)
                followers.insert(index)
            }
        }
        changes = causes.indices.filter { !followers.contains($0) }.map { causes[$0] }
        added = colors.added + byContexts.flatMap { entry in entry.diff.added.map { "\($0) (\(entry.contexts))" } }
        var removed: [String] = []
        var broken: [(String, String)] = []
        for name in colors.removed {
            let pointer = "#/" + name.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "/") + ":"
            if let error = errors.first(where: { $0.contains(pointer) }) { broken.append((name, error)) } else { removed.append(name) }
        }
        self.removed = removed + byContexts.flatMap { entry in entry.diff.removed.map { "\($0) (\(entry.contexts))" } }
        self.broken = broken
    }

    public var isEmpty: Bool { changes.isEmpty && added.isEmpty && removed.isEmpty && broken.isEmpty }

    /// `every mode`, or the modes (`light, light-high-contrast`), then the contexts where it is
    /// not the default alone (`(brand=portal)`, `(every context)`).
    public func place(of cause: Cause) -> String {
        let modes = cause.modes.count == ColorMode.all.count ? "every mode" : cause.modes.map(\.name).joined(separator: ", ")
        if cause.contexts == [""] { return modes }
        if contextsCompared.count > 1, Set(cause.contexts) == Set(contextsCompared) { return modes + " (every context)" }
        return modes + " (" + cause.contexts.map { $0.isEmpty ? "default" : $0 }.joined(separator: ", ") + ")"
    }

    /// A line each: `broken:`, `added:`, `removed:`, then `changed: NAME WHERE BEFORE -> AFTER; reaches ...`.
    public var lines: [String] {
        broken.map { "broken: \($0.name): \($0.error)" } + added.map { "added: \($0)" } + removed.map { "removed: \($0)" }
            + changes.map { cause in
                "changed: \(cause.name) \(place(of: cause)) \(cause.before ?? "-") -> \(cause.after ?? "-")"
                    + (cause.reaches.isEmpty ? "" : "; reaches \(cause.reaches.joined(separator: ", "))")
            }
    }

    /// The changes that show before the rest is folded into `<details>`.
    static let shownRows = 25

    /// For a pull request comment: the counts, what broke, then a row per change (the first
    /// `shownRows`, the rest folded).
    public func markdown(from before: String, to after: String) -> String {
        let reached = changes.reduce(0) { $0 + $1.reaches.count }
        var summary = "**\(before) → \(after)**: \(added.count) added, \(removed.count) removed, \(changes.count) changed colour\(changes.count == 1 ? "" : "s")"
        if reached > 0 { summary += " (and \(reached) alias\(reached == 1 ? "" : "es") that follow\(reached == 1 ? "s" : ""))" }
        if !broken.isEmpty { summary += ", **\(broken.count) newly broken**" }
        var lines = [summary]
        guard !isEmpty else { return summary + "\n" }
        if !broken.isEmpty {
            lines += ["", "Newly broken (errors of the theme after the change):", ""]
            lines += broken.map { "- `\($0.name)`: \($0.error)" }
        }
        func code(_ hex: String?) -> String { hex.map { "`\($0)`" } ?? "–" }
        var rows = added.map { "| `\($0)` | | | added | |" } + removed.map { "| `\($0)` | | removed | | |" }
        rows += changes.map { cause in
            "| `\(cause.name)` | \(place(of: cause)) | \(code(cause.before)) | \(code(cause.after)) | \(cause.reaches.map { "`\($0)`" }.joined(separator: ", ")) |"
        }
        guard !rows.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        let header = ["| colour | where | before | after | reaches |", "|---|---|---|---|---|"]
        lines += [""] + header + rows.prefix(Self.shownRows)
        if rows.count > Self.shownRows {
            lines += ["", "<details><summary>\(rows.count - Self.shownRows) more</summary>", ""] + header + rows.dropFirst(Self.shownRows) + ["", "</details>"]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
