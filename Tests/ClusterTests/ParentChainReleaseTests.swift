import Foundation
import Releases
import Testing
import TestSupport

/// A release is checked whole against the store before it replaces anything (issue 42): its
/// theme.json strictly, its parent chain against the store's themes; retiring a parent that others
/// inherit from is refused; refusals name the operator's own files, in a plain sentence first.
@Suite("parent chains of releases", .serialized, .enabled(if: PostgresServer.unavailableReason == nil, "PostgreSQL is not installed (apt-get install postgresql)"))
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
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-chains-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let token = try TeamReleaseTests.token(postgres, ["--name", "brands", "--themes", "*", "--can", "publish"])
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", "\(ReplicaTests.sampleThemes)/light"]).status == 0)
        let replica = try Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/replica")

        // A parent the store does not hold: 422 naming it, with the nearest theme it does hold.
        let typo = try Self.archive(try Self.theme("dark", settings: #"{"parent": "ligth"}"#, in: folder))
        let refused = try TeamReleaseTests.post("/themes/brand-typo/releases", on: replica, token: token, body: typo)
        #expect(refused.status == 422, "\(refused.text)")
        #expect(refused.text.contains(#"parent \"ligth\" (theme.json) is not a theme; did you mean \"light\"?"#), "\(refused.text)")
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
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-names-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let token = try TeamReleaseTests.token(postgres, ["--name", "brands", "--themes", "*", "--can", "publish"])
        let replica = try Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/replica")
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
    }
}

/// Behind the front door every connection comes from the proxy: the failed-token limit counts the
/// client the trusted proxy forwarded, so one broken CI job does not lock out every team.
@Suite("clients behind trusted proxies", .serialized, .enabled(if: PostgresServer.unavailableReason == nil, "PostgreSQL is not installed (apt-get install postgresql)"))
struct TrustedProxyReleaseTests {
    @Test("two clients behind one proxy: the one that fails its tokens is limited, the other publishes; an untrusted X-Forwarded-For is ignored")
    func failedTokensCountTheClient() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-proxies-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let token = try TeamReleaseTests.token(postgres, ["--name", "brands", "--themes", "*", "--can", "publish"])
        let replica = try ReplicaTests.Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/proxied",
                                               settings: #""trustedProxies": ["127.0.0.0/8"]"#)
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
