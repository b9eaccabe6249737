import ArgumentParser
import Cluster
import Foundation
import HTTPServer
import Settings

/// `themed config check FILE`: the effective configuration, each value with where it came from.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "config", abstract: "Work with configuration files.", subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate a config file and print the effective settings with the source of each value.",
            discussion: "Also checks the paths serve needs (the themes folder exists; the index and blob folders can be written) "
                + "and, with a cluster store, that it answers. "
                + "Exit status 2, with one line naming the key or path, when something cannot be used; "
                + "Warnings (a cluster store that does not answer; loopback clients taken for the operator where a proxy "
                + "on this host looks likely) go to standard error, and are exit status 2 with --strict.")

        @Argument(help: "The JSON config file.") var file: String
        @Flag(help: "Fail (exit status 2) on a warning, not only warn.") var strict = false
        @OptionGroup var options: SettingOptions

        func run() throws {
            let settings = try options.resolve(configFile: file)
            try Startup.check(settings, creating: false)
            print(settings.report)
            var warnings = Self.proxyWarning(settings).map { [$0] } ?? []
            if let cluster = settings.cluster {
                // Only a round trip: a check creates no table in the store.
                do {
                    _ = try PostgresConnection(url: cluster).execute("SELECT 1")
                    print("cluster store: answers")
                } catch {
                    warnings.append("cluster: the store does not answer (\(error)); serve would wait "
                                    + "clusterUnreachableSeconds for it, then serve its themes folder as it is")
                }
            }
            for warning in warnings { FileHandle.standardError.write(Data("themed config check: \(warning)\n".utf8)) }
            if strict, !warnings.isEmpty { throw ExitCode(2) }
        }

        /// Loopback clients are the operator (no token needed to switch every client's theme),
        /// and something says a proxy or cache on this host forwards to themed: every client
        /// it forwards would look local. themed refuses forwarded requests from peers not in
        /// trustedProxies, but a proxy that sends no X-Forwarded-For is not seen.
        static func proxyWarning(_ settings: ServerSettings) -> String? {
            guard settings.loopbackIsOperator, settings.trustedProxies.isEmpty else { return nil }
            let signs = (settings.purgeURLs.isEmpty ? [] : ["purgeURLs names a cache in front"])
                + (TrustedProxies.isLoopback(settings.host) ? ["host \(settings.host) is reached only from this machine, as a proxy here would"] : [])
            guard !signs.isEmpty else { return nil }
            return "operatorLoopback: loopback clients may change the active theme, aliases and rollouts without a token, and "
                + signs.joined(separator: "; ") + ". A proxy on this host makes every client it forwards look local: "
                + "set activeToken (or operatorLoopback: false), or list the proxy in trustedProxies"
        }
    }
}
