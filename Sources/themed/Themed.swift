import ArgumentParser
import CLinux
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

    /// A synchronous command (every one but `watch`) runs on the main thread, as a plain program.
    /// ArgumentParser's async `main` ran them all on a thread of Swift's concurrency pool, to
    /// which dispatch hands the work once the main thread gives it up: `themed --version` started
    /// three threads, and each hand-off is a turn the scheduler must grant; on a host its load
    /// saturates, an operator's `themed publish` waited for each. An asynchronous command
    /// (`watch`, which awaits its server) runs in a task that ends the process.
    static func main() {
        do {
            var command = try parseAsRoot()
            if command is any ClusterChangeCommand { _ = themed_request_short_slices() }
            guard let asynchronous = command as? any AsyncParsableCommand else { return try command.run() }
            // The task alone uses the command from here: the main thread only waits, in dispatchMain.
            nonisolated(unsafe) var running = asynchronous
            Task {
                do {
                    try await running.run()
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

/// A command that changes the cluster while an operator waits (publish, retire, rollback). It works
/// in short bursts between the store's and the replicas' answers; on a host its replicas saturate,
/// each burst waited for a CPU behind every other task's slice (a publish with 31 ms of CPU waited
/// over a second in the run queue), so it asks for the shortest slice: due sooner on each wakeup,
/// its share of the CPU unchanged. `serve` and the offline commands keep the default.
protocol ClusterChangeCommand: ParsableCommand {}
