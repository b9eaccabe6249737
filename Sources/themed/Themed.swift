import ArgumentParser

@main
struct Themed: AsyncParsableCommand {
    /// The package version: `themed --version` and `make deb` both read it from here.
    static let version = "0.6.0"

    static let configuration = CommandConfiguration(
        commandName: "themed",
        abstract: "A theme resource server for Apple asset catalogs, on Linux.",
        version: version,
        subcommands: [Serve.self, Index.self, Compile.self, Inspect.self, Extract.self, Export.self, Publish.self, Retire.self, Rollback.self, ListReleases.self, ListReplicas.self, TokenCommand.self, PolicyCommand.self, Config.self, Watch.self, Sign.self, Check.self, Import.self, Diff.self])
}
