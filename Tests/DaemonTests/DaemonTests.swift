import Foundation
import Testing
import TestSupport

/// The `themed` executable as an operator runs it: exit statuses and one-line errors, the
/// version, logs, request ids, the access log and systemd's notify socket.
@Suite("the daemon, as an operator runs it")
struct DaemonTests {
    /// Built beside the test bundle by `swift build` (every product is built before the tests).
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("themed").path
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let themes = root.appendingPathComponent("themes").path

    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// `themed` (or another program, `command`) with `arguments` in `folder`; `environment`
    /// replaces this process's.
    static func run(_ arguments: [String], in folder: String = NSTemporaryDirectory(), command: String = executable,
                    environment: [String: String]? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let (output, errors) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        let outputBytes = output.fileHandleForReading.readDataToEndOfFile()
        let errorBytes = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: outputBytes, as: UTF8.self),
                   errors: String(decoding: errorBytes, as: UTF8.self))
    }

    static func scratch() throws -> String {
        let folder = NSTemporaryDirectory() + "themed-daemon-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("--version prints the package version")
    func version() throws {
        let run = try Self.run(["--version"])
        #expect(run.status == 0)
        #expect(run.output.trimmingCharacters(in: .whitespacesAndNewlines).range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil, "\(run.output)")
    }

    @Test("bad settings and paths: one line naming the key or path, exit status 2, nothing created", arguments: [
        (#"{"prot": 8080}"#, [String](), #"unknown setting "prot" (did you mean "port"?)"#),
        (#"{"port": "eighty"}"#, [], #""port" must be a number in 0...65535"#),
        ("{}", ["--themes", "/nonexistent/themes"], "themes: /nonexistent/themes: no such folder"),
        ("{}", ["--db", "/etc/passwd/index.sqlite"], "db: /etc/passwd: not a folder"),
        ("{}", ["--log-format", "xml"], #"--log-format must be one of "text", "json""#),
        ("{}", ["--access-log", "/etc/passwd/access.log"], "accessLog: /etc/passwd/access.log: "),
    ])
    func badInput(_ json: String, _ flags: [String], _ expected: String) throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/bad.json"))
        for command in [["serve"], ["config", "check", "bad.json"]] {
            var arguments = command + (command == ["serve"] ? ["--config", "bad.json"] : [])
            arguments += ["--themes", Self.themes, "--db", folder + "/var/index.sqlite", "--blobs", folder + "/var/blobs", "--port", "0"] + flags
            let run = try Self.run(arguments, in: folder)
            #expect(run.status == 2, "\(command): \(run.errors)")
            let lines = run.errors.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("themed: ") && lines[0].contains(expected), "\(command): \(run.errors)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/var"), "\(command): nothing half-started")
        }
    }

    @Test("a port in use stops the start before the index or blob store is touched")
    func portInUse() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (listener, port) = Loopback.boundSocket(listening: true)
        defer { close(listener) }
        let run = try Self.run(["serve", "--themes", Self.themes, "--db", folder + "/db/index.sqlite", "--blobs", folder + "/blobs",
                                "--port", String(port)], in: folder)
        #expect(run.status == 2)
        #expect(run.errors.hasPrefix("themed: port: cannot listen on 127.0.0.1:\(port): ") && run.errors.split(separator: "\n").count == 1, "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/db/index.sqlite"))
    }

    @Test("config check prints every setting with its source, and creates nothing")
    func configCheck() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"port": 9000, "logFormat": "json"}"#.utf8).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        let run = try Self.run(["config", "check", "themed.json", "--themes", Self.themes, "--host", "0.0.0.0"], in: folder)
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 49, "one line a setting (docs/CONFIG.md lists them)")
        #expect(lines.contains { $0.hasPrefix("shard = null ") && $0.hasSuffix("# default") })
        #expect(lines.contains { $0.hasPrefix("port = 9000 ") && $0.hasSuffix("# themed.json") })
        #expect(lines.contains { $0.hasPrefix("host = \"0.0.0.0\" ") && $0.hasSuffix("# --host") })
        #expect(lines.contains { $0.hasPrefix("db = \"var/themed.sqlite\" ") && $0.hasSuffix("# default") })
        #expect(!FileManager.default.fileExists(atPath: folder + "/var"))
    }

    @Test("config check tries the cluster store: a store that does not answer is a warning, and exit status 2 with --strict")
    func configCheckTriesTheStore() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let nobody = "postgresql://themed@127.0.0.1:\(Loopback.freePort())/themed?connect_timeout=2"
        try Data(#"{"cluster": "\#(nobody)"}"#.utf8).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        let warned = try Self.run(["config", "check", "themed.json", "--themes", Self.themes], in: folder)
        #expect(warned.status == 0 && warned.errors.contains("cluster: the store does not answer"), "\(warned.errors)")
        let strict = try Self.run(["config", "check", "themed.json", "--themes", Self.themes, "--strict"], in: folder)
        #expect(strict.status == 2 && strict.errors.contains("cluster: the store does not answer"), "\(strict.errors)")
    }

    @Test("config check says a cluster store that answers does", .needsPostgres)
    func configCheckReachesTheStore() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"cluster": "\#(postgres.url)"}"#.utf8).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        let run = try Self.run(["config", "check", "themed.json", "--themes", Self.themes, "--strict"], in: folder)
        #expect(run.status == 0 && run.output.contains("cluster store: answers"), "\(run.errors)")
    }
}

/// A running `themed serve` on a free port, with systemd's notify socket and its logs captured.
@Suite("the daemon serving")
struct ServingDaemonTests {
    @Test("on an existing index themed answers at once, then catches up with what changed while it was stopped")
    func servesExistingIndexFirst() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: DaemonTests.themes, toPath: folder + "/themes")
        try Data(#"{"watch": false}"#.utf8).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        func start() throws -> (Process, Int) {
            let notify = try NotifySocket(in: folder)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: DaemonTests.executable)
            process.arguments = ["serve", "--config", "themed.json", "--themes", "themes", "--port", "0"]
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 }
            (process.standardOutput, process.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
            try process.run()
            let ready = try #require(notify.receive(), "READY=1 within 10 s")
            #expect(ready.hasPrefix("READY=1\nSTATUS=serving 4 themes on port "), "\(ready)")
            let port = try #require(ready.split(separator: "\n").first { $0.hasPrefix("STATUS=") }?.split(separator: " ").last.flatMap { Int($0) })
            return (process, port)
        }

        let (first, port) = try start()
        #expect(try HTTP.get("/themes/light/colors/extra", port: port).status == 404)
        first.terminate()
        first.waitUntilExit()

        // While it is stopped, a colour is added to light.
        let colorSet = folder + "/themes/light/Theme.xcassets/extra.colorset"
        try FileManager.default.createDirectory(atPath: colorSet, withIntermediateDirectories: true)
        try Data(#"{"colors":[{"idiom":"universal","color":{"color-space":"srgb","components":{"red":"1","green":"0","blue":"0","alpha":"1"}}}],"info":{"version":1,"author":"xcode"}}"#.utf8)
            .write(to: URL(fileURLWithPath: colorSet + "/Contents.json"))

        let (second, again) = try start()
        defer { second.terminate(); second.waitUntilExit() }
        // Ready on what the index holds: every theme answers at once...
        let atOnce = try HTTP.get("/themes/light/colors/accent", port: again)
        #expect(atOnce.status == 200, "\(atOnce.status) \(atOnce.text.prefix(300))")
        // ...and the folder's change arrives as a reload soon after.
        #expect(waitUntil { (try? HTTP.get("/themes/light/colors/extra", port: again).status) == 200 })
    }

    /// libcrypto's exit-time cleanup ran while the warming was still hashing images: one stop in
    /// five crashed after "stopped" (SIGSEGV or SIGBUS on a worker, a heap found corrupt). Stops
    /// at twelve moments through the warming of the corpus's images.
    /// `themed_warming_pending` of a server's metrics: contents queued to warm, not yet done.
    static func warmingPending(port: Int) -> Int? {
        let metrics = (try? HTTP.get("/metrics", port: port))?.text ?? ""
        return metrics.split(separator: "\n").first { $0.hasPrefix("themed_warming_pending ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    @Test("SIGTERM while the warming hashes every image of the corpus: each stop exits 0 after \"stopped\", never with a crash report", .needsCorpus)
    func stopsWhileWarming() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/themes", withIntermediateDirectories: true)
        for (number, name) in Corpus.catalogNames.enumerated() {
            try FileManager.default.copyItem(atPath: Corpus.path(name), toPath: folder + "/themes/c\(number).car")
        }
        #expect(try DaemonTests.run(["index", "--themes", "themes", "--db", "index.sqlite", "--allow-errors"], in: folder).status == 0)
        for stop in 0..<12 {
            // No blobs yet: the warming encodes and hashes every image again.
            try? FileManager.default.removeItem(atPath: folder + "/blobs")
            let logPath = folder + "/serve-\(stop).log"
            FileManager.default.createFile(atPath: logPath, contents: nil)
            let log = try #require(FileHandle(forWritingAtPath: logPath))
            let server = try ServeProcess(executable: DaemonTests.executable, arguments: ["--themes", "themes", "--db", "index.sqlite", "--blobs", "blobs"],
                                          in: folder, standardError: log)
            // Each stop 5 contents further into the warming than the one before (asking counts as
            // a client's request, so the warming goes at its busy pace meanwhile: 50 a second).
            var queued = 0
            _ = waitUntil(10) {
                let pending = Self.warmingPending(port: server.port) ?? 0
                queued = max(queued, pending)
                return queued > 0 && pending <= queued - 5 * stop
            }
            server.stop()
            try log.close()
            let logged = try String(contentsOfFile: logPath, encoding: .utf8)
            let crash = logged.split(separator: "\n").filter { $0.contains("crash") || $0.contains("Signal") || $0.contains("malloc") }.prefix(3)
            #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0,
                    "stop \(stop): \(server.process.terminationReason == .exit ? "exit" : "signal") \(server.process.terminationStatus) \(crash)")
            #expect(logged.contains("stopped") && crash.isEmpty, "stop \(stop): \(crash)")
        }
    }

    @Test("READY=1 once the first index is served; watchdog pings; JSON logs; X-Request-Id kept or made; the access log; STOPPING=1 on SIGTERM")
    func serving() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let notify = try NotifySocket(in: folder)
        try Data(#"{"watch": false, "logFormat": "json", "logLevel": "debug"}"#.utf8).write(to: URL(fileURLWithPath: folder + "/themed.json"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonTests.executable)
        process.arguments = ["serve", "--config", "themed.json", "--themes", DaemonTests.themes, "--port", "0", "--access-log", "access.log"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"]) { $1 }
        let (output, errors) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let ready = try #require(notify.receive(), "READY=1 within 10 s")
        #expect(ready.hasPrefix("READY=1\nSTATUS=serving 4 themes on port "))
        let port = try #require(ready.split(separator: "\n").first { $0.hasPrefix("STATUS=") }?.split(separator: " ").last.flatMap { Int($0) })

        let kept = try HTTP.get("/healthz", port: port, headers: ["X-Request-Id": "deploy-42"])
        #expect(kept.status == 200 && kept.headers["x-request-id"] == "deploy-42")
        let made = try HTTP.get("/themes/nope", port: port, headers: ["X-Request-Id": "bad id with spaces"])
        #expect(made.status == 404)
        #expect(made.headers["x-request-id"]?.range(of: "^[0-9a-f]{12}-[0-9a-f]+$", options: .regularExpression) != nil, "\(made.headers)")

        // The watchdog is pinged at half of WATCHDOG_USEC (0.2 s).
        #expect(notify.receive() == "WATCHDOG=1")
        process.terminate()
        var afterTerm = notify.receive()
        while afterTerm == "WATCHDOG=1" { afterTerm = notify.receive() }
        #expect(afterTerm == "STOPPING=1\nSTATUS=draining connections")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let access = try String(contentsOfFile: folder + "/access.log", encoding: .utf8).split(separator: "\n")
        let records = try access.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.count == 2)
        #expect(records.first?["request_id"] as? String == "deploy-42")
        #expect(records.first?["route"] as? String == "healthz" && records.first?["status"] as? Int == 200)
        #expect(records.last?["status"] as? Int == 404 && records.last?["request_id"] as? String == made.headers["x-request-id"])
        #expect(records.allSatisfy { $0["duration_ms"] is Double && $0["time"] is String && $0["method"] as? String == "GET" })

        let logLines = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        var logRecords: [[String: Any]] = []
        for line in logLines {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(record["time"] is String && record["level"] is String && record["message"] is String, "\(line)")
            logRecords.append(record)
        }
        // At debug level each request is a record of the main log too.
        let requestRecord = try #require(logRecords.first { $0["message"] as? String == "request" && $0["request_id"] as? String == "deploy-42" })
        #expect(requestRecord["route"] as? String == "healthz" && requestRecord["status"] as? Int == 200 && requestRecord["duration_ms"] is Double)
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("themed: serving"))
    }
}
