import Foundation
import JSON

/// `themed-bench review FOLDER THEMED`: issue 76's goals for a pull request's checks at a large
/// system's size. A design system made here in the shape: primitive colours, semantic
/// colours per appearance aliasing them, behind a resolver of 2 appearances (mapped to traits) x
/// 4 brands x 3 densities = 24 combinations; 4,200 tokens, then 20,000. `themed check` of it and
/// `themed diff` of a one-colour edit run as users run them, each in a process of its own: the
/// best of 3 wall times and the largest peak RSS. Prints one JSON object.
enum ReviewBench {
    struct Shape {
        var name: String
        var primitives: Int
        var semantics: Int
        var tokens: Int { primitives + semantics }
    }

    static let shapes = [Shape(name: "tokens4200", primitives: 200, semantics: 4_000),
                         Shape(name: "tokens20000", primitives: 1_000, semantics: 19_000)]

    static func run(folder: String, themed: String) throws {
        try? FileManager.default.removeItem(atPath: folder)
        var results: [(String, JSONValue)] = []
        for shape in shapes {
            let before = "\(folder)/\(shape.name)/before/ds", after = "\(folder)/\(shape.name)/after/ds"
            try makeSystem(shape, at: before, edited: false)
            try makeSystem(shape, at: after, edited: true)
            let check = try measure(themed, ["check", before])
            let diff = try measure(themed, ["diff", before, after])
            results.append((shape.name, .object([
                ("tokens", .int(shape.tokens)), ("combinations", .int(24)),
                ("checkSeconds", .double(check.seconds)), ("checkPeakRSSMB", .int(check.peakMB)),
                ("diffSeconds", .double(diff.seconds)), ("diffPeakRSSMB", .int(diff.peakMB)),
                ("diffLines", .int(diff.lines)),
            ])))
        }
        print(JSONValue.object(results).serialized())
    }

    /// The best of 3 runs of `themed arguments`: seconds, the largest peak RSS, the lines printed.
    static func measure(_ themed: String, _ arguments: [String]) throws -> (seconds: Double, peakMB: Int, lines: Int) {
        var seconds = Double.infinity, peak = 0, lines = 0
        for _ in 0..<3 {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("review-bench-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: output) }
            FileManager.default.createFile(atPath: output, contents: nil)
            guard let sink = FileHandle(forWritingAtPath: output) else { throw CocoaError(.fileWriteUnknown) }
            var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, sink.fileDescriptor, 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ([themed] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let start = DispatchTime.now().uptimeNanoseconds
            guard posix_spawn(&pid, themed, &actions, nil, argv, environ) == 0 else { throw CocoaError(.executableLoad) }
            var status: Int32 = 0
            var usage = rusage()
            _ = wait4(pid, &status, 0, &usage)
            seconds = min(seconds, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            peak = max(peak, usage.ru_maxrss / 1024)
            try sink.close()
            // check exits 1 on errors, diff 1 on differences: both are answers; a crash is not.
            guard status & 0x7f == 0 else { throw CocoaError(.executableRuntimeMismatch) }
            lines = (try String(contentsOfFile: output, encoding: .utf8)).split(separator: "\n").count
        }
        return (seconds, peak, lines)
    }

    /// The shape at `folder`: `base.tokens.json` with the primitives, a file per appearance
    /// with the semantic colours aliasing them, per brand an override of a tenth of the primitives,
    /// per density 50 lengths; `edited` changes one primitive's value (a one-colour edit).
    static func makeSystem(_ shape: Shape, at folder: String, edited: Bool) throws {
        func hex(_ number: Int, salt: Int) -> JSONValue {
            .string(String(format: "#%02x%02x%02x", (number * 37 + salt) % 256, (number * 91 + salt * 3) % 256, (number * 13 + salt * 7) % 256))
        }
        let families = 10
        let perFamily = shape.primitives / families
        func primitive(_ number: Int) -> String { "color.family\(number % families).step\(number / families)" }
        var palette: [(String, JSONValue)] = [("$type", "color")]
        for family in 0..<families {
            palette.append(("family\(family)", .object((0..<perFamily).map { step in
                let number = step * families + family
                return ("step\(step)", .object([("$value", hex(number, salt: edited && number == 7 ? 1 : 0))]))
            })))
        }
        try TokenBench.write(.object([("color", .object(palette)),
                                      ("space", .object([("$type", "dimension")] + (0..<50).map { ("s\($0)", .object([("$value", .string("\($0 * 4)px"))])) }))]),
                             to: "\(folder)/base.tokens.json")
        // Semantic colours in groups of 100, as a system's surfaces, texts, borders, ... are.
        func semantics(offset: Int) -> JSONValue {
            let groups = stride(from: 0, to: shape.semantics, by: 100).map { first in
                ("group\(first / 100)", JSONValue.object((first..<min(first + 100, shape.semantics)).map { number in
                    ("role\(number % 100)", .object([("$value", .string("{\(primitive((number * 7 + offset) % shape.primitives))}"))]))
                }))
            }
            return .object([("semantic", .object([("$type", "color")] + groups))])
        }
        try TokenBench.write(semantics(offset: 0), to: "\(folder)/modes/light.json")
        try TokenBench.write(semantics(offset: shape.primitives / 2), to: "\(folder)/modes/dark.json")
        let brands = ["a", "b", "c", "d"], densities = ["compact", "regular", "large"]
        for (number, brand) in brands.enumerated() {
            var families: [String: [(String, JSONValue)]] = [:]
            for primitiveNumber in stride(from: number, to: shape.primitives, by: 10) {
                families["family\(primitiveNumber % 10)", default: []].append(("step\(primitiveNumber / 10)", .object([("$value", hex(primitiveNumber, salt: number + 2))])))
            }
            try TokenBench.write(.object([("color", .object(families.sorted { $0.key < $1.key }.map { ($0.key, .object($0.value)) }))]),
                                 to: "\(folder)/brands/\(brand).json")
        }
        for (number, density) in densities.enumerated() {
            try TokenBench.write(.object([("space", .object((0..<50).map { ("s\($0)", .object([("$value", .string("\($0 * (number + 3))px"))])) }))]),
                                 to: "\(folder)/densities/\(density).json")
        }
        func contexts(_ names: [String], _ file: (String) -> String) -> JSONValue {
            .object(names.map { ($0, .array([.object([("$ref", .string(file($0)))])])) })
        }
        try TokenBench.write(.object([
            ("version", "2025.10"),
            ("sets", .object([("base", .object([("sources", .array([.object([("$ref", "base.tokens.json")])]))]))])),
            ("modifiers", .object([
                ("appearance", .object([("contexts", contexts(["light", "dark"]) { "modes/\($0).json" }), ("default", "light")])),
                ("brand", .object([("contexts", contexts(brands) { "brands/\($0).json" }), ("default", "a")])),
                ("density", .object([("contexts", contexts(densities) { "densities/\($0).json" }), ("default", "regular")])),
            ])),
            ("resolutionOrder", .array(["#/sets/base", "#/modifiers/brand", "#/modifiers/appearance", "#/modifiers/density"].map { .object([("$ref", .string($0))]) })),
        ]), to: "\(folder)/ds.resolver.json")
        try TokenBench.write(.object([("traits", .object([("appearance", .object([
            ("light", .object([("appearance", "light")])), ("dark", .object([("appearance", "dark")])),
        ]))]))]), to: "\(folder)/theme.json")
    }
}
