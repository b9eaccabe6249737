import ArgumentParser
import Foundation
import JSON
import ThemeExport

/// `themed diff A B`: what a change does to a theme's colours, for review before it ships: each
/// theme read as the server reads it (`Check.read`, parents from beside it), compared mode by mode,
/// and what that does to its contrast pairs (each ratio that moved; those now below their minimum).
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two versions of a theme's colours, mode by mode.",
        discussion: """
            A and B are theme folders or .car files (the same theme before and after a change). Exit status 0 \
            when the colours are the same, 1 when they differ (as diff(1)). --format markdown writes a table \
            for a pull request comment. Example: themed diff main/themes/brand themes/brand --format markdown
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

    @Argument(help: "The theme before.") var before: String
    @Argument(help: "The theme after.") var after: String
    @Option(help: "text, json or markdown.") var format: Format = .text

    func run() throws {
        let (_, old, oldSettings) = try Check.read(URL(fileURLWithPath: before).standardizedFileURL.path)
        let (_, new, newSettings) = try Check.read(URL(fileURLWithPath: after).standardizedFileURL.path)
        let diff = ColorDiff(from: old, to: new)
        let contrast = ContrastDiff(from: ContrastReport(table: old, settings: oldSettings), to: ContrastReport(table: new, settings: newSettings))
        switch format {
        case .json:
            guard case .object(let members) = diff.json else { return }
            print(JSONValue.object(members + [("contrast", contrast.json)]).serialized(pretty: true))
        case .markdown: print(diff.markdown(from: before, to: after) + contrast.markdown, terminator: "")
        case .text:
            for name in diff.added { print("added: \(name)") }
            for name in diff.removed { print("removed: \(name)") }
            for change in diff.changed {
                for (mode, was, now) in change.modes { print("changed: \(change.name) \(mode.name) \(was?.hex ?? "-") -> \(now?.hex ?? "-")") }
            }
            for change in contrast.changes { print("contrast: \(ContrastDiff.describe(change))") }
            print("\(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed; "
                  + "\(contrast.changes.count) contrast ratios moved, \(contrast.broken.count) now below their minimum")
        }
        if !diff.isEmpty { throw ExitCode(1) }
    }
}
