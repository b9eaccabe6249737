import CatalogWriter
import DesignTokens
import Foundation
import JSON
import ThemeIndex
import ThemeVocabulary

/// `themed-bench tokens FOLDER`: the design token goals of issue 43, on a design system made
/// here: 4,000 tokens (colours, aliases, dimensions, typography) behind a resolver with two
/// modifiers of 4 and 3 contexts. Prints one JSON object: the best-of-5 seconds to resolve one
/// context, to read and index the whole theme (all 12 resolutions), and to compile a 2,000-colour
/// token theme into a catalog; then a Figma file's import (`FigmaBench`) and a
/// Tokens Studio folder (`StudioBench`).
enum TokenBench {
    static func run(folder: String) throws {
        try? FileManager.default.removeItem(atPath: folder)
        let system = "\(folder)/themes/ds"
        try FileManager.default.createDirectory(atPath: "\(system)/modes", withIntermediateDirectories: true)
        try write(designSystem(), to: "\(system)/base.tokens.json")
        let brands = ["a", "b", "c", "d"], densities = ["compact", "regular", "large"]
        for (number, brand) in brands.enumerated() { try write(brandSet(number), to: "\(system)/modes/brand-\(brand).json") }
        for (number, density) in densities.enumerated() { try write(densitySet(number), to: "\(system)/modes/\(density).json") }
        func contexts(_ names: [String], _ file: (String) -> String) -> JSONValue {
            .object(names.map { ($0, .array([.object([("$ref", .string(file($0)))])])) })
        }
        try write(.object([
            ("version", "2025.10"),
            ("sets", .object([("base", .object([("sources", .array([.object([("$ref", "base.tokens.json")])]))]))])),
            ("modifiers", .object([("brand", .object([("contexts", contexts(brands) { "modes/brand-\($0).json" })])),
                                   ("density", .object([("contexts", contexts(densities) { "modes/\($0).json" })]))])),
            ("resolutionOrder", .array([.object([("$ref", "#/sets/base")]), .object([("$ref", "#/modifiers/brand")]), .object([("$ref", "#/modifiers/density")])])),
        ]), to: "\(system)/ds.resolver.json")

        // Resolving one context: the resolver read once, then one choice of contexts resolved.
        let resolver = try TokenResolver(document: try read("\(system)/ds.resolver.json"), path: "ds.resolver.json") { try read("\(system)/\($0)") }
        var tokenCount = 0
        let resolve = try best { tokenCount = resolver.tokens(for: try resolver.inputs(["brand": "c", "density": "large"])).tokens.count }

        // The whole theme indexed: every one of the 12 resolutions, stored.
        let index = try best {
            let scratch = "\(folder)/index-\(UUID().uuidString).sqlite"
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            try ThemeIndex(databasePath: scratch).writer.sync(themesDirectory: "\(folder)/themes")
        }

        // Compiling 2,000 colour tokens (one resolution) into a catalog.
        let colors = "\(folder)/colors"
        try FileManager.default.createDirectory(atPath: colors, withIntermediateDirectories: true)
        try write(.object([("color", .object([("$type", "color")] + (0..<2000).map { number in
            ("c\(number)", .object([("$value", color(number))]))
        }))]), to: "\(colors)/colors.tokens.json")
        var catalogBytes = 0
        let compile = try best {
            let (entries, _) = try ThemeFolder.colorEntries(in: colors)
            catalogBytes = try CatalogCompiler().compile(entries: entries).count
        }
        let figma = try FigmaBench.run(folder: folder) + StudioBench.run(folder: folder)
        print(JSONValue.object([
            ("tokens", .int(tokenCount)), ("contexts", .int(brands.count * densities.count)),
            ("resolveOneContextSeconds", .double(resolve)), ("indexAllContextsSeconds", .double(index)),
            ("perContextSeconds", .double(index / Double(brands.count * densities.count))),
            ("compile2000ColorsSeconds", .double(compile)), ("catalogBytes", .int(catalogBytes)),
        ] + figma).serialized())
    }

    static func best(_ body: () throws -> Void) throws -> Double {
        var times: [Double] = []
        for _ in 0..<5 {
            let start = Date()
            try body()
            times.append(Date().timeIntervalSince(start))
        }
        return times.min() ?? 0
    }

    /// A reference script of ../shared/tools on `arguments`, best of 3 seconds; nil when the
    /// tools are not there or a run fails.
    static func referenceSeconds(_ script: String, _ arguments: [String]) throws -> Double? {
        let path = FileManager.default.currentDirectoryPath + "/../shared/tools/" + script
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var times: [Double] = []
        for _ in 0..<3 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", path] + arguments
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            let start = Date()
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return nil }
            times.append(Date().timeIntervalSince(start))
        }
        return times.min()
    }

    /// `value` as the file at `path`, its folder made if needed.
    static func write(_ value: JSONValue, to path: String) throws {
        try FileManager.default.createDirectory(atPath: FilePaths.folder(of: path), withIntermediateDirectories: true)
        try Data(value.serialized().utf8).write(to: URL(fileURLWithPath: path))
    }

    static func read(_ path: String) throws -> JSONValue { try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path)))) }

    static func color(_ number: Int) -> JSONValue {
        .object([("colorSpace", "oklch"), ("components", .array([.double(0.3 + Double(number % 60) / 100), .double(Double(number % 30) / 100),
                                                                    .double(Double(number * 7 % 360))]))])
    }

    /// 3,600 base tokens: 1,500 colours, 500 dimensions, 1,100 aliases, 500 typography styles.
    static func designSystem() -> JSONValue {
        var palette: [(String, JSONValue)] = [("$type", "color")]
        for number in 0..<1500 { palette.append(("p\(number)", .object([("$value", color(number))]))) }
        var space: [(String, JSONValue)] = [("$type", "dimension")]
        for number in 0..<500 { space.append(("s\(number)", .object([("$value", .object([("value", .int(number)), ("unit", "px")]))]))) }
        var aliases: [(String, JSONValue)] = []
        for number in 0..<1100 { aliases.append(("a\(number)", .object([("$value", .string("{palette.p\(number * 3 % 1500)}"))]))) }
        var type: [(String, JSONValue)] = [("$type", "typography")]
        for number in 0..<500 {
            type.append(("t\(number)", .object([("$value", .object([("fontFamily", "Inter"), ("fontSize", .string("{space.s\(number % 100)}")),
                                                                    ("fontWeight", .int(400)), ("letterSpacing", .object([("value", .int(0)), ("unit", "px")])),
                                                                    ("lineHeight", .double(1.4))]))])))
        }
        return .object([("palette", .object(palette)), ("space", .object(space)), ("semantic", .object(aliases)), ("type", .object(type))])
    }

    /// 700 tokens a brand overrides or adds: 300 palette colours, 400 semantic aliases.
    static func brandSet(_ brand: Int) -> JSONValue {
        var palette: [(String, JSONValue)] = []
        for number in 0..<300 { palette.append(("p\(number)", .object([("$value", color(number + brand * 37))]))) }
        var semantic: [(String, JSONValue)] = [("$type", "color")]
        for number in 0..<400 { semantic.append(("b\(number)", .object([("$value", .string("{palette.p\((number * 7 + brand) % 1500)}"))]))) }
        return .object([("palette", .object(palette)), ("brand", .object(semantic))])
    }

    /// 300 dimensions a density changes.
    static func densitySet(_ density: Int) -> JSONValue {
        var space: [(String, JSONValue)] = []
        for number in 0..<300 { space.append(("s\(number)", .object([("$value", .object([("value", .int(number * (density + 1))), ("unit", "px")]))]))) }
        return .object([("space", .object(space))])
    }
}
