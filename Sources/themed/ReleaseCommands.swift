import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import ThemeVocabulary
#endif

/// Where a team's release commands talk: a themed server (or the front door) and a token.
struct ServerOptions: ParsableArguments {
    @Option(help: "URL of a themed server or the front door (http://host:port).") var server: String
    @Option(help: "A token (themed token create), or the THEMED_TOKEN environment variable.") var token: String?

    /// A request to `path` on the server, with the token.
    func request(_ method: String, _ path: String, command: String) throws -> URLRequest {
        try Self.request(method, path, server: server, token: token, command: command)
    }

    /// A request to `path` on `server` with `token` (or THEMED_TOKEN): what every command that
    /// talks to a themed server sends.
    static func request(_ method: String, _ path: String, server: String, token: String?, command: String) throws -> URLRequest {
        guard let secret = token ?? ProcessInfo.processInfo.environment["THEMED_TOKEN"] else {
            throw Publish.refuse("--server needs --token or THEMED_TOKEN", command: command)
        }
        let base = server.hasSuffix("/") ? String(server.dropLast()) : server
        guard let url = URL(string: base + path), url.scheme == "http" || url.scheme == "https" else {
            throw Publish.refuse("\(server) is not an http or https URL", command: command)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 60
        return request
    }
}

/// `themed rollback`: a new release with the content of a kept generation.
struct Rollback: ClusterChangeCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Roll a theme back to a kept release (a new release with its content).",
        discussion: "The generation is one `themed releases` lists (also the number in event ids g-N and in event data).")

    @OptionGroup var options: ServerOptions
    @Argument(help: "The theme's name.") var theme: String
    @Argument(help: "The generation whose content comes back.") var generation: Generation
    @OptionGroup var waiting: ServedWaitOptions

    func run() throws {
        guard generation > 0 else { throw Publish.refuse("the generation is a whole number from 1", command: "rollback") }
        var request = try options.request("POST", "/themes/\(theme)/rollback?\(try waiting.queryItem(command: "rollback"))", command: "rollback")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval += Double(waiting.wait)
        let answer = HTTPAnswer.of(request, body: Data("{\"generation\": \(generation)}".utf8))
        guard answer.status == 201 || answer.status == 202, let release = answer.json as? [String: Any] else {
            throw Publish.refuse(answer.failure(from: options.server), command: "rollback")
        }
        print("rolled \(theme) back to the content of generation \(generation): now generation \(release["generation"] ?? "?")")
        if let lagging = ServedWaitOptions.lagging(in: release) {
            throw ServedWaitOptions.lagging(lagging, generation: (release["generation"] as? NSNumber)?.int64Value ?? 0, command: "rollback")
        }
    }
}

/// `themed releases`: a theme's release history as a table.
struct ListReleases: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "releases", abstract: "List a theme's kept releases, newest first.")

    @OptionGroup var options: ServerOptions
    @Argument(help: "The theme's name.") var theme: String

    func run() throws {
        let answer = HTTPAnswer.of(try options.request("GET", "/themes/\(theme)/releases", command: "releases"))
        guard answer.status == 200, let history = answer.json as? [String: Any], let releases = history["releases"] as? [[String: Any]] else {
            throw Publish.refuse(answer.failure(from: options.server), command: "releases")
        }
        print(Self.table(releases, scheduled: history["scheduled"] as? [[String: Any]] ?? []))
    }

    /// One row a release: generation, when, who, files, the digest's start and what it is.
    static func table(_ releases: [[String: Any]], scheduled: [[String: Any]]) -> String {
        var rows = [["GENERATION", "PUBLISHED", "BY", "FILES", "DIGEST", "STATE"]]
        for release in releases {
            var state: [String] = []
            if release["current"] as? Bool == true { state.append("current") }
            if release["retired"] as? Bool == true { state.append("retired") }
            if let of = release["rollbackOf"] { state.append("rollback of \(of)") }
            rows.append(["\(release["generation"] ?? "?")", "\(release["publishedAt"] ?? "")", "\(release["publisher"] ?? "")",
                         "\(release["files"] ?? "")", String("\(release["digest"] ?? "")".prefix(12)), state.joined(separator: ", ")])
        }
        for schedule in scheduled {
            rows.append(["-", "\(schedule["at"] ?? "")", "\(schedule["by"] ?? "")", "\(schedule["files"] ?? "")",
                         String("\(schedule["digest"] ?? "")".prefix(12)), "scheduled (id \(schedule["id"] ?? "?"))"])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in column == row.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
