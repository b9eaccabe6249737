import ArgumentParser

@main
struct Themed: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "themed",
        abstract: "A theme resource server for Apple asset catalogs, on Linux.",
        subcommands: [Serve.self, Index.self, Compile.self, Inspect.self, Extract.self])
}
