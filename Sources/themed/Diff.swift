import ArgumentParser
import Foundation
import ThemeExport

/// `themed diff A B`: what a change does to a theme's colours, for review before it ships: each
/// theme read as the server reads it (`Check.read`, parents from beside it), compared mode by mode.
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
        let (_, old, _) = try Check.read(URL(fileURLWithPath: before).standardizedFileURL.path)
        let (_, new, _) = try Check.read(URL(fileURLWithPath: after).standardizedFileURL.path)
        let diff = ColorDiff(from: old, to: new)
        switch format {
        case .json: print(diff.json.serialized(pretty: true))
        case .markdown: print(diff.markdown(from: before, to: after), terminator: "")
        case .text:
            for name in diff.added { print("added: \(name)") }
            for name in diff.removed { print("removed: \(name)") }
            for change in diff.changed {
                for (mode, was, now) in change.modes { print("changed: \(change.name) \(mode.name) \(was?.hex ?? "-") -> \(now?.hex ?? "-")") }
            }
            print("\(diff.added.count) added, \(diff.removed.count) removed, \(diff.changed.count) changed")
        }
        if !diff.isEmpty { throw ExitCode(1) }
    }
}
