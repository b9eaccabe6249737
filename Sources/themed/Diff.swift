import ArgumentParser
import Foundation
import JSON
import Review
import ThemeBundle
import ThemeIndex
import ThemeVocabulary
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `themed diff A B`: what a change does to a theme, for review before it ships: each theme read
/// as the server reads it (`ThemeSnapshot`, parents from beside it), compared as `ThemeReview`
/// compares them. With `--server`, two releases of a theme kept in a cluster store, compared by
/// the replica (`GET /themes/{theme}/diff`).
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two versions of a theme: colours and design tokens mode by mode, strings by localization.",
        discussion: """
            A and B are theme folders or .car files (the same theme before and after a change). With \
            --server, THEME [FROM [TO]]: two of the theme's releases in the cluster store (by default the \
            current one against the one before it). Exit status 0 when they are the same, 1 when they \
            differ (as diff(1)). --format markdown writes tables for a pull request comment. Examples: \
            themed diff main/themes/brand themes/brand --format markdown; \
            themed diff --server http://themed:8080 --token $T brand 41 42
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, markdown }

    @Argument(help: "A and B; with --server, THEME [FROM [TO]].") var operands: [String]
    @Option(help: "text, json or markdown.") var format: Format = .text
    @Option(help: "URL of a themed replica with a cluster store (or the front door): compare two releases there.") var server: String?
    @Option(help: "With --server: a token (themed token create), or the THEMED_TOKEN environment variable.") var token: String?

    func validate() throws {
        if server == nil, operands.count != 2 { throw ValidationError("give the theme before and after: themed diff A B") }
        if server != nil, !(1...3).contains(operands.count) { throw ValidationError("with --server, give THEME [FROM [TO]]") }
    }

    func run() throws {
        if let server { return try remote(server) }
        let (before, after) = (operands[0], operands[1])
        let (old, new) = try Self.read(before, after)
        let review = ThemeReview(from: old, to: new)
        // A parent's change is each child's: the themes beside it that inherit from it, read as
        // they were and are, each reviewed for what reaches it.
        let children = try Self.children(of: new.info.name, before: before, after: after).compactMap { child -> (String, ThemeReview)? in
            let (childBefore, childAfter) = try Self.read(child.before, child.after)
            let childReview = ThemeReview(from: childBefore, to: childAfter)
            return childReview.causes.isEmpty ? nil : (child.name, childReview)
        }
        switch format {
        case .json:
            print(try JSONValueEncoder().encode(Joined(review, Children(children: OrderedMembers(children)))).serialized(pretty: true))
        case .markdown:
            print(review.markdown(from: before, to: after), terminator: "")
            for (name, child) in children { print("\n### Through `\(name)`, which inherits it\n\n" + child.causes.markdown(from: "\(name) before", to: "after"), terminator: "") }
        case .text:
            print(review.text, terminator: "")
            for (name, child) in children { for line in child.causes.lines { print("\(name): \(line)") } }
        }
        if !review.isEmpty || !children.isEmpty { throw ExitCode(1) }
    }

    /// Both sides as a review reads them (`ThemeSnapshot.pair`: only what differs between them);
    /// a path that is no theme is exit status 2, said on standard error.
    static func read(_ before: String, _ after: String) throws -> (ThemeSnapshot, ThemeSnapshot) {
        do {
            return try ThemeSnapshot.pair(reading: URL(fileURLWithPath: before).standardizedFileURL.path, URL(fileURLWithPath: after).standardizedFileURL.path)
        } catch let error as ThemeSnapshot.Unreadable {
            throw Startup.failure(error.description)
        }
    }

    /// The theme folders beside `after` (at most `maximumChildren`) whose theme.json's parent
    /// chain reaches `name`, each with its counterpart beside `before`; a child only one side has
    /// is left out (it is added or removed, not changed by the parent).
    static func children(of name: String, before: String, after: String) throws -> [(name: String, before: String, after: String)] {
        let (besideBefore, besideAfter) = (FilePaths.folder(of: URL(fileURLWithPath: before).standardizedFileURL.path),
                                           FilePaths.folder(of: URL(fileURLWithPath: after).standardizedFileURL.path))
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: besideAfter)) ?? []).sorted()
        var found: [(String, String, String)] = []
        for entry in entries where entry != name && ThemeName.isValid(entry) {
            var next = (try? ThemeSettings(folder: "\(besideAfter)/\(entry)"))?.parent
            var seen: Set<String> = [entry]
            while let parent = next, parent != name, seen.insert(parent).inserted, seen.count <= ThemeSettings.maximumParentDepth {
                next = (try? ThemeSettings(folder: "\(besideAfter)/\(parent)"))?.parent
            }
            guard next == name, FileSystem.isDirectory("\(besideBefore)/\(entry)") else { continue }
            found.append((entry, "\(besideBefore)/\(entry)", "\(besideAfter)/\(entry)"))
            if found.count == maximumChildren { break }
        }
        return found
    }

    static let maximumChildren = 50

    /// The replica's diff, printed as it answered it.
    private func remote(_ server: String) throws {
        let theme = operands[0]
        var query = ["format=\(format.rawValue)"]
        for (name, value) in zip(["from", "to"], operands.dropFirst()) {
            guard let generation = Generation(value), generation > 0 else { throw Publish.refuse("\(value) is not a release's generation", command: "diff") }
            query.append("\(name)=\(generation)")
        }
        let request = try ServerOptions.request("GET", "/themes/\(theme)/diff?\(query.joined(separator: "&"))", server: server, token: token, command: "diff")
        let answer = HTTPAnswer.of(request)
        guard answer.status == 200 else { throw Publish.refuse(answer.failure(from: server), command: "diff") }
        FileHandle.standardOutput.write(answer.body)
        if answer.headers["themed-diff"] == "differs" { throw ExitCode(1) }
    }
}

/// The reviews of the themes that inherit the change, beside the review's members.
private struct Children: Encodable {
    var children: OrderedMembers<ThemeReview>
}
