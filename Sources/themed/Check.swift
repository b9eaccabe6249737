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
/// warnings (what was served though its format does not allow it). With a baseline (a file, or
/// the theme as it was at a git ref) only what is new is reported and fails.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a theme folder as the server reads it: print its errors and warnings.",
        discussion: """
            Exit status 0 when the theme has no (new) errors, 1 when it has (every token, image or file that \
            cannot be served is one, with its file and JSON pointer where it has them; with --strict a \
            warning too), 2 when the input cannot be read (no such theme, a baseline that is not one, a \
            git ref that does not resolve). Parent themes (theme.json "parent") are read from the folder \
            beside it. --baseline FILE (written by --write-baseline FILE) or --since GIT_REF reports and \
            fails on new problems only. Example: themed check design/brand --since origin/main --format github
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, github }

    @Argument(help: "The theme folder (or a lone .car file).") var theme: String
    @Flag(help: "Fail (exit status 1) on warnings too.") var strict = false
    @Option(help: "text, json (one object: theme, status, errors, warnings, known), or github (workflow-command annotations on the token's line).")
    var format: Format = .text
    @Option(help: "A baseline file: the problems it lists are known, and only others are reported and fail.") var baseline: String?
    @Option(name: .customLong("write-baseline"), help: "Write the theme's problems to this file as its baseline, and exit 0.") var writeBaseline: String?
    @Option(help: "A git ref (origin/main): the problems the theme had there are known, and only others are reported and fail.") var since: String?

    func run() throws {
        let path = URL(fileURLWithPath: theme).standardizedFileURL.path
        let (name, found) = try Self.findings(reading: path)
        if let writeBaseline {
            try Data(found.baselineFile(theme: name).utf8).write(to: URL(fileURLWithPath: writeBaseline), options: .atomic)
            print("\(writeBaseline): \(Self.count(found.errors.count, "error")) and \(Self.count(found.warnings.count, "warning")) of \(name) as its baseline")
            return
        }
        var known: CheckFindings?
        if let baseline {
            guard let bytes = FileManager.default.contents(atPath: baseline) else { throw Startup.failure("\(baseline): no such baseline file") }
            do { known = try CheckFindings(baselineFile: Array(bytes), path: baseline) } catch { throw Startup.failure(error.description) }
        }
        if let since {
            let then = try Self.findings(at: since, of: path)
            known = known.map { CheckFindings(errors: $0.errors + then.errors, warnings: $0.warnings + then.warnings) } ?? then
        }
        let shown = known.map { found.new(since: $0) } ?? found
        let excused = found.errors.count + found.warnings.count - shown.errors.count - shown.warnings.count
        let status = shown.errors.isEmpty ? "ok" : "degraded"
        switch format {
        case .json:
            print(JSONValue.object([
                ("theme", .string(name)), ("status", .string(status)),
                ("errors", .array(shown.errors.map(JSONValue.string))), ("warnings", .array(shown.warnings.map(JSONValue.string))),
                ("known", .int(excused)),
            ]).serialized(pretty: true))
        case .text:
            for error in shown.errors { print("error: \(error)") }
            for warning in shown.warnings { print("warning: \(warning)") }
            let knownNote = known == nil ? "" : " new (\(excused) known)"
            print("\(name): \(Self.count(shown.errors.count, "error")), \(Self.count(shown.warnings.count, "warning"))\(knownNote)")
        case .github:
            for (kind, lines) in [("error", shown.errors), ("warning", shown.warnings)] {
                for line in lines { print(GitHubAnnotation(kind: kind, finding: line, themeFolder: theme).text) }
            }
            print("\(name): \(Self.count(shown.errors.count, "error")), \(Self.count(shown.warnings.count, "warning"))\(known == nil ? "" : " new (\(excused) known)")")
        }
        if !shown.errors.isEmpty || (strict && !shown.warnings.isEmpty) { throw ExitCode(1) }
    }

    /// What a check reports of the theme at `path` (`CheckFindings.reading`); a path that is no
    /// theme is exit status 2, said on standard error.
    static func findings(reading path: String, parentsIn parents: String? = nil) throws -> (theme: String, findings: CheckFindings) {
        do {
            return try CheckFindings.reading(path, parentsIn: parents)
        } catch let error as ThemeSnapshot.Unreadable {
            throw Startup.failure(error.description)
        }
    }

    /// What the theme at `path` had at the git ref `ref`: its folder and the parents beside it
    /// as git keeps them there, read as a check reads them. A theme the ref does not have had
    /// nothing; a ref git does not know is exit status 2.
    static func findings(at ref: String, of path: String) throws -> CheckFindings {
        let beside = FilePaths.folder(of: path)
        let name = (path as NSString).lastPathComponent
        guard let prefix = try? GitCommand.run(["rev-parse", "--show-prefix"], in: beside) else {
            throw Startup.failure("--since \(ref): \(beside) is not in a git work tree")
        }
        let besidePrefix = prefix.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (try? GitCommand.run(["rev-parse", "--verify", "--quiet", ref + "^{commit}"], in: beside)) != nil else {
            throw Startup.failure("--since \(ref): git knows no such commit")
        }
        guard (try? GitCommand.run(["cat-file", "-e", "\(ref):\(besidePrefix)\(name)"], in: beside)) != nil else {
            return CheckFindings(errors: [], warnings: [])
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("themed-since-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        do {
            let top = try GitCommand.run(["rev-parse", "--show-toplevel"], in: beside).trimmingCharacters(in: .whitespacesAndNewlines)
            try GitCommand.run(["archive", "--format=tar", "-o", scratch + "/then.tar", ref, "--", besidePrefix.isEmpty ? "." : besidePrefix], in: top)
            let untar = Process()
            untar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            untar.arguments = ["tar", "-xf", scratch + "/then.tar", "-C", scratch]
            try untar.run()
            untar.waitUntilExit()
            guard untar.terminationStatus == 0 else { throw GitCommand.Failure(description: "tar could not unpack git archive's output") }
        } catch {
            throw Startup.failure("--since \(ref): \(error)")
        }
        return try findings(reading: "\(scratch)/\(besidePrefix)\(name)", parentsIn: "\(scratch)/\(besidePrefix)").findings
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}

/// A git command run where a check needs one (`--since`), its output as text.
enum GitCommand {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @discardableResult
    static func run(_ arguments: [String], in folder: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder] + arguments
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "git \(arguments.first ?? ""): " + String(decoding: problem, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A finding as a GitHub Actions workflow command (`::error file=...,line=...::message`), on the
/// line of its token where the finding names a file and pointer, so the pull request shows it
/// beside the change.
struct GitHubAnnotation {
    var kind: String
    var finding: String
    var themeFolder: String

    var text: String {
        var properties = ["title=themed check"]
        if let (file, pointer) = location {
            let path = (themeFolder as NSString).appendingPathComponent(file)
            properties.insert("file=" + Self.property((path as NSString).standardizingPath), at: 0)
            if let pointer, let bytes = FileManager.default.contents(atPath: path), let line = JSONPointerLine.line(of: pointer, in: Array(bytes)) {
                properties.insert("line=\(line)", at: 1)
            }
        }
        return "::\(kind) \(properties.joined(separator: ","))::\(Self.message(finding))"
    }

    /// `file.json#/a/b: ...` -> (file.json, /a/b); `Theme.xcassets/x.colorset: ...` -> (that, nil);
    /// nil when the finding names no file of the theme.
    var location: (file: String, pointer: String?)? {
        guard let colon = finding.range(of: ": ") else { return nil }
        let place = String(finding[..<colon.lowerBound])
        if let hash = place.firstIndex(of: "#") { return (String(place[..<hash]), String(place[place.index(after: hash)...])) }
        guard place.contains("."), !place.contains(" "),
              FileManager.default.fileExists(atPath: (themeFolder as NSString).appendingPathComponent(place)) else { return nil }
        return (place, nil)
    }

    /// GitHub's escapes for a command's message and its properties.
    static func message(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func property(_ text: String) -> String {
        message(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
