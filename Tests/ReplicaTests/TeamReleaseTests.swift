import Foundation
import Releases
import Synchronization
import Testing
import TestSupport

/// Teams publishing over HTTP with tokens, on a real PostgreSQL with two real replicas: what a
/// team's CI and an operator see.
@Suite("team releases over HTTP", .serialized, .needsPostgres)
struct TeamReleaseTests {
    typealias Replica = ReplicaTests.Replica

    /// A theme folder as a gzip-compressed tar, the way `themed publish --server` sends one (its
    /// parent chain is the server's to check).
    static func archive(_ folder: String) throws -> [UInt8] {
        let files = try ThemeCheck.files(of: folder, theme: "check", parents: .unchecked)
        let path = NSTemporaryDirectory() + "themed-upload-\(UUID().uuidString.prefix(8)).tar.gz"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try ReleaseArchive.pack(files, to: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func post(_ target: String, on replica: Replica, token: String?, type: String = "application/gzip", body: [UInt8]) throws -> HTTP.Answer {
        var headers = ["Content-Type": type]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return try HTTP.request("POST", target, port: replica.port, headers: headers, body: body)
    }

    static func json(_ answer: HTTP.Answer?) -> [String: Any] {
        answer.flatMap { try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any] } ?? [:]
    }

    static func token(_ postgres: PostgresServer, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ReplicaTests.executable)
        process.arguments = ["token", "create", "--cluster", postgres.url] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("publish, history, rollback and scheduled switches through one replica are seen on both; tokens are checked, scoped, revoked and rate-limited; a cut body stores nothing")
    func teamReleases() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-teams-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let publisher = try Self.token(postgres, ["--name", "brand-ci", "--themes", "brand-*", "--can", "publish"])
        let switcher = try Self.token(postgres, ["--name", "release-manager", "--can", "publish,activate"])
        #expect(publisher.hasPrefix("themed_") && switcher.hasPrefix("themed_"))
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        var replicas = try (1...2).map { try Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/replica\($0)") }

        // A publish over HTTP: 201 with what was stored, then served by both replicas.
        let lightTar = try Self.archive("\(ReplicaTests.sampleThemes)/light"), darkTar = try Self.archive("\(ReplicaTests.sampleThemes)/dark")
        let first = try Self.post("/themes/brand-acme/releases", on: replicas[0], token: publisher, body: lightTar)
        #expect(first.status == 201, "\(first.text)")
        let created = Self.json(first)
        let firstGeneration = created["generation"] as? Int ?? 0
        #expect(created["theme"] as? String == "brand-acme" && created["publisher"] as? String == "brand-ci" && created["files"] as? Int ?? 0 > 1)
        #expect((created["digest"] as? String)?.count == 64 && (created["publishedAt"] as? String)?.hasSuffix("Z") == true)
        #expect(waitUntil { replicas.allSatisfy { $0.themeNames().contains("brand-acme") } }, "both replicas serve the release")
        let lightETag = replicas[1].get("/themes/brand-acme/colors/primary")?.headers["etag"]

        // Through the command line, as a team's CI would: a folder goes as a tar.
        let cli = try ReplicaTests.run(["publish", "--server", "http://127.0.0.1:\(replicas[1].port)", "--token", publisher, "brand-acme",
                                        "\(ReplicaTests.sampleThemes)/dark"])
        #expect(cli.status == 0, "\(cli.errors)")
        #expect(waitUntil { replicas.allSatisfy { $0.get("/themes/brand-acme/colors/primary")?.headers["etag"] != lightETag } })
        #expect(Self.json(replicas[1].get("/themes/brand-acme"))["releases"] as? String == "/themes/brand-acme/releases", "the detail links the history")
        let history = Self.json(replicas[1].get("/themes/brand-acme/releases"))["releases"] as? [[String: Any]] ?? []
        #expect(history.map { $0["current"] as? Bool } == [true, false] && history.last?["generation"] as? Int == firstGeneration, "\(history)")

        // A rollback is a new release with the old content, served everywhere.
        let rollback = try HTTP.request("POST", "/themes/brand-acme/rollback", port: replicas[1].port,
                                        headers: ["Authorization": "Bearer \(publisher)"], body: Array(#"{"generation": \#(firstGeneration)}"#.utf8))
        #expect(rollback.status == 201 && Self.json(rollback)["rollbackOf"] as? Int == firstGeneration, "\(rollback.text)")
        #expect(replicas[1].get("/metrics")?.text.contains("themed_rollbacks_total 1\n") == true)
        #expect(waitUntil { replicas.allSatisfy { $0.get("/themes/brand-acme/colors/primary")?.headers["etag"] == lightETag } }, "the old content is back")

        // Refusals store nothing: no token, an unknown one, another team's theme, a body that is not a theme, a bad type.
        #expect(try Self.post("/themes/brand-acme/releases", on: replicas[0], token: nil, body: darkTar).status == 401)
        let guess = try Self.post("/themes/brand-acme/releases", on: replicas[0], token: "themed_guess", body: darkTar)
        #expect(guess.status == 401 && guess.headers["www-authenticate"] != nil && !guess.text.contains("themed_guess"), "a secret is never echoed")
        #expect(try Self.post("/themes/dark/releases", on: replicas[0], token: publisher, body: darkTar).status == 403)
        let broken = try Self.post("/themes/brand-acme/releases", on: replicas[0], token: publisher, type: "application/octet-stream", body: Array("not a catalog".utf8))
        #expect(broken.status == 422, "\(broken.text)")
        #expect(try Self.post("/themes/brand-acme/releases", on: replicas[0], token: publisher, type: "text/plain", body: darkTar).status == 415)
        #expect(try Self.post("/themes/brand%20acme/releases", on: replicas[0], token: publisher, body: darkTar).status == 400)
        #expect(try HTTP.request("PUT", "/active", port: replicas[0].port, headers: ["Authorization": "Bearer \(publisher)"],
                                 body: Array(#"{"theme":"brand-acme"}"#.utf8)).status == 403, "publishing does not let a token switch")

        // A body cut off mid-way: nothing stored, nothing left in the uploads folder.
        let cut = try TestSocket(port: replicas[0].port)
        cut.send("POST /themes/brand-acme/releases HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(publisher)\r\nContent-Type: application/gzip\r\nContent-Length: \(darkTar.count)\r\n\r\n")
        cut.send(Array(darkTar.prefix(darkTar.count / 2)))
        #expect(waitUntil(3) { ((try? FileManager.default.contentsOfDirectory(atPath: "\(folder)/replica1/uploads")) ?? []).isEmpty == false },
                "the half body is being written to its file")
        cut.close()
        #expect(waitUntil(3) { ((try? FileManager.default.contentsOfDirectory(atPath: "\(folder)/replica1/uploads")) ?? ["?"]).isEmpty })
        #expect((Self.json(replicas[0].get("/themes/brand-acme/releases"))["releases"] as? [Any])?.count == 3, "still three releases")

        // Two publishes of one theme at once: both kept, distinct generations, the later current.
        let generations = Mutex<[Int]>([])
        let threads = [(replicas[0].port, lightTar), (replicas[1].port, darkTar)].map { port, body in
            Thread {
                if let answer = try? HTTP.request("POST", "/themes/brand-acme/releases", port: port,
                                                  headers: ["Content-Type": "application/gzip", "Authorization": "Bearer \(publisher)"], body: body),
                   answer.status == 201,
                   let generation = Self.json(answer)["generation"] as? Int { generations.withLock { $0.append(generation) } }
            }
        }
        threads.forEach { $0.start() }
        #expect(waitUntil(30) { generations.withLock { $0.count } == 2 })
        let both = generations.withLock { $0 }.sorted()
        let newest = (Self.json(replicas[0].get("/themes/brand-acme/releases"))["releases"] as? [[String: Any]])?.first
        #expect(both.count == 2 && both[0] != both[1] && newest?["generation"] as? Int == both.last && newest?["current"] as? Bool == true)

        // A scheduled switch: stored, shown, applied by both replicas after its time and not before.
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "dark", "\(ReplicaTests.sampleThemes)/dark"]).status == 0)
        #expect(waitUntil { replicas.allSatisfy { $0.themeNames().contains("dark") } })
        let at = Date().addingTimeInterval(2.5)
        let scheduled = try HTTP.request("PUT", "/active", port: replicas[0].port, headers: ["Authorization": "Bearer \(switcher)"],
                                         body: Array(#"{"theme":"dark","at":"\#(Self.rfc3339(at))"}"#.utf8))
        #expect(scheduled.status == 202, "\(scheduled.text)")
        #expect(waitUntil(2) { (Self.json(replicas[1].get("/active"))["scheduled"] as? [[String: Any]])?.first?["theme"] as? String == "dark" })
        #expect(replicas.allSatisfy { Self.json($0.get("/active"))["theme"] as? String != "dark" }, "not before its time")
        #expect(waitUntil(4) { replicas.allSatisfy { Self.json($0.get("/active"))["theme"] as? String == "dark" } })
        let late = Date().timeIntervalSince(at)
        #expect(late >= 0 && late <= 1.0, "every replica switched within 1 s of its time: \(late) s")

        // A replica away when a schedule falls due applies it when it starts.
        replicas[1].process.terminate()
        replicas[1].process.waitUntilExit()
        let whileAway = Date().addingTimeInterval(1)
        #expect(try HTTP.request("PUT", "/active", port: replicas[0].port, headers: ["Authorization": "Bearer \(switcher)"],
                                 body: Array(#"{"theme":"light","at":"\#(Self.rfc3339(whileAway))"}"#.utf8)).status == 202)
        // And one cancelled is never applied.
        let cancelled = Self.json(try HTTP.request("PUT", "/active", port: replicas[0].port, headers: ["Authorization": "Bearer \(switcher)"],
                                                   body: Array(#"{"theme":"brand-acme","at":"\#(Self.rfc3339(whileAway.addingTimeInterval(0.5)))"}"#.utf8)))
        let id = (cancelled["scheduled"] as? [String: Any])?["id"] as? Int ?? 0
        #expect(try HTTP.request("DELETE", "/active/schedule/\(id)", port: replicas[0].port, headers: ["Authorization": "Bearer \(publisher)"]).status == 403)
        #expect(try HTTP.request("DELETE", "/active/schedule/\(id)", port: replicas[0].port, headers: ["Authorization": "Bearer \(switcher)"]).status == 200)
        #expect(try HTTP.request("DELETE", "/active/schedule/\(id)", port: replicas[0].port, headers: ["Authorization": "Bearer \(switcher)"]).status == 404)
        #expect(try HTTP.request("DELETE", "/active/schedule/x\(id)", port: replicas[0].port, headers: ["Authorization": "Bearer \(switcher)"]).text.contains("no schedule x\(id)"))
        // Both times pass while the second replica is away, the first applying the one not cancelled.
        #expect(waitUntil(5) { Date() > whileAway.addingTimeInterval(1) && Self.json(replicas[0].get("/active"))["theme"] as? String == "light" })
        replicas[1] = try Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/replica2")
        #expect(waitUntil(5) { replicas.allSatisfy { Self.json($0.get("/active"))["theme"] as? String == "light" } })

        // A revoked token is refused at once; guessing is limited per address.
        #expect(try ReplicaTests.run(["token", "revoke", "--cluster", postgres.url, "brand-ci"]).status == 0)
        #expect(try Self.post("/themes/brand-acme/releases", on: replicas[0], token: publisher, body: lightTar).status == 401)
        let guesses = try (1...12).map { _ in try Self.post("/themes/brand-acme/releases", on: replicas[1], token: "themed_wrong", body: []).status }
        #expect(guesses.prefix(10).allSatisfy { $0 == 401 } && guesses.suffix(2).allSatisfy { $0 == 429 }, "\(guesses)")
        let metrics = replicas[0].get("/metrics")?.text ?? ""
        #expect(metrics.contains("themed_publishes_total 2\n") && metrics.contains("themed_publish_refusals_total 7\n"), "\(metrics)")
    }

    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// A raw client socket, for a request cut off half way.
final class TestSocket {
    let fd: Int32

    init(port: Int) throws {
        fd = try HTTP.connectedSocket(port: port)
    }

    func send(_ text: String) { send(Array(text.utf8)) }
    func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
    func close() { Glibc.close(fd) }
}
