import Foundation
import Testing
import TestSupport

/// `themed publish` and two `themed serve --cluster` replicas on one real PostgreSQL: what an
/// operator of several replicas sees.
@Suite("replicas following a cluster store", .serialized, .needsPostgres)
struct ReplicaTests {
    /// Built beside the test bundle by `swift build` (every product is built before the tests).
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("themed").path
    static let sampleThemes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("themes").path

    struct NotStarted: Error, CustomStringConvertible { var description: String }

    /// The replicas' `activeToken`: with a cluster store, no change is made without a token.
    static let operatorToken = "replica-operator-token"
    static let asOperator = ["Authorization": "Bearer \(operatorToken)"]

    /// A `themed serve --cluster` in its own folder (themes, index, blobs), on a free port.
    final class Replica {
        let served: ServeProcess
        let errors = Pipe()
        var process: Process { served.process }
        var port: Int { served.port }

        /// `settings`: more members of its themed.json (`"trustedProxies": [...]`).
        init(cluster url: String, unreachableSeconds: Double, folder: String, settings: String = "") throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let more = settings.isEmpty ? "" : ", \(settings)"
            try Data(#"{"watch": false, "activeToken": "\#(ReplicaTests.operatorToken)", "clusterUnreachableSeconds": \#(unreachableSeconds)\#(more)}"#.utf8)
                .write(to: URL(fileURLWithPath: folder + "/themed.json"))
            served = try ServeProcess(executable: ReplicaTests.executable, arguments: [
                "--config", "themed.json", "--cluster", url, "--themes", "themes", "--db", "index.sqlite", "--blobs", "blobs",
            ], in: folder, standardError: errors)
        }

        func get(_ target: String) -> HTTP.Answer? { try? HTTP.get(target, port: port) }

        func themeNames() -> [String] {
            guard let answer = get("/themes"), answer.status == 200,
                  let object = try? JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
                  let themes = object["themes"] as? [[String: Any]] else { return [] }
            return themes.compactMap { $0["name"] as? String }.sorted()
        }
    }

    /// Runs the built `themed`; its output is small (a line or a table), so the pipes are read in turn.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let (output, errors) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let outputText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, outputText, errorText)
    }

    @Test("a publish reaches every replica; a corrupt catalog is refused; PUT /active on one switches all; readiness follows the store; SIGTERM drains")
    func replicas() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-replicas-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let published = try Self.run(["publish", "--cluster", postgres.url, "light", "\(Self.sampleThemes)/light"])
        #expect(published.status == 0, "\(published.errors)")
        let replicas = try (1...2).map { try Replica(cluster: postgres.url, unreachableSeconds: 1, folder: "\(folder)/replica\($0)") }
        // The first sync comes before the first index: each replica starts with the release.
        for replica in replicas {
            #expect(replica.themeNames() == ["light"])
            #expect(replica.get("/readyz")?.status == 200)
        }

        // A file that is not a catalog is refused before anything is stored.
        try Data("not a catalog".utf8).write(to: URL(fileURLWithPath: "\(folder)/Broken.car"))
        let refused = try Self.run(["publish", "--cluster", postgres.url, "dark", "\(folder)/Broken.car"])
        #expect(refused.status == 2 && refused.errors.hasPrefix("themed publish: "), "\(refused.errors)")

        #expect(try Self.run(["publish", "--cluster", postgres.url, "dark", "\(Self.sampleThemes)/dark"]).status == 0)
        #expect(waitUntil { replicas.allSatisfy { $0.themeNames() == ["dark", "light"] } }, "every replica serves the new theme")
        // Content, not `/themes/dark`, whose body also tells how far each replica's background
        // encoding has got.
        for target in ["/themes/dark/colors", "/themes/dark/colors/primary", "/themes/dark/images/logo"] {
            let etags = replicas.map { $0.get(target)?.headers["etag"] }
            #expect(etags[0] != nil && etags[0] == etags[1], "\(target): the same release answers with the same ETag everywhere: \(etags)")
        }

        let streams = try replicas.map { try HTTP.Stream("/events", port: $0.port) }
        for stream in streams { #expect(stream.read(until: "retry: 1000\n\n")) }
        // The defect a loopback exemption made: with a cluster store, a change without a token is refused.
        let anonymous = try HTTP.request("PUT", "/active", port: replicas[0].port, body: Array(#"{"theme":"dark"}"#.utf8))
        #expect(anonymous.status == 401, "\(anonymous.text)")
        let switched = try HTTP.request("PUT", "/active", port: replicas[0].port, headers: Self.asOperator, body: Array(#"{"theme":"dark"}"#.utf8))
        #expect(switched.status == 200, "\(switched.text)")
        #expect(waitUntil { replicas[1].get("/active")?.text.contains("\"dark\"") == true }, "the other replica follows the store")

        // Event ids are the store's generations: the same change has the same id on every
        // replica, so a client that moves resumes where it was, without a resync.
        for stream in streams { #expect(stream.read(until: "event: active-changed")) }
        func switchID(_ text: String) -> String? {
            text.components(separatedBy: "\n\n").first { $0.contains("event: active-changed") }?
                .split(separator: "\n").first { $0.hasPrefix("id: g-") }.map { String($0.dropFirst(4)) }
        }
        let ids = streams.map { switchID($0.text) }
        #expect(ids[0] != nil && ids[0] == ids[1], "\(ids)")
        if let id = ids[0] {
            let moved = try HTTP.Stream("/events", port: replicas[1].port, headers: ["Last-Event-ID": id])
            #expect(moved.read(until: "id: \(id)\n\n"))
            #expect(!moved.text.contains("resync") && !moved.text.contains("event: active-changed"), "\(moved.text)")
        }

        // The store goes away: replicas keep serving and stay ready however long it lasts; the
        // staleness shows in /healthz and /metrics past the limit (1 s).
        try postgres.stop()
        #expect(replicas[0].get("/themes/light")?.status == 200)
        let notStored = try HTTP.request("PUT", "/active", port: replicas[0].port, headers: Self.asOperator, body: Array(#"{"theme":"light"}"#.utf8))
        #expect(notStored.status == 503 && notStored.text.contains("cluster_unavailable"), "\(notStored.text)")
        #expect(replicas[0].get("/active")?.text.contains("\"dark\"") == true, "a change the store did not take is not made here either")
        #expect(waitUntil(8) { replicas.allSatisfy { $0.get("/healthz")?.text.contains(#""reachable":false"#) == true } })
        #expect(replicas.allSatisfy { $0.get("/readyz")?.status == 200 }, "still ready: the door keeps sending traffic")
        #expect(replicas[0].get("/metrics")?.text.contains("themed_cluster_store_reachable 0") == true)
        #expect(replicas[0].get("/themes/light")?.status == 200, "still serving what it has")
        try postgres.start()
        #expect(waitUntil(15) { replicas.allSatisfy { $0.get("/healthz")?.text.contains(#""reachable":true"#) == true } },
                "reachable again once the store answers")
        #expect(replicas[0].get("/metrics")?.text.contains("themed_cluster_store_reachable 1") == true)

        let unsafe = try Self.run(["retire", "--cluster", postgres.url, "../dark"])
        #expect(unsafe.status == 2 && unsafe.errors.hasPrefix("themed retire: "), "\(unsafe.errors)")
        #expect(try Self.run(["retire", "--cluster", postgres.url, "dark"]).status == 0)
        #expect(waitUntil { replicas.allSatisfy { $0.themeNames() == ["light"] } }, "a retired theme leaves every replica")

        // SIGTERM drains: an open event stream is told to reconnect soon, then ended.
        let events = try HTTP.Stream("/events", port: replicas[1].port)
        #expect(events.read(until: "retry: 1000\n\n"))
        replicas[1].process.terminate()
        #expect(events.readToEnd(), "the stream ends")
        let retries = events.text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("retry: ") }.compactMap { Int($0.dropFirst(7)) }
        #expect(retries.count == 2 && (500...2500).contains(retries[1]), "told a delay in the drain's spread: \(events.text)")
        replicas[1].process.waitUntilExit()
        #expect(replicas[1].process.terminationStatus == 0)
        #expect(replicas[0].get("/readyz")?.status == 200)
    }
}
