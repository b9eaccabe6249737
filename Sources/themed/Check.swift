import ArgumentParser
import Foundation
import JSON
import Review
import ThemeBundle
import ThemeExport
import ThemeIndex
import ThemeVocabulary

/// `themed check THEME_FOLDER`: a design team's CI step. The theme is read exactly as the server
/// reads it (indexed, with the themes its theme.json names as parents, from the folder beside
/// it), and what the server would report is printed: its errors (what cannot be served) and its
/// warnings (what was served though its format does not allow it).
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a theme folder as the server reads it: print its errors and warnings.",
        discussion: """
            Exit status 0 when the theme has no errors, 1 when it has (every token, image or file that \
            cannot be served is one, with its file and JSON pointer where it has them), and with --strict \
            2 when it has only warnings. Parent themes (theme.json "parent") are read from the folder \
            beside it. Example: themed check design/brand --strict
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "The theme folder (or a lone .car file).") var theme: String
    @Flag(help: "Fail (exit status 2) on warnings too.") var strict = false
    @Option(help: "text, or json (one object: theme, status, errors, warnings).") var format: Format = .text

    func run() throws {
        let path = URL(fileURLWithPath: theme).standardizedFileURL.path
        let snapshot = try Self.read(path)
        let (info, contrast) = (snapshot.info, ContrastReport(table: snapshot.colors, settings: snapshot.settings))
        var errors = info.error.split(separator: "\n").map(String.init)
        var warnings = info.warning.split(separator: "\n").map(String.init)
        // Contrast pairs below their minimum: errors with policy "refuse", else warnings.
        let lines = contrast.failures.map(ContrastReport.describe)
        if contrast.refuses { errors += lines } else { warnings += lines }
        switch format {
        case .json:
            print(JSONValue.object([
                ("theme", .string(info.name)), ("status", .string(errors.isEmpty ? "ok" : "degraded")),
                ("errors", .array(errors.map(JSONValue.string))), ("warnings", .array(warnings.map(JSONValue.string))),
            ]).serialized(pretty: true))
        case .text:
            for error in errors { print("error: \(error)") }
            for warning in warnings { print("warning: \(warning)") }
            print("\(info.name): \(Self.count(errors.count, "error")), \(Self.count(warnings.count, "warning"))")
        }
        if !errors.isEmpty { throw ExitCode(1) }
        if strict, !warnings.isEmpty { throw ExitCode(2) }
    }

    /// The theme at `path` as a sync indexes it (`ThemeSnapshot`, parents from beside it); a path
    /// that is no theme is exit status 2, said on standard error.
    static func read(_ path: String, withImages: Bool = false) throws -> ThemeSnapshot {
        do {
            return try ThemeSnapshot(reading: path, imageBytes: withImages ? ThemeSnapshot.imageBytesLimit : 0)
        } catch let error as ThemeSnapshot.Unreadable {
            throw Startup.failure(error.description)
        }
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
