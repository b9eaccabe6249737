import JSON
import ThemeExport

/// What a change does to a theme, for review before it ships (`themed diff`, and a replica's
/// `GET /themes/{theme}/diff` between two releases): its colours mode by mode, what that does to
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

    public init(from before: ThemeSnapshot, to after: ThemeSnapshot) {
        colors = ColorDiff(from: before.colors, to: after.colors)
        images = ImageDiff(from: before, to: after)
        let empty = ColorTable(theme: before.info.name, revision: "", rows: [], systemColors: [])
        colorsByContexts = Set(before.colorsByContexts.keys).union(after.colorsByContexts.keys).sorted().compactMap { contexts in
            let diff = ColorDiff(from: before.colorsByContexts[contexts] ?? empty, to: after.colorsByContexts[contexts] ?? empty)
            return diff.isEmpty ? nil : (contexts, diff)
        }
        contextsCut = before.contextsCut || after.contextsCut
        contrast = ContrastDiff(from: ContrastReport(table: before.colors, settings: before.settings),
                                to: ContrastReport(table: after.colors, settings: after.settings))
        content = ContentDiff(tokens: before.tokens, after.tokens, strings: before.strings, after.strings)
    }

    /// Nothing differs (a contrast ratio moves only with a colour).
    public var isEmpty: Bool { colors.isEmpty && content.isEmpty && images.isEmpty && colorsByContexts.isEmpty }

    /// The counts: what a summary line, a webhook or a draft carries.
    public var summary: JSONValue {
        let (tokens, strings) = (content.count("token"), content.count("string"))
        func counts(_ added: Int, _ removed: Int, _ changed: Int) -> JSONValue {
            .object([("added", .int(added)), ("removed", .int(removed)), ("changed", .int(changed))])
        }
        return .object([
            ("colors", counts(colors.added.count, colors.removed.count, colors.changed.count)),
            ("tokens", counts(tokens.added, tokens.removed, tokens.changed)),
            ("strings", counts(strings.added, strings.removed, strings.changed)),
            ("contrast", .object([("moved", .int(contrast.changes.count)), ("belowMinimum", .int(contrast.broken.count))])),
            ("images", counts(images.added.count, images.removed.count, images.changed.count)),
        ])
    }

    /// What a webhook message of a release carries (`"diff"`): the generations compared, the
    /// counts and the first `limit` changes (the lines `themed diff` prints).
    public func webhookDetails(from: Int, to: Int, limit: Int = 10) -> JSONValue {
        let lines = text.split(separator: "\n").dropLast().prefix(limit).map { JSONValue.string(String($0)) }
        return .object([("from", .int(from)), ("to", .int(to)), ("summary", summary), ("changes", .array(Array(lines)))])
    }

    /// The colours' changes with the contrast, the other content and the counts beside them.
    public var json: JSONValue {
        guard case .object(let members) = colors.json else { return colors.json }
        return .object(members + [("contexts", .object(colorsByContexts.map { ($0.contexts, $0.diff.json) })), ("contextsCut", .bool(contextsCut)),
                                  ("contrast", contrast.json),
                                  ("content", content.json), ("images", images.json), ("summary", summary)])
    }

    /// For a pull request comment: each part's counts first, then its table.
    public func markdown(from before: String, to after: String) -> String {
        colors.markdown(from: before, to: after)
            + colorsByContexts.map { "\n" + $0.diff.markdown(from: "\(before) (\($0.contexts))", to: "\(after) (\($0.contexts))") }.joined()
            + (contextsCut ? "\nOnly the first \(ThemeSnapshot.contextsCompared) combinations of contexts chosen by name were compared.\n" : "")
            + contrast.markdown + content.markdown + images.markdown
    }

    /// A line a change, then the counts.
    public var text: String {
        var lines: [String] = []
        lines += colors.added.map { "added: \($0)" }
        lines += colors.removed.map { "removed: \($0)" }
        for change in colors.changed {
            for (mode, was, now) in change.modes { lines.append("changed: \(change.name) \(mode.name) \(was?.hex ?? "-") -> \(now?.hex ?? "-")") }
        }
        for (contexts, diff) in colorsByContexts {
            lines += diff.added.map { "added: \($0) (\(contexts))" } + diff.removed.map { "removed: \($0) (\(contexts))" }
            for change in diff.changed {
                for (mode, was, now) in change.modes {
                    lines.append("changed: \(change.name) \(mode.name) (\(contexts)) \(was?.hex ?? "-") -> \(now?.hex ?? "-")")
                }
            }
        }
        lines += contrast.changes.map { "contrast: \(ContrastDiff.describe($0))" }
        for change in content.changes {
            lines.append("\(change.kind): \(change.name) \(change.place.isEmpty ? "-" : change.place) \(change.before ?? "-") -> \(change.after ?? "-")")
        }
        lines += images.lines
        let (tokens, strings) = (content.count("token"), content.count("string"))
        lines.append("\(colors.added.count) added, \(colors.removed.count) removed, \(colors.changed.count) changed; "
                     + "\(contrast.changes.count) contrast ratios moved, \(contrast.broken.count) now below their minimum; "
                     + "tokens \(tokens.added) added, \(tokens.removed) removed, \(tokens.changed) changed; "
                     + "strings \(strings.added) added, \(strings.removed) removed, \(strings.changed) changed; "
                     + "images \(images.added.count) added, \(images.removed.count) removed, \(images.changed.count) changed")
        return lines.joined(separator: "\n") + "\n"
    }
}
