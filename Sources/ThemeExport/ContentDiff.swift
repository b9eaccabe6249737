import JSON
import ThemeIndex
import ThemeVocabulary

/// What changed between two readings of a theme besides its colours (`ColorDiff` has those), for
/// `themed diff`: its other design tokens per mode (`TokenTable`, their resolved `$value`s), and
/// its strings per localization (`StringTable`, each key's value as a client of that language is
/// answered).
public struct ContentDiff: Sendable {
    /// One entry of a kind: its name (a token's path; a string's `table/key`) and where it
    /// differs (a mode's name; a localization), with the value before and after (nil: none).
    public struct Change: Sendable, Equatable {
        public var kind: String
        public var name: String
        public var place: String
        public var before: String?
        public var after: String?
    }

    public let changes: [Change]

    /// The place of a token change that is the same in every mode.
    public static let everyMode = "every mode"

    public var isEmpty: Bool { changes.isEmpty }

    public init(tokens before: TokenTable, _ after: TokenTable, strings stringsBefore: StringTable, _ stringsAfter: StringTable) {
        var changes: [Change] = []
        let old = Dictionary(before.rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for path in Set(old.keys).union(new.keys).sorted() {
            let modes = ColorMode.all.map { mode in
                (mode, old[path]?.values[mode].map { $0.serialized() }, new[path]?.values[mode].map { $0.serialized() })
            }
            // A change the same in every mode (most tokens vary by none) is said once.
            if let first = modes.first, first.1 != first.2, modes.allSatisfy({ $0.1 == first.1 && $0.2 == first.2 }) {
                changes.append(Change(kind: "token", name: path, place: Self.everyMode, before: first.1, after: first.2))
                continue
            }
            for (mode, was, now) in modes where was != now {
                changes.append(Change(kind: "token", name: path, place: mode.name, before: was, after: now))
            }
        }
        for localization in Set(stringsBefore.values.keys).union(stringsAfter.values.keys).sorted() {
            let (was, now) = (stringsBefore.values[localization] ?? [:], stringsAfter.values[localization] ?? [:])
            for key in Set(was.keys).union(now.keys).sorted() where was[key] != now[key] {
                changes.append(Change(kind: "string", name: key, place: localization, before: was[key], after: now[key]))
            }
        }
        self.changes = changes
    }

    /// Changes of one kind: those a value appeared for, left, or moved.
    public func count(_ kind: String) -> (added: Int, removed: Int, changed: Int) {
        let ofKind = changes.filter { $0.kind == kind }
        return (ofKind.filter { $0.before == nil }.count, ofKind.filter { $0.after == nil }.count,
                ofKind.filter { $0.before != nil && $0.after != nil }.count)
    }

    /// A change as JSON (null where there was no value).
    struct Body: Encodable {
        var kind: String
        var name: String
        var place: String
        @Nullable var before: String?
        @Nullable var after: String?
    }

    /// For a pull request comment, after the colours: the counts, then a table per kind.
    public var markdown: String {
        guard !isEmpty else { return "" }
        var lines: [String] = []
        for (kind, title, placeTitle) in [("token", "design token", "mode"), ("string", "string", "localization")] {
            let ofKind = changes.filter { $0.kind == kind }
            guard !ofKind.isEmpty else { continue }
            let counts = count(kind)
            lines += ["", "**\(title)s**: \(counts.added) added, \(counts.removed) removed, \(counts.changed) changed", "",
                      "| \(title) | \(placeTitle) | before | after |", "|---|---|---|---|"]
            func cell(_ text: String?) -> String {
                text.map { "`" + $0.replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") + "`" } ?? "–"
            }
            for change in ofKind { lines.append("| `\(change.name)` | \(change.place) | \(cell(change.before)) | \(cell(change.after)) |") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A theme's strings as clients are answered: for each localization its bundles have (and their
/// development region), every `table/key` with the value a client asking for that language gets.
public struct StringTable: Sendable {
    /// By localization, then `table/key`.
    public var values: [String: [String: String]]

    public init(values: [String: [String: String]]) {
        self.values = values
    }

    public static let empty = StringTable(values: [:])

    /// `localizations`: those the chain's bundles have (none: each table as a client with no
    /// language preference is answered).
    public init(reading reader: IndexReader, chain: [ThemeInfo], localizations: [String]) throws {
        var values: [String: [String: String]] = [:]
        for table in try reader.stringTables(in: chain) {
            for localization in localizations.isEmpty ? [""] : localizations {
                for string in try reader.localizedTable(table, in: chain, languages: localization.isEmpty ? [] : [localization]) {
                    values[localization, default: [:]]["\(table)/\(string.key)"] = string.value
                }
            }
        }
        self.values = values
    }
}

/// The changes, as a list.
extension ContentDiff: Encodable {
    public func encode(to encoder: any Encoder) throws {
        try changes.map { Body(kind: $0.kind, name: $0.name, place: $0.place, before: $0.before, after: $0.after) }.encode(to: encoder)
    }
}
