import ArgumentParser
import Cluster

/// `themed policy`: what a theme's releases need before they are served. `set THEME
/// --require-approval N` turns every publish of the theme into a draft that N reviewers other
/// than its publisher approve (`POST /drafts/{id}/approve`); 0 serves a publish at once again.
struct PolicyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Show or set what a theme's releases need before they are served (four-eyes approval).",
        subcommands: [SetPolicy.self, Show.self])

    struct SetPolicy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the approvals a theme's releases need.",
            discussion: "Example: themed policy set brand --require-approval 2 --cluster postgresql://db/themed")

        @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String
        @Argument(help: "The theme's name.") var theme: String
        @Option(help: "Reviewers (tokens with review, other than the publisher) who must approve each release; 0: none.") var requireApproval: Int

        func run() throws {
            guard requireApproval >= 0, requireApproval <= 10 else { throw Publish.refuse("--require-approval is from 0 to 10", command: "policy set") }
            try Publish.onStore(cluster, command: "policy set") { try $0.setRequiredApprovals(requireApproval, of: theme, by: Release.operatorName) }
            print(requireApproval == 0 ? "\(theme): a publish is served at once" : "\(theme): each release needs \(requireApproval) approval\(requireApproval == 1 ? "" : "s")")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the approvals a theme's releases need.")

        @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String
        @Argument(help: "The theme's name.") var theme: String

        func run() throws {
            let required = try Publish.onStore(cluster, command: "policy show") { try $0.requiredApprovals(of: theme) }
            print("\(theme): require approval \(required)")
        }
    }
}
