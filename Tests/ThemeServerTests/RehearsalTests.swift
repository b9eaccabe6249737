import Foundation
import Logs
import ServiceSupport
import TestSupport
import ThemeServer
import Testing

/// `serve` rehearses the first lookups before it is ready, so that a process's one-time work is
/// not paid by the first client; the rehearsal must leave no trace a client or operator could see.
@Suite("the rehearsal before serving")
struct RehearsalTests {
    static func metric(_ text: String, _ prefix: String) -> Int? {
        text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    @Test("rehearse() resolves a palette through the routes; nothing is counted, logged or kept as an answer")
    func leavesNoTrace() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let path = fixtures.path("access.log")
        let log = AccessLog(sink: try LineSink.opening(path), format: .json)
        let api = try APIFixture(accessLog: log) { f in
            ServerFixture.standardThemes(f)
            f.write(#"{"parent": "light"}"#, to: "themes/brand/theme.json")
        }
        api.service.rehearse()
        log.flush()
        #expect(try String(contentsOfFile: path, encoding: .utf8).isEmpty, "no access line")
        let metrics = try api.request("/metrics").text
        let counted = metrics.split(separator: "\n").filter { $0.hasPrefix("themed_requests_total{") && !$0.contains("route=\"metrics\"") }
        #expect(counted.isEmpty, "no request counted: \(counted)")
        #expect(Self.metric(metrics, "themed_cache_entries{cache=\"responses\"}") == 0, "no answer kept")
        // The child theme's palettes were resolved in both appearances: its parent's two are kept.
        #expect(Self.metric(metrics, "themed_cache_entries{cache=\"palettes\"}") == 2)
    }

    @Test("a service with no theme that has colours rehearses nothing and does not fail")
    func nothingToRehearse() throws {
        let api = try APIFixture { _ in }
        api.service.rehearse()
        let metrics = try api.request("/metrics").text
        #expect(Self.metric(metrics, "themed_cache_entries{cache=\"palettes\"}") == 0)
    }
}
