import Foundation
import JSON
import ThemeContent
import ThemeIndex

/// `themed-bench combinations FOLDER`: issue 55's goal for resolvers past 64 combinations. The
/// same 4,000 tokens (`TokenBench.designSystem`) behind one modifier of 5 contexts, and behind 6
/// modifiers of 5 (15,625 combinations), each measured in a process of its own: the best of 3
/// index times, a combination's first resolution (the theme's files read, then with them kept),
/// a kept one, a cold combination's resolved palette (the colour routes' way), and the process's
/// peak RSS after them. Prints one JSON object.
enum CombinationsBench {
    static let combinations = 200

    static func run(folder: String) throws {
        try? FileManager.default.removeItem(atPath: folder)
        var results: [(String, JSONValue)] = []
        for modifiers in [1, 6] {
            let themes = "\(folder)/m\(modifiers)/themes"
            try makeTheme(at: "\(themes)/ds", modifiers: modifiers)
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["combinations-one", themes]
            let output = Pipe()
            child.standardOutput = output
            try child.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            child.waitUntilExit()
            results.append(("modifiers\(modifiers)", try JSONParser.parse(Array(text.utf8))))
        }
        print(JSONValue.object(results).serialized())
    }

    /// The measurements of one theme, in this process.
    static func measure(themes: String) throws {
        let index = try TokenBench.best {
            let scratch = "\(themes)/../index-\(UUID().uuidString).sqlite"
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            try ThemeIndex(databasePath: scratch).writer.sync(themesDirectory: themes)
        }
        let database = "\(themes)/../index.sqlite"
        let themeIndex = try ThemeIndex(databasePath: database)
        try themeIndex.writer.sync(themesDirectory: themes)
        let chain = try themeIndex.reader.themes()
        guard let owner = themeIndex.reader.tokenOwner(in: chain) else { throw CocoaError(.fileNoSuchFile) }
        let modifiers = owner.source.modifiers
        let resolutions = TokenResolutions()
        var generator = SystemRandomNumberGenerator()
        var firsts: [Double] = []
        var first = 0.0
        for number in 0..<combinations {
            let inputs = Dictionary(uniqueKeysWithValues: modifiers.map { ($0.name, $0.contexts.randomElement(using: &generator) ?? $0.defaultContext) })
            // Each one cold, as a combination no client asked before (a repeat would be kept).
            resolutions.resolutions.removeAll { _ in true }
            let start = Date()
            _ = try resolutions.resolution(owner, inputs: inputs, chain: chain)
            let seconds = Date().timeIntervalSince(start)
            if number == 0 { first = seconds } else { firsts.append(seconds) }
        }
        _ = try resolutions.resolution(owner, inputs: [:], chain: chain)
        let kept = try TokenBench.best { _ = try resolutions.resolution(owner, inputs: [:], chain: chain) }
        firsts.sort()
        // A resolved palette of a combination the index does not store (what `/colors?...` does):
        // its resolution and colour variants made, then ranked beside the index's.
        var palettes: [Double] = []
        var colorCount = 0
        for _ in 0..<50 {
            let inputs = Dictionary(uniqueKeysWithValues: modifiers.map { ($0.name, $0.contexts.randomElement(using: &generator) ?? $0.defaultContext) })
            var request = TraitRequest()
            request.contexts = TokenModifier.contexts(inputs, of: modifiers)
            themeIndex.reader.tokenResolutions.resolutions.removeAll { _ in true }
            themeIndex.reader.tokenResolutions.colors.removeAll { _ in true }
            let start = Date()
            colorCount = try themeIndex.reader.resolveAll(.color, in: chain, for: request).count
            palettes.append(Date().timeIntervalSince(start))
        }
        palettes.sort()
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        print(JSONValue.object([
            ("combinations", .int(modifiers.reduce(1) { $0 * $1.contexts.count })), ("indexSeconds", .double(index)),
            ("firstEverMs", .double(first * 1000)), ("coldCombinationP50Ms", .double(firsts[firsts.count / 2] * 1000)),
            ("coldCombinationMaxMs", .double((firsts.last ?? 0) * 1000)), ("keptMicroseconds", .double(kept * 1_000_000)),
            ("coldPaletteP50Ms", .double(palettes[palettes.count / 2] * 1000)), ("paletteColors", .int(colorCount)),
            ("peakRSSMB", .int(usage.ru_maxrss / 1024)),
        ]).serialized())
    }

    /// 4,000 tokens; each modifier's contexts change 300 (with one modifier) or 50 (with six) of them.
    static func makeTheme(at path: String, modifiers: Int) throws {
        try TokenBench.write(TokenBench.designSystem(), to: "\(path)/base.tokens.json")
        var declared: [(String, JSONValue)] = []
        for modifier in 0..<modifiers {
            var contexts: [(String, JSONValue)] = []
            for context in 0..<5 {
                var space: [(String, JSONValue)] = []
                for number in 0..<(modifiers == 1 ? 300 : 50) {
                    let token = modifier * 50 + number
                    space.append(("s\(token)", .object([("$value", .object([("value", .int(token * (context + 1))), ("unit", "px")]))])))
                }
                let file = "modes/m\(modifier)-c\(context).json"
                try TokenBench.write(.object([("space", .object(space))]), to: "\(path)/\(file)")
                contexts.append(("c\(context)", .array([.object([("$ref", .string(file))])])))
            }
            declared.append(("m\(modifier)", .object([("contexts", .object(contexts))])))
        }
        let order: [JSONValue] = [.object([("$ref", "#/sets/base")])] + (0..<modifiers).map { .object([("$ref", .string("#/modifiers/m\($0)"))]) }
        try TokenBench.write(.object([
            ("version", "2025.10"),
            ("sets", .object([("base", .object([("sources", .array([.object([("$ref", "base.tokens.json")])]))]))])),
            ("modifiers", .object(declared)), ("resolutionOrder", .array(order)),
        ]), to: "\(path)/ds.resolver.json")
    }
}
