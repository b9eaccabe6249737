import Foundation
import Logging
import Logs
import Testing
import TestSupport

@Suite("log lines")
struct LogLineTests {
    let time = Date(timeIntervalSince1970: 1_795_000_000.25)
    let scratch = ScratchFolder("log")

    @Test("JSON: one object with time, level and message first, metadata after, numbers as numbers")
    func json() throws {
        let line = LogLine.json(time: time, level: .warning, message: "request failed",
                                metadata: ["request_id": "abc", "status": .stringConvertible(503), "duration_ms": .stringConvertible(1.5), "path": "/x"])
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix(#"{"time":"2026-11-18T"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["message"] as? String == "request failed")
        #expect(object["request_id"] as? String == "abc")
        #expect(object["status"] as? Int == 503)
        #expect(object["duration_ms"] as? Double == 1.5)
        #expect((object["time"] as? String)?.hasSuffix(".250Z") == true)
    }

    @Test("text: time, level, message, then key=value pairs in key order")
    func text() {
        let line = LogLine.text(time: time, level: .info, message: "indexed themes", metadata: ["themes": "2", "reindexed": "5"])
        #expect(line.hasSuffix(" info indexed themes reindexed=5 themes=2"))
    }

    @Test("a file sink appends whole lines, also from many threads at once")
    func fileSink() throws {
        let path = scratch.path("themed.log")
        try Data("earlier\n".utf8).write(to: URL(fileURLWithPath: path))
        let sink = try LineSink.opening(path)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for number in 0..<200 { sink.write("thread \(thread) line \(number) " + String(repeating: "x", count: 200)) }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1 + 8 * 200)
        #expect(lines.first == "earlier")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("thread ") && $0.hasSuffix(String(repeating: "x", count: 200)) })
    }

    @Test("a log file that cannot be opened is an error naming it")
    func unopenable() {
        #expect(throws: LineSink.SinkError.self) { try LineSink.opening("/nonexistent/folder/access.log") }
    }
}
