import Foundation
import HTTPServer
import ThemeIndex
import ThemeServer

/// `themed-bench hotpath THEMES`: the user-space work of a kept answer, per request, without the
/// sockets: parsing the request wrk sends, and answering it from the kept answer. `make bench-http`
/// measures the whole server under load, where the kernel's share and the machine's mood move
/// the numbers by 10%; this measures what a change to the hot path itself gains or loses, to the
/// nanosecond. The request's own fields go to one buffer, emptied for each request, as the
/// server's connection does. Prints one JSON object per step: nanoseconds per request, best of five rounds.
enum HotPathBench {
    static let requests = 200_000

    static func run(themes: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("themed-hotpath-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let service = try ThemeService(index: ThemeIndex(databasePath: folder + "/index.sqlite"), configuration: ThemeServiceConfiguration(themesDirectory: themes))
        try service.reload()

        var fields = FieldLines()
        let parser = RequestParser(limits: .init(requestLineBytes: 8 << 10, headerBytes: 16 << 10, bodyBytes: 1 << 20))
        for (route, target) in [("color", "/themes/dark/colors/primary"), ("image", "/themes/light/images/logo?scale=2&appearance=dark")] {
            let bytes = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:18080\r\n\r\n".utf8)
            guard case .request(let head, _, _, _) = parser.parse(bytes[...], remoteAddress: "127.0.0.1:40000"),
                  let request = try? head.request(), service.handle(request).waitForCompletion().status == .ok,
                  service.answer(head, requestFields: &fields)?.status == .ok else {
                print("hotpath: \(target) is not answered with a kept 200")
                exit(1)
            }
            let parse = Bench.best(5) {
                for _ in 0..<requests {
                    guard case .request = parser.parse(bytes[...], remoteAddress: "127.0.0.1:40000") else { exit(1) }
                }
            }
            let answer = Bench.best(5) {
                for _ in 0..<requests {
                    fields.removeAll()
                    _ = service.answer(head, requestFields: &fields)
                }
            }
            let both = Bench.best(5) {
                for _ in 0..<requests {
                    fields.removeAll()
                    guard case .request(let head, _, _, _) = parser.parse(bytes[...], remoteAddress: "127.0.0.1:40000"),
                          service.answer(head, requestFields: &fields) != nil else { exit(1) }
                }
            }
            for (step, seconds) in [("parse", parse), ("answer", answer), ("parse+answer", both)] {
                print("{\"benchmark\":\"hotpath\",\"route\":\"\(route)\",\"step\":\"\(step)\",\"nanosecondsPerRequest\":\(Int(seconds / Double(requests) * 1e9))}")
            }
        }
    }
}
