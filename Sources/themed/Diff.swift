import ArgumentParser
import Foundation
import JSON
import Review
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `themed diff A B`: what a change does to a theme, for review before it ships: each theme read
/// as the server reads it (`ThemeSnapshot`, parents from beside it), compared as `ThemeReview`
/// compares them. With `--server`, two releases of a theme kept in a cluster store, compared by
/// the replica (`GET /themes/{theme}/diff`).
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
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
        let old = try Check.read(URL(fileURLWithPath: before).standardizedFileURL.path, withImages: true)
        let new = try Check.read(URL(fileURLWithPath: after).standardizedFileURL.path, withImages: true)
        let review = ThemeReview(from: old, to: new)
        switch format {
        case .json: print(review.json.serialized(pretty: true))
        case .markdown: print(review.markdown(from: before, to: after), terminator: "")
        case .text: print(review.text, terminator: "")
        }
        if !review.isEmpty { throw ExitCode(1) }
    }

    /// The replica's diff, printed as it answered it.
    private func remote(_ server: String) throws {
        let theme = operands[0]
        var query = ["format=\(format.rawValue)"]
        for (name, value) in zip(["from", "to"], operands.dropFirst()) {
            guard let generation = Int64(value), generation > 0 else { throw Publish.refuse("\(value) is not a release's generation", command: "diff") }
            query.append("\(name)=\(generation)")
        }
        let request = try ServerOptions.request("GET", "/themes/\(theme)/diff?\(query.joined(separator: "&"))", server: server, token: token, command: "diff")
        let answer = HTTPAnswer.of(request)
        guard answer.status == 200 else { throw Publish.refuse(answer.failure(from: server), command: "diff") }
        FileHandle.standardOutput.write(answer.body)
        if answer.headers["themed-diff"] == "differs" { throw ExitCode(1) }
    }
}
