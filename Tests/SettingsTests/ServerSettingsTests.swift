import Foundation
import Settings
import Sharding
import Testing
import TestSupport

@Suite("server settings")
struct ServerSettingsTests {
    let scratch = ScratchFolder("settings")

    func configFile(_ json: String) throws -> String {
        let path = scratch.path("\(UUID().uuidString).json")
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("defaults, then the file, then flags: each value says where it came from")
    func layering() throws {
        let path = try configFile(#"{"port": 9090, "themes": "/srv/themes", "logFormat": "json", "watch": false}"#)
        var settings = ServerSettings()
        try settings.apply(configFile: path)
        try settings.apply(flag: "--port", key: "port", 9191)
        #expect(settings.port == 9191 && settings.themes == "/srv/themes" && settings.logFormat == .json && !settings.watch)
        let lines = settings.report.split(separator: "\n").map(String.init)
        #expect(lines.count == ServerSettings.all.count)
        #expect(lines.contains { $0.hasPrefix("port = 9191 ") && $0.hasSuffix("# --port") })
        #expect(lines.contains { $0.hasPrefix("themes = \"/srv/themes\" ") && $0.hasSuffix("# \(path)") })
        #expect(lines.contains { $0.hasPrefix("host = \"127.0.0.1\" ") && $0.hasSuffix("# default") })
        #expect(lines.contains { $0.hasPrefix("accessLog = null ") && $0.hasSuffix("# default") })
    }

    @Test("a shard is read from \"N/COUNT\" in the file or --shard, and shown the same way")
    func shard() throws {
        var settings = ServerSettings()
        try settings.apply(configFile: try configFile(#"{"shard": "2/8"}"#))
        #expect(settings.shard == Shard(number: 2, count: 8))
        try settings.apply(flag: "--shard", key: "shard", "1/2")
        #expect(settings.shard == Shard(number: 1, count: 2))
        #expect(settings.report.split(separator: "\n").contains { $0.hasPrefix("shard = \"1/2\" ") && $0.hasSuffix("# --shard") })
    }

    @Test("an unknown key is named, with the nearest known one when it looks mistyped")
    func unknownKeys() throws {
        var settings = ServerSettings()
        let mistyped = try configFile(#"{"prot": 80}"#)
        #expect(throws: ServerSettings.Invalid(description: "\(mistyped): unknown setting \"prot\" (did you mean \"port\"?)")) {
            try settings.apply(configFile: mistyped)
        }
        let unknown = try configFile(#"{"colour": "red"}"#)
        #expect(throws: ServerSettings.Invalid(description: "\(unknown): unknown setting \"colour\"")) { try settings.apply(configFile: unknown) }
    }

    @Test("wrong types and values out of range name the key and what it takes", arguments: [
        (#"{"port": "80"}"#, #""port" must be a number in 0...65535"#),
        (#"{"port": 70000}"#, #""port" must be a number in 0...65535"#),
        (#"{"port": 80.5}"#, #""port" must be a whole number"#),
        (#"{"maxConnections": true}"#, #""maxConnections" must be a number in 1...100000"#),
        (#"{"watch": 1}"#, #""watch" must be true or false"#),
        (#"{"logFormat": "xml"}"#, #""logFormat" must be one of "text", "json""#),
        (#"{"logLevel": "loud"}"#, #""logLevel" must be one of "trace", "debug", "info", "notice", "warning", "error", "critical""#),
        (#"{"themes": ""}"#, #""themes" must be a non-empty string"#),
        (#"{"imageTransforms": "closed"}"#, #""imageTransforms" must be one of "open", "signed", "presets""#),
        (#"{"imagePresets": {"thumb": {"w": 120, "size": 3}}}"#, #""imagePresets" preset "thumb": unknown key "size"; a preset has w, h, fit, format, q"#),
        (#"{"imagePresets": {"thumb": {"w": 0}}}"#, #""imagePresets" preset "thumb": w must be a whole number in 1...65536"#),
        (#"{"imagePresets": {"thumb": {"fit": "cover"}}}"#, #""imagePresets" preset "thumb": a preset needs at least one of w, h, format, q"#),
        (#"{"imagePresets": {"a b": {"w": 1}}}"#, #""imagePresets" preset name "a b" may hold only letters, digits, - and _"#),
        (#"{"imageSigningKeys": ["short"]}"#, #""imageSigningKeys" key shor... is shorter than 16 characters"#),
        (#"{"shard": "3/2"}"#, #""shard" must be "N/COUNT" with 1 <= N <= COUNT <= 1024, such as "2/8""#),
        (#"{"shard": 2}"#, #""shard" must be "N/COUNT" with 1 <= N <= COUNT <= 1024, such as "2/8""#),
    ])
    func badValues(_ json: String, _ expected: String) throws {
        let path = try configFile(json)
        var settings = ServerSettings()
        #expect(throws: ServerSettings.Invalid(description: "\(path): \(expected)")) { try settings.apply(configFile: path) }
        #expect(settings == ServerSettings(), "nothing was half-applied")
    }

    @Test("a file that is not a JSON object is one error naming the file")
    func badFiles() throws {
        var settings = ServerSettings()
        for (json, reason) in [("[1]", "top level is not an object"), ("{", "not valid JSON")] {
            let path = try configFile(json)
            #expect(throws: ServerSettings.Invalid(description: "\(path): \(reason)")) { try settings.apply(configFile: path) }
        }
        #expect(throws: ServerSettings.Invalid(description: "/nonexistent/themed.json: cannot be read")) {
            try settings.apply(configFile: "/nonexistent/themed.json")
        }
    }

    @Test("loopback is the operator only without any token, unless operatorLoopback says otherwise", arguments: [
        (#"{}"#, true), (#"{"activeToken": "t"}"#, false), (#"{"cluster": "postgresql://127.0.0.1/x"}"#, false),
        (#"{"cluster": "postgresql://127.0.0.1/x", "operatorLoopback": true}"#, true), (#"{"operatorLoopback": false}"#, false),
        (#"{"operatorLoopback": null}"#, true),
    ])
    func loopbackOperator(_ json: String, _ loopback: Bool) throws {
        let file = try configFile(json)
        var settings = ServerSettings()
        try settings.apply(configFile: file)
        #expect(settings.loopbackIsOperator == loopback, "\(json)")
    }

    @Test("docs/CONFIG.md lists every key with its default, and no key that does not exist")
    func documented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/CONFIG.md"), encoding: .utf8)
        var documented: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            documented[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
        for setting in ServerSettings.all {
            #expect(documented[setting.name] == setting.defaultValue, "\(setting.name): documented \(documented[setting.name] ?? "nothing"), default \(setting.defaultValue)")
        }
        #expect(Set(documented.keys) == Set(ServerSettings.all.map(\.name)))
    }
}
