import ArgumentParser
import Dispatch

@main
struct Themed: ParsableCommand {
    /// The package version: `themed --version` and `make deb` both read it from here.
    static let version = "0.6.0"

    static let configuration = CommandConfiguration(
        commandName: "themed",
        abstract: "A theme resource server for Apple asset catalogs, on Linux.",
        version: version,
        subcommands: [Serve.self, Index.self, Compile.self, Inspect.self, Extract.self, Export.self, Publish.self, Retire.self, Rollback.self, ListReleases.self, ListReplicas.self, TokenCommand.self, PolicyCommand.self, Config.self, Watch.self, Sign.self, Check.self, Import.self, Diff.self])

    /// Every command but `watch` runs on the main thread, as a plain program. ArgumentParser's
    /// async `main` ran them all on a thread of Swift's concurrency pool, to which dispatch hands
    /// the work once the main thread gives it up: a command started four threads and handed its
    /// work over twice, each hand-off a turn the scheduler must grant, and on a host its load
    /// saturates an operator's `themed publish` waited for each. `watch` awaits its server, and
    /// runs in a task that ends the process.
    static func main() {
        do {
            var command = try parseAsRoot()
            guard let watch = command as? Watch else { return try command.run() }
            Task {
                do {
                    try await watch.run()
                    exit()
                } catch {
                    exit(withError: error)
                }
            }
            dispatchMain()
        } catch {
            exit(withError: error)
        }
    }
}
