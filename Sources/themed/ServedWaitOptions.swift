import ArgumentParser
import Cluster
import Foundation
import Releases
import ThemeServer
import ThemeVocabulary

/// How long a change command waits for every ready replica to serve the change: the command
/// returns when the change is live everywhere (and the caches in front were told), or says which
/// replicas lag, with exit status 3 (the change is stored: it is not to be sent again).
struct ServedWaitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds to wait for every ready replica to serve the change (0-\(ServedWait.maximumSeconds)).", valueName: "seconds"))
    var wait = ServedWait.defaultSeconds
    @Flag(help: "Return once the store holds the change, without waiting for the replicas (as --wait 0).") var noWait = false

    /// The wait asked for; nil for none.
    func served(command: String) throws -> ServedWait? {
        guard (0...ServedWait.maximumSeconds).contains(wait) else { throw Publish.refuse("--wait is 0 to \(ServedWait.maximumSeconds) seconds", command: command) }
        return noWait || wait == 0 ? nil : ServedWait(timeout: .seconds(wait))
    }

    /// `wait=N` for a server's change routes.
    func queryItem(command: String) throws -> String {
        "wait=\(try served(command: command).map { _ in wait } ?? 0)"
    }

    /// The exit of a change some replicas did not serve in time: what lags, and status 3.
    static func lagging(_ description: String, generation: Generation, command: String) -> ExitCode {
        FileHandle.standardError.write(Data("themed \(command): generation \(generation) is stored, but not yet served by \(description)\n".utf8))
        return ExitCode(3)
    }

    /// From a server's answer (its `replicas` member): who lags, as `ReplicaReport.laggingDescription` words it; nil when none does.
    static func lagging(in answer: Any?) -> String? {
        guard let object = answer as? [String: Any], let replicas = object["replicas"] as? [String: Any],
              let lagging = replicas["lagging"] as? [[String: Any]], !lagging.isEmpty else { return nil }
        return lagging.map { "\($0["name"] ?? "?") (serves generation \($0["generation"] ?? "?"))" }.joined(separator: ", ")
    }
}

/// `themed replicas`: the replicas following the cluster store and the generation each serves,
/// as a change's wait reads them.
struct ListReplicas: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replicas",
        abstract: "List the replicas following the cluster store and the generation each serves.",
        discussion: "A replica is listed from its first index until its connection to the store closes (stopped or killed); "
            + "one that hangs stays listed at the generation it served last.")

    @Option(help: "PostgreSQL URL of the cluster store.") var cluster: String

    func run() throws {
        let replicas = try Publish.onStore(cluster, command: "replicas") { try $0.replicasServing() }
        let width = max(7, replicas.map(\.name.count).max() ?? 0)
        print("replica".padding(toLength: width, withPad: " ", startingAt: 0) + "  generation")
        for replica in replicas { print(replica.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(replica.generation)") }
    }
}
