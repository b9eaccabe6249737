import ArgumentParser
import Cluster
import Foundation

/// `themed token`: the credentials teams publish and switch themes with over HTTP. The store
/// keeps only each secret's SHA-256; `create` prints the secret once.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make, list and revoke the tokens teams publish with (POST /themes/{theme}/releases).",
        subcommands: [Create.self, List.self, Revoke.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Make a token and print its secret (shown this once).")

        @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String
        @Option(help: "The token's name, shown in release histories and the audit trail.") var name: String
        @Option(help: "Themes it may touch, as a shell glob (repeatable; default: every theme).") var themes: [String] = []
        @Option(help: "What it may do: publish (releases, rollbacks, drafts), activate (switches, schedules), rollout (aliases, rollouts), review (approving others' drafts), comma-separated.") var can = "publish"

        func run() throws {
            let words = can.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let permissions = Set(words.compactMap(Token.Permission.init(rawValue:)))
            guard permissions.count == Set(words).count else { throw Publish.refuse("--can takes publish, activate, rollout, review, comma-separated", command: "token create") }
            let secret = try Publish.onStore(cluster, command: "token create") {
                try $0.createToken(name: name, themes: themes.isEmpty ? ["*"] : themes, permissions: permissions)
            }
            print(secret)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List tokens: name, themes, permissions, creation time (never secrets).")

        @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String

        func run() throws {
            for token in try Publish.onStore(cluster, command: "token list", { try $0.tokens() }) {
                let permissions = Token.Permission.allCases.filter(token.permissions.contains).map(\.rawValue).joined(separator: ",")
                print("\(token.name)\t\(token.themes.joined(separator: " "))\t\(permissions)\t\(token.created)")
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a token: every request presenting it is refused from now on.")

        @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String
        @Argument(help: "The token's name.") var name: String

        func run() throws {
            let removed = try Publish.onStore(cluster, command: "token revoke") { try $0.revokeToken(name: name) }
            guard removed else { throw Publish.refuse("no token named \(name)", command: "token revoke") }
            print("revoked \(name)")
        }
    }
}
