import JSON
import ThemeExport
import ThemeIndex
import ThemeVocabulary

/// What a change does to a theme, for review before it ships (`themed diff`, and a replica's
/// `GET /themes/{theme}/diff` between two releases): its colours by cause (`ColorCauses`), what that does to
/// its contrast pairs (each ratio that moved; those now below their minimum), its other design
/// tokens mode by mode and its strings localization by localization.
public struct ThemeReview: Sendable {
    public let colors: ColorDiff
    public let contrast: ContrastDiff
    public let content: ContentDiff
    public let images: ImageDiff
    /// A token theme's colours at each combination of contexts chosen by name that either reading
    /// has, by `TraitRequest.contexts` (`brand=portal&density=compact`): only those where
    /// something differs.
    public let colorsByContexts: [(contexts: String, diff: ColorDiff)]
    /// Either reading compared only the first `ThemeSnapshot.contextsCompared` combinations.
    public let contextsCut: Bool
    /// The colour changes by cause, as `text` and `markdown` list them.
    public let causes: ColorCauses

    public init(from before: ThemeSnapshot, to after: ThemeSnapshot) {
        colors = ColorDiff(from: before.colors, to: after.colors)
        images = ImageDiff(from: before, to: after)
        let empty = ColorTable(theme: before.info.name, revision: "", rows: [], systemColors: [])
        colorsByContexts = Set(before.colorsByContexts.keys).union(after.colorsByContexts.keys).sorted().compactMap { contexts in
            let diff = ColorDiff(from: before.colorsByContexts[contexts] ?? empty, to: after.colorsByContexts[contexts] ?? empty)
            return diff.isEmpty ? nil : (contexts, diff)
        }
        contextsCut = before.contextsCut || after.contextsCut
        let aliases = Dictionary(after.colors.rows.compactMap { row in
            (ColorMode.all.lazy.compactMap { row.values[$0]?.aliasOf }.first).map { (row.name, $0) }
        }, uniquingKeysWith: { first, _ in first })
        causes = ColorCauses(colors: colors, byContexts: colorsByContexts, aliases: aliases,
                             errors: after.info.error.split(separator: "\n").map(String.init))
        contrast = ContrastDiff(from: ContrastReport(table: before.colors, settings: before.settings),
                                to: ContrastReport(table: after.colors, settings: after.settings))
        content = ContentDiff(tokens: before.tokens, after.tokens, strings: before.strings, after.strings)
    }

    /// Nothing differs (a contrast ratio moves only with a colour).
    public var isEmpty: Bool { colors.isEmpty && content.isEmpty && images.isEmpty && colorsByContexts.isEmpty }

    /// The counts: what a summary line, a webhook or a draft carries.
    public var summary: Summary {
        let (tokens, strings) = (content.count("token"), content.count("string"))
        return Summary(colors: Summary.Counts(added: colors.added.count, removed: colors.removed.count, changed: colors.changed.count),
                       tokens: Summary.Counts(added: tokens.added, removed: tokens.removed, changed: tokens.changed),
                       strings: Summary.Counts(added: strings.added, removed: strings.removed, changed: strings.changed),
                       contrast: Summary.Contrast(moved: contrast.changes.count, belowMinimum: contrast.broken.count),
                       images: Summary.Counts(added: images.added.count, removed: images.removed.count, changed: images.changed.count))
    }

    public struct Summary: Encodable, Sendable {
        public struct Counts: Encodable, Sendable {
            public var added: Int
            public var removed: Int
            public var changed: Int
        }

        public struct Contrast: Encodable, Sendable {
            public var moved: Int
            public var belowMinimum: Int
        }

        public var colors: Counts
        public var tokens: Counts
        public var strings: Counts
        public var contrast: Contrast
        public var images: Counts
    }

    /// What a webhook message of a release carries (`"diff"`): the generations compared, the
    /// counts and the first `limit` changes (the lines `themed diff` prints).
    public func webhookDetails(from: Generation, to: Generation, limit: Int = 10) -> WebhookDetails {
        WebhookDetails(from: from, to: to, summary: summary, changes: text.split(separator: "\n").dropLast().prefix(limit).map(String.init))
    }

    public struct WebhookDetails: Encodable, Sendable {
        public var from: Generation
        public var to: Generation
        public var summary: Summary
        public var changes: [String]
    }

    /// GitHub's limit on a comment's length, in characters.
    public static let commentLimit = 65_536

    /// For a pull request comment: the colours by cause (counts and what broke first, long tables
    /// folded), then contrast, other content and images; cut at a line, with a note, where it
    /// would pass `commentLimit`.
    public func markdown(from before: String, to after: String) -> String {
        let text = causes.markdown(from: before, to: after)
            + (contextsCut ? "\nOnly the first \(ThemeSnapshot.contextsCompared) combinations of contexts chosen by name were compared.\n" : "")
            + contrast.markdown + content.markdown + images.markdown
        let note = "\n… cut here at GitHub's comment limit: `themed diff --format json` has every change.\n"
        guard text.count > Self.commentLimit else { return text }
        var kept = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard kept.count + line.count + 1 + note.count + "</details>\n".count <= Self.commentLimit else { break }
            kept += line + "\n"
        }
        // A cut inside a fold closes it, so the note shows.
        let open = kept.components(separatedBy: "<details>").count - kept.components(separatedBy: "</details>").count
        return kept + (open > 0 ? "\n</details>\n" : "") + note
    }

    /// A line a change, then the counts.
    public var text: String {
        var lines = causes.lines
        lines += contrast.changes.map { "contrast: \(ContrastDiff.describe($0))" }
        for change in content.changes {
            lines.append("\(change.kind): \(change.name) \(change.place.isEmpty ? "-" : change.place) \(change.before ?? "-") -> \(change.after ?? "-")")
        }
        lines += images.lines
        let (tokens, strings) = (content.count("token"), content.count("string"))
        lines.append("\(causes.added.count) added, \(causes.removed.count) removed, \(causes.changes.count) changed, \(causes.broken.count) newly broken; "
                     + "\(contrast.changes.count) contrast ratios moved, \(contrast.broken.count) now below their minimum; "
                     + "tokens \(tokens.added) added, \(tokens.removed) removed, \(tokens.changed) changed; "
                     + "strings \(strings.added) added, \(strings.removed) removed, \(strings.changed) changed; "
                     + "images \(images.added.count) added, \(images.removed.count) removed, \(images.changed.count) changed")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The colours' changes with the contrast, the other content and the counts beside them, as one
/// object (what `themed diff --format json` prints and a replica's diff answers).
extension ThemeReview: Encodable {
    private enum Member: String, CodingKey {
        case contexts, contextsCut, contrast, content, images, summary
    }

    public func encode(to encoder: any Encoder) throws {
        try colors.encode(to: encoder)
        var container = encoder.container(keyedBy: Member.self)
        try container.encode(OrderedMembers(colorsByContexts.map { ($0.contexts, $0.diff) }), forKey: .contexts)
        try container.encode(contextsCut, forKey: .contextsCut)
        try container.encode(contrast, forKey: .contrast)
        try container.encode(content, forKey: .content)
        try container.encode(images, forKey: .images)
        try container.encode(summary, forKey: .summary)
    }

    /// The review as a JSON value (to store, or to place beside other members).
    public var json: JSONValue {
        get throws { try JSONValueEncoder().encode(self) }
    }
}
