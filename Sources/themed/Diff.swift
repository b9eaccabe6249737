import ArgumentParser
import Foundation
import JSON
import ThemeExport

/// `themed diff A B`: what a change does to a theme, for review before it ships: each theme read
/// as the server reads it (`Check.readWhole`, parents from beside it); its colours compared mode by
/// mode, and what that does to its contrast pairs (each ratio that moved; those now below their
/// minimum); its other design tokens mode by mode and its strings localization by localization
/// (`ContentDiff`).
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two versions of a theme: colours and design tokens mode by mode, strings by localization.",
        discussion: """
            A and B are theme folders or .car files (the same theme before and after a change). Exit status 0 \
            when they are the same, 1 when they differ (as diff(1)). --format markdown writes a table \
            for a pull request comment. Example: themed diff main/themes/brand themes/brand --format markdown
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

    @Argument(help: "The theme before.") var before: String
    @Argument(help: "The theme after.") var after: String
    @Option(help: "text, json or markdown.") var format: Format = .text

    func run() throws {
        let old = try Check.readWhole(URL(fileURLWithPath: before).standardizedFileURL.path)
        let new = try Check.readWhole(URL(fileURLWithPath: after).standardizedFileURL.path)
        let diff = ColorDiff(from: old.colors, to: new.colors)
        let contrast = ContrastDiff(from: ContrastReport(table: old.colors, settings: old.settings), to: ContrastReport(table: new.colors, settings: new.settings))
        let content = ContentDiff(tokens: old.tokens, new.tokens, strings: old.strings, new.strings)
        switch format {
        case .json:
            guard case .object(let members) = diff.json else { return }
            print(JSONValue.object(members + [("contrast", contrast.json), ("content", content.json)]).serialized(pretty: true))
        case .markdown: print(diff.markdown(from: before, to: after) + contrast.markdown + content.markdown, terminator: "")
        case .text:
            for name in diff.added { print("added: \(name)") }
            for name in diff.removed { print("removed: \(name)") }
            for change in diff.changed {
                for (mode, was, now) in change.modes { print("changed: \(change.name) \(mode.name) \(was?.hex ?? "-") -> \(now?.hex ?? "-")") }
            }
            for change in contrast.changes { print("contrast: \(ContrastDiff.describe(change))") }
            for change in content.changes {
                print("\(change.kind): \(change.name) \(change.place.isEmpty ? "-" : change.place) \(change.before ?? "-") -> \(change.after ?? "-")")
            }
            let (tokens, strings) = (content.count("token"), content.count("string"))
            print("\(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed; "
                  + "\(contrast.changes.count) contrast ratios moved, \(contrast.broken.count) now below their minimum; "
                  + "tokens \(tokens.added) added, \(tokens.removed) removed, \(tokens.changed) changed; "
                  + "strings \(strings.added) added, \(strings.removed) removed, \(strings.changed) changed")
        }
        if !diff.isEmpty || !content.isEmpty { throw ExitCode(1) }
    }
}
