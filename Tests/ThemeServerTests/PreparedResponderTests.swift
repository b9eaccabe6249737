import Foundation
import HTTPServer
import HTTPTypes
import Logging
import Logs
import ServiceSupport
import TestSupport
@testable import ThemeServer
import Testing

/// A kept answer (`PreparedResponder`) must be what the middleware chain would have sent: the same headers
/// and body, only the request's own fields differing.
@Suite("kept answers (the hot path)")
struct PreparedResponderTests {
    static let targets = ["/themes/dark/colors/primary", "/themes/light/colors?appearance=dark",
                          "/themes/light/images/logo?scale=2&appearance=dark", "/themes/light/images/logo.json?scale=2"]

    /// Every field but the request id, as name: value lines in order.
    static func fields(_ response: APIResponse) -> [String] {
        response.response.allHeaders.filter { $0.name != .requestID }.map { "\($0.name.rawName): \($0.value)" }
    }

    static func responseCacheHits(_ api: APIFixture) throws -> Int {
        let metrics = try api.request("/metrics").text
        let line = try #require(metrics.split(separator: "\n").first { $0.hasPrefix("themed_cache_hits_total{cache=\"responses\"}") })
        return try #require(Int(line.split(separator: " ").last ?? ""))
    }

    @Test("a kept answer carries the routed answer's headers and body, for any origin or a listed one, asked with an Origin or not",
          arguments: [["*"], ["https://app.example"]])
    func sameAnswer(allowedOrigins: [String]) throws {
        let api = try APIFixture(allowedOrigins: allowedOrigins)
        for target in Self.targets {
            for headers in [[:], ["Origin": "https://app.example"], ["Origin": "https://elsewhere.example"]] {
                try api.service.reload() // a new epoch: nothing is kept, so the first answer is routed
                let hitsBefore = try Self.responseCacheHits(api)
                let routed = try api.request(target, headers: headers)
                #expect(try Self.responseCacheHits(api) == hitsBefore, "\(target) \(headers): the first answer was routed")
                let kept = try api.request(target, headers: headers)
                #expect(try Self.responseCacheHits(api) > hitsBefore, "\(target) \(headers): the second answer was kept")
                #expect(routed.status == 200 && kept.status == 200, "\(target)")
                #expect(Self.fields(kept) == Self.fields(routed), "\(target) \(headers)")
                #expect(kept.body == routed.body, "\(target)")
                let ids = [routed.header("X-Request-Id"), kept.header("X-Request-Id")]
                #expect(ids.allSatisfy { $0 != nil } && ids[0] != ids[1], "each request its own id: \(ids)")
            }
        }
        // What CORS says per Origin, on kept answers too.
        let target = Self.targets[0]
        let listed = try api.request(target, headers: ["Origin": "https://app.example"])
        let other = try api.request(target, headers: ["Origin": "https://elsewhere.example"])
        if allowedOrigins == ["*"] {
            #expect(listed.header("Access-Control-Allow-Origin") == "*" && other.header("Access-Control-Allow-Origin") == "*")
        } else {
            #expect(listed.header("Access-Control-Allow-Origin") == "https://app.example")
            #expect(listed.header("Access-Control-Expose-Headers")?.contains("X-Request-Id") == true)
            #expect(other.header("Access-Control-Allow-Origin") == nil && other.header("Vary")?.contains("Origin") == true)
        }
    }

    @Test("If-None-Match on a kept answer: the same 304 the chain gives, with CORS and a request id; a stale tag gets the 200")
    func notModified() throws {
        let api = try APIFixture(allowedOrigins: ["https://app.example"])
        let target = Self.targets[2]
        let first = try api.request(target)
        let etag = try #require(first.header("ETag"))
        let asked = ["If-None-Match": etag, "Origin": "https://app.example"]
        let routed304 = try api.request(target, headers: asked) // the first 304 may come through the chain
        let kept304 = try api.request(target, headers: asked)
        for answer in [routed304, kept304] {
            #expect(answer.status == 304 && answer.body.isEmpty)
            #expect(answer.header("Content-Type") == nil && answer.header("ETag") == etag)
            #expect(answer.header("Access-Control-Allow-Origin") == "https://app.example" && answer.header("X-Request-Id") != nil)
        }
        #expect(Self.fields(kept304) == Self.fields(routed304))
        #expect(try api.request(target, headers: ["If-None-Match": "\"stale\", \(etag)"]).status == 304, "a list naming it")
        #expect(try api.request(target, headers: ["If-None-Match": "*"]).status == 304)
        #expect(try api.request(target, headers: ["If-None-Match": "\"stale\""]).status == 200)
    }

    /// The head of a request as the server's parser hands it over (to its `HeadResponder`).
    static func head(_ text: String) throws -> RequestHead {
        let parser = RequestParser(limits: .init(requestLineBytes: 8192, headerBytes: 16384, bodyBytes: 1024))
        guard case .request(let head, _, _, _) = parser.parse(Array(text.utf8)[...], remoteAddress: "127.0.0.1:1") else {
            throw APIResponse.Failure(description: "not parsed: \(text)")
        }
        return head
    }

    /// The service's kept answer to `head` as the server sends it: with the fields that request
    /// adds, which the server hands over empty.
    static func kept(_ service: ThemeService, _ head: RequestHead) -> Response? {
        var fields = FieldLines()
        return service.answer(head, requestFields: &fields)?.response(adding: fields)
    }

    @Test("the server's way: the answer kept for a Request is found from its head alone, trait fields in any case; others are not")
    func fromHead() throws {
        let api = try APIFixture()
        let target = Self.targets[2]
        let plain = "GET \(target) HTTP/1.1\r\nHost: themed.example\r\n\r\n"
        #expect(Self.kept(api.service, try Self.head(plain)) == nil, "nothing kept yet")
        let routed = try api.request(target)
        let kept = APIResponse(try #require(Self.kept(api.service, try Self.head(plain))))
        #expect(kept.status == 200 && Self.fields(kept) == Self.fields(routed) && kept.body == routed.body)
        #expect(kept.header("X-Request-Id") != routed.header("X-Request-Id"))

        // The fields that carry traits are part of the key, however a client spells their names.
        let dark = try api.request(target, headers: ["Sec-CH-Prefers-Color-Scheme": "dark"])
        let darkHead = "GET \(target) HTTP/1.1\r\nHost: a\r\nsec-ch-prefers-color-scheme:   dark \r\n\r\n"
        let keptDark = APIResponse(try #require(Self.kept(api.service, try Self.head(darkHead))))
        #expect(Self.fields(keptDark) == Self.fields(dark) && keptDark.body == dark.body)
        let lightHead = "GET \(target) HTTP/1.1\r\nHost: a\r\nSec-CH-Prefers-Color-Scheme: light\r\n\r\n"
        #expect(Self.kept(api.service, try Self.head(lightHead)) == nil, "another trait value is another answer, not kept yet")

        // What differs per request is read from the head: If-None-Match, the client's request id.
        let etag = try #require(routed.header("ETag"))
        let conditional = "GET \(target) HTTP/1.1\r\nHost: a\r\nIf-None-Match: \"old\"\r\nif-none-match: \(etag)\r\nX-Request-Id: deploy-7\r\n\r\n"
        let notModified = APIResponse(try #require(Self.kept(api.service, try Self.head(conditional))))
        #expect(notModified.status == 304 && notModified.header("X-Request-Id") == "deploy-7")
        // An absolute-form target is the same target; a POST is never a kept answer.
        #expect(Self.kept(api.service, try Self.head("GET http://themed.example\(target) HTTP/1.1\r\nHost: themed.example\r\n\r\n"))?.status == .ok)
        #expect(Self.kept(api.service, try Self.head("POST \(target) HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")) == nil)
    }

    @Test("with the main log at debug level, a kept answer still answers from the head, and has its debug line")
    func debugLogging() throws {
        let records = RecordingLogHandler.Records()
        var logger = Logger(label: "themed") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .debug
        let api = try APIFixture(logger: logger)
        let target = Self.targets[0]
        _ = try api.request(target)
        #expect(try api.request(target).status == 200)
        let before = records.all.count
        #expect(Self.kept(api.service, try Self.head("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n"))?.status == .ok)
        #expect(records.all.dropFirst(before).contains { $0.hasPrefix("debug request ") && $0.contains("path=\(target)") && $0.contains("status=200") },
                "\(records.all.suffix(3))")
    }

    @Test("every kept answer is counted per route and status, and a client's usable request id is kept")
    func metricsAndIDs() throws {
        let api = try APIFixture()
        let target = Self.targets[0]
        let etag = try #require(try api.request(target).header("ETag"))
        for _ in 0..<9 { _ = try api.request(target) }
        for _ in 0..<5 { _ = try api.request(target, headers: ["If-None-Match": etag]) }
        let metrics = try api.request("/metrics").text
        #expect(metrics.contains("themed_requests_total{route=\"color\",status=\"200\"} 10"), "\(metrics.prefix(2000))")
        #expect(metrics.contains("themed_requests_total{route=\"color\",status=\"304\"} 5"))
        #expect(try api.request(target, headers: ["X-Request-Id": "deploy-42"]).header("X-Request-Id") == "deploy-42")
        let replaced = try #require(try api.request(target, headers: ["X-Request-Id": "has spaces"]).header("X-Request-Id"))
        #expect(replaced.range(of: "^[0-9a-f]{12}-[0-9a-f]+$", options: .regularExpression) != nil, "\(replaced)")
    }

    @Test("request ids: one process prefix, a different count each time, none twice across threads")
    func requestIDs() async throws {
        let ids = RequestIDs()
        let request = try Request(target: "/")
        let made = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (0..<2_000).map { _ in ids.id(for: request) } } }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(Set(made).count == made.count)
        #expect(made.allSatisfy { $0.hasPrefix(ids.prefix) && $0.count > ids.prefix.count })
        #expect(RequestIDs().prefix != ids.prefix, "another process (or restart) draws another prefix")
        #expect(RequestIDs.usable(String(repeating: "a", count: 129)) == nil && RequestIDs.usable("") == nil)
        // Written into an answer's fields in place: the same form, the count going on; a usable sent id kept.
        var fields = FieldLines()
        let written = ids.addID(sent: nil, loop: nil, to: &fields)
        let sent = ids.addID(sent: "deploy-9", loop: nil, to: &fields)
        #expect(fields.text(at: written).hasPrefix(ids.prefix) && !made.contains(fields.text(at: written)))
        #expect(fields.fields.map(\.value) == [fields.text(at: written), "deploy-9"] && fields.text(at: sent) == "deploy-9")
    }

    @Test("the access log has a line for every answer, kept or routed, written in batches and all of them by flush()")
    func accessLog() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let path = fixtures.path("access.log")
        let log = AccessLog(sink: try LineSink.opening(path), format: .json)
        let api = try APIFixture(accessLog: log)
        for _ in 0..<50 { _ = try api.request(Self.targets[0]) }
        log.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 50)
        #expect(lines.allSatisfy { $0.contains("\"route\":\"color\"") && $0.contains("\"status\":200") })
    }

    @Test("a text access line: the common log format with the route, the duration in ms and the request id")
    func textAccessLine() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let path = fixtures.path("access.log")
        let log = AccessLog(sink: try LineSink.opening(path), format: .text)
        let api = try APIFixture(accessLog: log)
        for _ in 0..<2 { _ = try api.request(Self.targets[0], headers: ["X-Request-Id": "abc-1"]) }
        log.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let pattern = #/^127\.0\.0\.1:40000 - - \[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] "GET /themes/dark/colors/primary HTTP/1\.1" 200 \d+ route=color duration_ms=\d+\.\d{1,3} request_id=abc-1$/#
        #expect(lines.count == 2 && lines.allSatisfy { $0.wholeMatch(of: pattern) != nil }, "\(lines)")
        // Durations read as the number `milliseconds` gives: to the microsecond, no trailing zeros.
        for (duration, text) in [(Duration.microseconds(12), "0.012"), (.microseconds(1500), "1.5"), (.milliseconds(2), "2.0"),
                                 (.microseconds(1050), "1.05"), (.seconds(3) + .microseconds(1), "3000.001"), (.nanoseconds(400), "0.0")] {
            var line: [UInt8] = []
            AccessLog.appendMilliseconds(duration, to: &line)
            #expect(String(decoding: line, as: UTF8.self) == text && String(AccessLog.milliseconds(duration)) == text)
        }
    }

    @Test("an assignment is answered from its head (a direct route), finished as the chain finishes answers: CORS, id, metrics, access log")
    func directRoute() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let path = fixtures.path("access.log")
        let log = AccessLog(sink: try LineSink.opening(path), format: .text)
        let api = try APIFixture(allowedOrigins: ["https://app.example"], accessLog: log)
        let active = try #require(api.service.library.activeTheme)
        let head = "GET /assign/current?client=c1&platform=ios HTTP/1.1\r\nHost: a\r\nOrigin: https://app.example\r\nX-Request-Id: assign-1\r\n\r\n"
        let direct = APIResponse(try #require(Self.kept(api.service, try Self.head(head)), "answered from the head, no Request routed"))
        #expect(direct.status == 200 && direct.json["theme"] as? String == active && direct.json["alias"] as? String == "current")
        #expect(direct.header("Cache-Control") == "private, max-age=60" && direct.header("Content-Type") == "application/json; charset=utf-8")
        #expect(direct.header("Access-Control-Allow-Origin") == "https://app.example" && direct.header("Vary") == "Origin")
        #expect(direct.header("X-Request-Id") == "assign-1")
        // Asked in-process, the same answer; a client elsewhere is not echoed.
        let inProcess = try api.request("/assign/current?client=c1&platform=ios", headers: ["Origin": "https://elsewhere.example"])
        #expect(inProcess.body == direct.body && inProcess.header("Access-Control-Allow-Origin") == nil && inProcess.header("Vary") == "Origin")
        // Refusals are answered directly too, as the route answers them.
        #expect(try api.request("/assign/current").status == 400)
        #expect(try api.request("/assign/nope?client=c1").status == 404)
        // What the route does not answer is left to the chain, which answers as it always has.
        let dotted = "GET /assign/..?client=c1 HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(Self.kept(api.service, try Self.head(dotted)) == nil)
        #expect(try api.request("/assign/..?client=c1").status == 400)
        // `/assign/{alias}` is the only route under /assign/, so its paths are matched on their
        // bytes; every other shape goes through the table and is answered as it always was.
        for (target, status, direct) in [("/assign/current/?client=c1", 200, true), ("/assign/cur%72ent?client=c1", 200, true),
                                         ("/assign/a/b?client=c1", 404, false), ("/assign/.?client=c1", 400, false),
                                         ("/assign/a%5Cb?client=c1", 400, false), ("/assign/?client=c1", 404, false)] {
            let answer = Self.kept(api.service, try Self.head("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n")).map(APIResponse.init)
            #expect((answer != nil) == direct, "\(target)")
            #expect(try api.request(target).status == status, "\(target)")
            if let answer { #expect(answer.status == status && answer.json["alias"] as? String == "current", "\(target)") }
        }
        let post = "POST /assign/current?client=c1 HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"
        #expect(Self.kept(api.service, try Self.head(post)) == nil)
        #expect(try api.request("/assign/current?client=c1", method: .post).status == 405)

        let metrics = try api.request("/metrics").text
        #expect(metrics.contains("themed_requests_total{route=\"assign\",status=\"200\"} 6"), "\(metrics.prefix(3000))")
        #expect(metrics.contains("themed_requests_total{route=\"assign\",status=\"400\"} 1"))
        #expect(metrics.contains("themed_requests_total{route=\"assign\",status=\"404\"} 1"))
        log.flush()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.first?.contains("\"GET /assign/current?client=c1&platform=ios HTTP/1.1\" 200") == true
                && lines.first?.contains("route=assign") == true && lines.first?.hasSuffix("request_id=assign-1") == true, "\(lines)")
    }
}

/// One probe of the response cache a request, and one path for a kept answer whatever the log
/// level (issue 45).
@Suite("the response cache asked once")
struct OneProbeTests {
    static func counter(_ name: String, _ metrics: String) -> Int? {
        metrics.split(separator: "\n").first { $0.hasPrefix("\(name){cache=\"responses\"}") }.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    @Test("over a socket, a routed miss counts one miss; the repeats are kept answers, logged at debug level like the routed one")
    func oneProbe() throws {
        let records = RecordingLogHandler.Records()
        var logger = Logger(label: "themed") { _ in RecordingLogHandler(records: records) }
        logger.logLevel = .debug
        let server = try ServerFixture(logger: logger)
        let client = try server.client()
        // An answer kept in this epoch first: from then on every GET asks the cache.
        #expect(try client.request("/themes/dark/colors/primary").status == 200)
        let before = try client.request("/metrics").text
        for _ in 0..<3 { #expect(try client.request("/themes/light/colors/primary").status == 200) }
        let after = try client.request("/metrics").text
        let misses = (Self.counter("themed_cache_misses_total", after) ?? -1) - (Self.counter("themed_cache_misses_total", before) ?? 0)
        let hits = (Self.counter("themed_cache_hits_total", after) ?? -1) - (Self.counter("themed_cache_hits_total", before) ?? 0)
        // The first light request and the second /metrics request miss, each asking once (the
        // routed path used to ask again: 4).
        #expect(misses == 2, "a miss asks the cache once, not again on its routed path")
        #expect(hits == 2, "debug logging leaves the repeats on the kept path")
        let logged = records.all.filter { $0.contains("request ") && $0.contains("path=/themes/light/colors/primary") }
        #expect(logged.count == 3, "every answer, kept or routed, has its debug line: \(logged)")
    }
}
