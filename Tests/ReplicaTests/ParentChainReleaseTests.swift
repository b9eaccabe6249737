import Foundation
import Releases
import Testing
import TestSupport

/// A throwaway PostgreSQL, a scratch folder, a token that may publish every theme and one
/// replica following the store (`settings`: more members of its themed.json).
struct ClusterFixture {
    let postgres: PostgresServer
    let folder: String
    let token: String
    let replica: ReplicaTests.Replica

    init(settings: String = "") throws {
        postgres = try PostgresServer()
        folder = NSTemporaryDirectory() + "themed-cluster-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        token = try TeamReleaseTests.token(postgres, ["--name", "ops", "--themes", "*", "--can", "publish"])
        replica = try ReplicaTests.Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/replica", settings: settings)
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}

/// A release is checked whole against the store before it replaces anything (issue 42): its
/// theme.json strictly, its parent chain against the store's themes; retiring a parent that others
/// inherit from is refused; refusals name the operator's own files, in a plain sentence first.
@Suite("parent chains of releases", .serialized, .needsPostgres)
struct ParentChainReleaseTests {
    typealias Replica = ReplicaTests.Replica

    /// A copy of a sample theme with `settings` as its theme.json.
    static func theme(_ sample: String, settings: String?, in folder: String) throws -> String {
        let path = "\(folder)/\(sample)-\(UUID().uuidString.prefix(6))"
        try FileManager.default.copyItem(atPath: "\(ReplicaTests.sampleThemes)/\(sample)", toPath: path)
        try? FileManager.default.removeItem(atPath: "\(path)/theme.json")
        if let settings { try Data(settings.utf8).write(to: URL(fileURLWithPath: "\(path)/theme.json")) }
        return path
    }

    /// A folder as a tar, unchecked (what a client that skips the check sends).
    static func archive(_ folder: String) throws -> [UInt8] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().flatMap { entry -> [ThemeCheck.File] in
            let path = "\(folder)/\(entry)"
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            guard isFolder.boolValue else { return [ThemeCheck.File(path: entry, location: path)] }
            return (FileManager.default.subpaths(atPath: path) ?? []).sorted().compactMap { sub in
                var isDirectory: ObjCBool = false
                FileManager.default.fileExists(atPath: "\(path)/\(sub)", isDirectory: &isDirectory)
                return isDirectory.boolValue ? nil : ThemeCheck.File(path: "\(entry)/\(sub)", location: "\(path)/\(sub)")
            }
        }
        let archive = NSTemporaryDirectory() + "themed-raw-\(UUID().uuidString.prefix(8)).tar.gz"
        defer { try? FileManager.default.removeItem(atPath: archive) }
        try ReleaseArchive.pack(files, to: archive)
        return Array(try Data(contentsOf: URL(fileURLWithPath: archive)))
    }

    @Test("a missing parent, a loop or a misspelt key is refused at publish (422 over HTTP, exit 2 from the CLI) and nothing is stored; a parent in use cannot be retired")
    func releasesCheckedAgainstTheStore() throws {
        let cluster = try ClusterFixture()
        defer { cluster.remove() }
        let (postgres, folder, token, replica) = (cluster.postgres, cluster.folder, cluster.token, cluster.replica)
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)

        // A parent the store does not hold: 422 naming it, with the nearest theme it does hold.
        let typo = try Self.archive(try Self.theme("dark", settings: #"{"parent": "ligth"}"#, in: folder))
        let refused = try TeamReleaseTests.post("/themes/brand-typo/releases", on: replica, token: token, body: typo)
        #expect(refused.status == 422, "\(refused.text)")
        #expect(refused.text.contains(#"parent \"ligth\" (theme.json) is not a theme; did you mean \"light\"?"#), "\(refused.text)")
        #expect(replica.get("/themes/brand-typo/releases")?.status == 404, "nothing stored")
        // The same from the command line, which checks the chain once the store's themes arrive.
        let typoByCLI = try ReplicaTests.run(["publish", "--cluster", postgres.url, "brand-typo", try Self.theme("dark", settings: #"{"parent": "ligth"}"#, in: folder)])
        #expect(typoByCLI.status == 2 && typoByCLI.errors.contains(#"parent "ligth" (theme.json) is not a theme; did you mean "light"?"#), "\(typoByCLI.errors)")
        #expect(replica.get("/themes/brand-typo/releases")?.status == 404, "nothing stored")

        // A misspelt key is refused the same way, naming the key it meant.
        let misspelt = try Self.archive(try Self.theme("dark", settings: #"{"parnet": "light"}"#, in: folder))
        let unknownKey = try TeamReleaseTests.post("/themes/brand-typo/releases", on: replica, token: token, body: misspelt)
        #expect(unknownKey.status == 422 && unknownKey.text.contains(#"theme.json: unknown key \"parnet\" (did you mean \"parent\"?)"#), "\(unknownKey.text)")

        // A good child is taken and served with its parent's colours.
        let child = try Self.theme("dark", settings: #"{"parent": "light"}"#, in: folder)
        let published = try ReplicaTests.run(["publish", "--cluster", postgres.url, "brand", child])
        #expect(published.status == 0, "\(published.errors)")
        #expect(waitUntil { replica.themeNames() == ["brand", "light"] })
        #expect(TeamReleaseTests.json(replica.get("/themes/brand"))["chain"] as? [String] == ["brand", "light"])

        // The parent made the child's child: a loop, refused from the command line.
        let loop = try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", try Self.theme("light", settings: #"{"parent": "brand"}"#, in: folder)])
        #expect(loop.status == 2 && loop.errors.contains("parent chain loops: light → brand → light"), "\(loop.errors)")
        #expect(!loop.errors.contains("themed-publish-"), "no scratch path: \(loop.errors)")

        // Retiring the parent would cut the brand off: refused, naming it.
        let retire = try ReplicaTests.run(["retire", "--cluster", postgres.url, "light"])
        #expect(retire.status == 2 && retire.errors.contains("light cannot be retired: brand inherits from it"), "\(retire.errors)")
        #expect(replica.themeNames() == ["brand", "light"])
        #expect(try ReplicaTests.run(["retire", "--cluster", postgres.url, "brand"]).status == 0)
        #expect(try ReplicaTests.run(["retire", "--cluster", postgres.url, "light"]).status == 0, "no child left")
    }

    @Test("a broken .car over HTTP is named as the release names it, in a plain sentence first; the CLI names the path given and never twice")
    func operatorsOwnNames() throws {
        let cluster = try ClusterFixture()
        defer { cluster.remove() }
        let (postgres, folder, token, replica) = (cluster.postgres, cluster.folder, cluster.token, cluster.replica)
        #expect(try ReplicaTests.run(["compile", "\(ReplicaTests.sampleThemes)/light/Theme.xcassets", "-o", "\(folder)/Light.car"]).status == 0)
        let catalog = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/Light.car"))
        let truncated = Array(catalog.prefix(catalog.count / 2))

        let answer = try TeamReleaseTests.post("/themes/brand/releases", on: replica, token: token, type: "application/octet-stream", body: truncated)
        let message = ((TeamReleaseTests.json(answer)["error"] as? [String: Any])?["message"] as? String) ?? ""
        #expect(answer.status == 422 && message.hasPrefix("Assets.car is not a complete asset catalog: it ends at byte"), "\(answer.text)")
        #expect(!message.contains("uploads/") && !message.contains("body-"), "no spool path: \(message)")

        let file = "\(folder)/broken-trunc.car"
        try Data(truncated).write(to: URL(fileURLWithPath: file))
        let cli = try ReplicaTests.run(["publish", "--cluster", postgres.url, "brand", file])
        #expect(cli.status == 2 && cli.errors.hasPrefix("themed publish: \(file) is not a complete asset catalog"), "\(cli.errors)")
        #expect(cli.errors.components(separatedBy: "broken-trunc.car").count == 2, "the file is named once: \(cli.errors)")

        // Through a door that answers without themed (nothing listens): said plainly, and a
        // non-JSON answer is never printed as the error.
        let closed = Loopback.freePort()
        let noDoor = try ReplicaTests.run(["publish", "--server", "http://127.0.0.1:\(closed)", "--token", token, "brand",
                                           "\(ReplicaTests.sampleThemes)/light"])
        #expect(noDoor.status == 2 && noDoor.errors.contains("did not answer"), "\(noDoor.errors)")
        #expect(noDoor.errors.contains("Couldn't connect to server") && !noDoor.errors.contains("Error Domain"), "one sentence, not an NSError: \(noDoor.errors)")
    }
}

/// Behind the front door every connection comes from the proxy: the failed-token limit counts the
/// client the trusted proxy forwarded, so one broken CI job does not lock out every team.
@Suite("clients behind trusted proxies", .serialized, .needsPostgres)
struct TrustedProxyReleaseTests {
    @Test("two clients behind one proxy: the one that fails its tokens is limited, the other publishes; an untrusted X-Forwarded-For is ignored")
    func failedTokensCountTheClient() throws {
        let cluster = try ClusterFixture(settings: #""trustedProxies": ["127.0.0.0/8"]"#)
        defer { cluster.remove() }
        let (postgres, folder, token, replica) = (cluster.postgres, cluster.folder, cluster.token, cluster.replica)
        func post(forwardedFor client: String, token: String) throws -> HTTP.Answer {
            try HTTP.request("POST", "/themes/brand/rollback", port: replica.port,
                             headers: ["Authorization": "Bearer \(token)", "X-Forwarded-For": client], body: Array(#"{"generation": 1}"#.utf8))
        }
        for _ in 0..<10 { #expect(try post(forwardedFor: "198.51.100.7", token: "themed_wrong").status == 401) }
        #expect(try post(forwardedFor: "198.51.100.7", token: "themed_wrong").status == 429, "the failing client is limited")
        #expect(try post(forwardedFor: "198.51.100.7, 127.0.0.1", token: "themed_wrong").status == 429, "a chain of trusted proxies ends at it")
        let other = try post(forwardedFor: "198.51.100.8", token: token)
        #expect(other.status == 404, "another client behind the same proxy is not limited (its rollback finds no release): \(other.text)")

        // Not trusted: the header is anyone's to send, so the connection's address counts.
        let direct = try ReplicaTests.Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/direct")
        for number in 0..<10 {
            let answer = try HTTP.request("POST", "/themes/brand/rollback", port: direct.port,
                                          headers: ["Authorization": "Bearer themed_wrong", "X-Forwarded-For": "198.51.100.\(number)"],
                                          body: Array(#"{"generation": 1}"#.utf8))
            #expect(answer.status == 401)
        }
        let limited = try HTTP.request("POST", "/themes/brand/rollback", port: direct.port,
                                       headers: ["Authorization": "Bearer themed_wrong", "X-Forwarded-For": "198.51.100.99"], body: Array(#"{"generation": 1}"#.utf8))
        #expect(limited.status == 429, "a forged header does not escape the limit")
    }
}

/// One generation for an operator to read: the number in an event's id, in its data, in the
/// release history and in a rollback are the same.
@Suite("one generation", .serialized, .needsPostgres)
struct OneGenerationTests {
    @Test("an event's data carries the generation in its id; themed releases lists it and themed rollback takes it")
    func generationEverywhere() throws {
        let cluster = try ClusterFixture()
        defer { cluster.remove() }
        let (postgres, token, replica) = (cluster.postgres, cluster.token, cluster.replica)
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        #expect(waitUntil { replica.themeNames() == ["light"] })
        let events = try HTTP.Stream("/events", port: replica.port)
        #expect(events.read(until: "retry: 1000\n\n"))
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/dark"]).status == 0)
        #expect(events.read(until: "event: theme-reloaded"))
        #expect(events.read(until: "\n\n"))
        let event = events.text.components(separatedBy: "\n\n").first { $0.contains("event: theme-reloaded") } ?? ""
        let id = event.split(separator: "\n").first { $0.hasPrefix("id: g-") }.flatMap { Int($0.dropFirst(6)) }
        #expect(id != nil && event.contains(#""generation":\#(id ?? -1),"#), "\(event)")

        let server = "http://127.0.0.1:\(replica.port)"
        let releases = try ReplicaTests.run(["releases", "--server", server, "--token", token, "light"])
        let rows = releases.output.split(separator: "\n")
        #expect(releases.status == 0 && rows.first?.hasPrefix("GENERATION") == true && rows.count == 3, "\(releases.output)\(releases.errors)")
        #expect(rows.dropFirst().first?.hasPrefix("\(id ?? -1) ") == true && rows.dropFirst().first?.hasSuffix("current") == true, "\(releases.output)")
        let first = rows.last.flatMap { $0.split(separator: " ").first }.map(String.init) ?? "?"
        let rollback = try ReplicaTests.run(["rollback", "--server", server, "--token", token, "light", first])
        #expect(rollback.status == 0 && rollback.output.contains("back to the content of generation \(first)"), "\(rollback.output)\(rollback.errors)")
        let after = try ReplicaTests.run(["releases", "--server", server, "--token", token, "light"])
        #expect(after.output.contains("rollback of \(first)"), "\(after.output)")
        let unknown = try ReplicaTests.run(["rollback", "--server", server, "--token", token, "light", "999999"])
        #expect(unknown.status == 2 && unknown.errors.contains("refused it (404)"), "\(unknown.errors)")
    }

    @Test("a door that answers with its own page (no replica behind it): the CLI says so with the status, never prints the page")
    func proxyPage() throws {
        let (listener, port) = Loopback.boundSocket(listening: true)
        defer { close(listener) }
        let page = "<!DOCTYPE html><html><body><h1>Error 503 Backend fetch failed</h1></body></html>"
        let door = Thread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = recv(client, &buffer, buffer.count, 0)
            let answer = "HTTP/1.1 503 Backend fetch failed\r\nContent-Type: text/html\r\nContent-Length: \(page.utf8.count)\r\nConnection: close\r\n\r\n\(page)"
            _ = answer.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            close(client)
        }
        door.start()
        let run = try ReplicaTests.run(["releases", "--server", "http://127.0.0.1:\(port)", "--token", "t", "light"])
        #expect(run.status == 2 && run.errors.contains("the front door answered 503 without themed's answer"), "\(run.errors)")
        #expect(!run.errors.contains("<html>") && !run.errors.contains("Backend fetch failed"), "\(run.errors)")
    }
}
