import Foundation
@testable import HTTPServer
import HTTPTypes
import Synchronization
import ServiceSupport
import TestSupport
import Testing
import ThemeIndex
@testable import ThemeServer

/// State each event loop keeps for itself (`PerLoop`): what a loop counts and keeps is its own,
/// the totals add every loop's, and a loop's copy of a kept answer goes with its epoch.
@Suite("per-loop state")
struct PerLoopTests {
    /// A request as the server hands it on, read by loop `loop` (nil: made in-process).
    static func request(on loop: Int?, _ target: String = "/themes/dark/colors/primary") throws -> Request {
        var request = try Request(target: target)
        request.loop = loop
        return request
    }

    static func answer(_ api: APIFixture, _ target: String, on loop: Int?) throws -> APIResponse {
        APIResponse(api.service.handle(try request(on: loop, target)).waitForCompletion())
    }

    @Test("a slot per event loop and one for in-process requests; a loop number (a request's) finds its slot")
    func slots() throws {
        let counts = PerLoop { _ in 0 }
        #expect(counts.count == HTTPServer.loopCount + 1)
        let inProcess = HTTPServer.loopCount
        for loop in [0, HTTPServer.loopCount - 1] {
            #expect(counts.withState(forLoop: loop) { slot, count in count += 1; return slot } == loop)
        }
        #expect(counts.withState(forLoop: nil) { slot, _ in slot } == inProcess)
        #expect(counts.withState(forLoop: 99) { slot, _ in slot } == inProcess, "a number no loop has")
        var total = 0
        counts.forEach { total += $0 }
        #expect(total == 2)
    }

    @Test("the requests a server reads carry the number of the loop that read them")
    func serverNumbersRequests() throws {
        let seen = Mutex<[Int?]>([])
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        let server = HTTPServer(configuration: configuration) { request in
            seen.withLock { $0.append(request.loop) }
            return Response(status: .ok, body: Array("ok".utf8))
        }
        try server.start()
        defer { server.shutdown(timeout: .seconds(2)) }
        for _ in 0..<4 {
            let client = try TestClient(port: server.port)
            #expect(try client.request("/").status == 200)
        }
        let loops = seen.withLock { $0 }
        #expect(loops.count == 4 && loops.allSatisfy { $0.map { (0..<HTTPServer.loopCount).contains($0) } == true }, "\(loops)")
    }

    @Test("an answer's own copy: the same status, fields, head and body, in storage of its own")
    func ownCopy() {
        let original = Response(status: .ok, headers: [.contentType: "application/json", .eTag: "\"abc\""], body: Array("{\"a\":1}".utf8)).prepared()
        let copy = original.ownCopy()
        #expect(copy.status == original.status && copy.allHeaders == original.allHeaders && copy.bodyBytes() == original.bodyBytes())
        #expect(copy.preparedHead?.bytes == original.preparedHead?.bytes && copy.preparedHead?.bodyLength == original.preparedHead?.bodyLength)
        func address(_ bytes: [UInt8]?) -> UnsafePointer<UInt8>? { bytes?.withUnsafeBufferPointer { $0.baseAddress } }
        guard case .bytes(let originalBody) = original.body, case .bytes(let copiedBody) = copy.body else {
            Issue.record("the copy's body is not bytes")
            return
        }
        #expect(address(originalBody) != address(copiedBody))
        #expect(address(original.preparedHead?.bytes) != address(copy.preparedHead?.bytes))
    }

    @Test("request metrics: every loop's tallies and the in-process one summed; the histogram's buckets cumulative")
    func tallies() throws {
        let tallies = RequestTallies()
        let ok = tallies.series(route: "color", status: 200)
        #expect(tallies.series(route: "color", status: 200) == ok, "a series is numbered once")
        let notFound = tallies.series(route: "color", status: 404)
        tallies.record(ok, duration: .milliseconds(1), loop: 0)
        tallies.record(ok, duration: .milliseconds(7), loop: HTTPServer.loopCount - 1)
        tallies.record(notFound, duration: .seconds(20), loop: nil)
        let lines = Set(tallies.exposition().split(separator: "\n").map(String.init))
        for line in ["themed_requests_total{route=\"color\",status=\"200\"} 2", "themed_requests_total{route=\"color\",status=\"404\"} 1",
                     "themed_request_duration_seconds_bucket{route=\"color\",le=\"0.005\"} 1",
                     "themed_request_duration_seconds_bucket{route=\"color\",le=\"0.01\"} 2",
                     "themed_request_duration_seconds_bucket{route=\"color\",le=\"10.0\"} 2",
                     "themed_request_duration_seconds_bucket{route=\"color\",le=\"+Inf\"} 3",
                     "themed_request_duration_seconds_sum{route=\"color\"} 20.008", "themed_request_duration_seconds_count{route=\"color\"} 3",
                     "# TYPE themed_request_duration_seconds histogram", "# TYPE themed_requests_total counter"] {
            #expect(lines.contains(line), "\(line)")
        }
    }

    @Test("request ids: each loop numbers its own requests, and no two loops make the same id")
    func requestIDs() throws {
        let ids = RequestIDs()
        var made: [String] = []
        for _ in 0..<200 {
            for loop in [0, HTTPServer.loopCount - 1, nil] { made.append(ids.id(for: try Self.request(on: loop))) }
        }
        #expect(Set(made).count == made.count)
        #expect(made.allSatisfy { $0.hasPrefix(ids.prefix) })
    }

    @Test("a loop's copy of a kept answer: hits are counted with the cache's, and it is never sent once the epoch moves")
    func copiesFollowTheEpoch() throws {
        let api = try APIFixture()
        let target = "/themes/current/colors/primary"
        #expect(try api.request("/active", method: .put, body: #"{"theme":"light"}"#).status == 200)
        let hitsBefore = try PreparedResponderTests.responseCacheHits(api)
        let answers = try (0..<3).map { _ in try Self.answer(api, target, on: 0) } // routed, kept (copied), the copy
        #expect(try PreparedResponderTests.responseCacheHits(api) == hitsBefore + 2, "the cache's hit and the copy's")
        #expect(Set(answers.map { $0.header("ETag") }).count == 1 && answers.allSatisfy { $0.status == 200 })
        #expect(Set(answers.map { $0.header("X-Request-Id") }).count == 3, "each its own request id")

        #expect(try api.request("/active", method: .put, body: #"{"theme":"dark"}"#).status == 200)
        let afterSwitch = try Self.answer(api, target, on: 0)
        #expect(afterSwitch.header("ETag") != answers[0].header("ETag"))
        #expect(afterSwitch.text.contains("\"theme\":\"dark\""), "\(afterSwitch.text)")
        #expect(try Self.answer(api, target, on: 0).header("ETag") == afterSwitch.header("ETag"))
    }

    @Test("a loop sends its own copy again and again, another loop its own; an answer larger than a loop's share goes out from the cache itself")
    func whichStorageGoesOut() throws {
        func body(_ response: Response) -> UnsafePointer<UInt8>? {
            guard case .bytes(let bytes) = response.body else { return nil }
            return bytes.withUnsafeBufferPointer { $0.baseAddress }
        }
        let target = "/themes/dark/colors/primary"
        for budget in [64 << 20, 10_000] { // 10,000: the colour's answer (about 1,800 bytes) is kept, but is more than a loop's share
            let fixtures = ThemeFixtures()
            defer { fixtures.remove() }
            ServerFixture.standardThemes(fixtures)
            let app = try fixtures.restartedApplication { $0.responseCacheBytes = budget }
            defer { app.shutdown() }
            let service = try #require(app.service)
            _ = service.handle(try Self.request(on: nil, target)) // routed and kept
            let first = service.handle(try Self.request(on: 0, target)), again = service.handle(try Self.request(on: 0, target))
            let otherLoop = service.handle(try Self.request(on: HTTPServer.loopCount, target)) // the in-process slot: another "loop"
            #expect([first, again, otherLoop].allSatisfy { $0.status == .ok && $0.bodyBytes() == first.bodyBytes() })
            #expect(body(first) != nil && body(first) == body(again), "budget \(budget): the same storage each time")
            if budget == 10_000 {
                #expect(body(otherLoop) == body(first), "too large to copy: the cache's own storage for every loop")
            } else {
                #expect(body(otherLoop) != body(first), "each loop its own copy")
            }
        }
    }
}
