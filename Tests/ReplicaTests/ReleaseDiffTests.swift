import Foundation
import Testing
import TestSupport

/// A release's diff against another, on a replica of a cluster store: `GET /themes/{theme}/diff`
/// and `themed diff --server`, as a reviewer runs them.
@Suite("release diffs", .serialized, .needsPostgres)
struct ReleaseDiffTests {
    @Test("the current release against the one before: the colour changed, in JSON, markdown and text; the CLI exits 1")
    func currentAgainstPrevious() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = NSTemporaryDirectory() + "themed-release-diff-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The sample light theme's catalog folder, then the same with another primary colour: the
        // folder alone, for `make themes` compiles a catalog beside it that would answer first.
        let (original, edited) = ("\(folder)/original/light", "\(folder)/edited/light")
        for copy in [original, edited] {
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(ReplicaTests.sampleThemes)/light/Theme.xcassets", toPath: "\(copy)/Theme.xcassets")
        }
        let colour = "\(edited)/Theme.xcassets/primary.colorset/Contents.json"
        try String(contentsOfFile: colour, encoding: .utf8).replacingOccurrences(of: "\"0.478\"", with: "\"0.300\"")
            .write(toFile: colour, atomically: true, encoding: .utf8)
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", original]).status == 0)
        #expect(try ReplicaTests.run(["publish", "--cluster", postgres.url, "light", edited]).status == 0)
        let replica = try ReplicaTests.Replica(cluster: postgres.url, unreachableSeconds: 5, folder: "\(folder)/replica")
        #expect(waitUntil(10) { replica.themeNames() == ["light"] })

        let answer = try #require(replica.get("/themes/light/diff"))
        #expect(answer.status == 200 && answer.headers["themed-diff"] == "differs", "\(answer.text)")
        let diff = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        let (from, to) = (try #require(diff["from"] as? Int), try #require(diff["to"] as? Int))
        #expect(from < to)
        let changed = (diff["changed"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(changed == ["primary"], "\(answer.text)")
        #expect(((diff["summary"] as? [String: Any])?["colors"] as? [String: Any])?["changed"] as? Int == 1)

        let markdown = try #require(replica.get("/themes/light/diff?format=markdown"))
        #expect(markdown.headers["content-type"]?.hasPrefix("text/markdown") == true && markdown.text.contains("| `primary` |"), "\(markdown.text)")
        #expect(markdown.text.contains("light@\(from) → light@\(to)"))
        let same = try #require(replica.get("/themes/light/diff?from=\(to)&to=\(to)"))
        #expect(same.status == 200 && same.headers["themed-diff"] == "same", "\(same.text)")
        #expect(replica.get("/themes/light/diff?from=\(to + 50)")?.status == 404)
        #expect(replica.get("/themes/light/diff?from=first")?.status == 400)
        #expect(replica.get("/themes/nothing/diff")?.status == 404)

        // As a reviewer runs it: the replica's text, exit status 1 for a difference.
        let run = try ReplicaTests.run(["diff", "--server", "http://127.0.0.1:\(replica.port)", "--token", ReplicaTests.operatorToken, "light", "\(from)", "\(to)"])
        #expect(run.status == 1 && run.output.contains("changed: primary light, light-p3 #007AFFFF -> #004DFFFF\n"), "\(run.output) \(run.errors)")
        let unchanged = try ReplicaTests.run(["diff", "--server", "http://127.0.0.1:\(replica.port)", "--token", ReplicaTests.operatorToken,
                                              "--format", "json", "light", "\(to)", "\(to)"])
        #expect(unchanged.status == 0 && unchanged.output.contains("\"changed\":[]"), "\(unchanged.output) \(unchanged.errors)")
    }
}
