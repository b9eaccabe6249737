import ArgumentParser
import Cluster
import Foundation
import Settings

/// `themed config check FILE`: the effective configuration, each value with where it came from.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Work with configuration files.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a config file and print the effective settings with the source of each value.",
            discussion: "Also checks the paths serve needs (the themes folder exists; the index and blob folders can be written) "
                + "and, with a cluster store, that it answers. "
                + "Exit status 2, with one line naming the key or path, when something cannot be used; "
                + "a cluster store that does not answer is a warning, and exit status 2 with --strict.")

        @Argument(help: "The JSON config file.") var file: String
        @Flag(help: "Fail (exit status 2) when the cluster store does not answer, not only warn.") var strict = false
        @OptionGroup var options: SettingOptions

        func run() throws {
            let settings = try options.resolve(configFile: file)
            _ = try Startup.check(settings, creating: false)
            print(settings.report)
            guard let cluster = settings.cluster else { return }
            // Only a round trip: a check creates no table in the store.
            do {
                _ = try PostgresConnection(url: cluster).execute("SELECT 1")
                print("cluster store: answers")
            } catch {
                let line = "themed config check: cluster: the store does not answer (\(error)); serve would wait "
                    + "clusterUnreachableSeconds for it, then serve its themes folder as it is"
                FileHandle.standardError.write(Data((line + "\n").utf8))
                if strict { throw ExitCode(2) }
            }
        }
    }
}
