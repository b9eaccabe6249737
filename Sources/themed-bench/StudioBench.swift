import DesignTokens
import Foundation
import JSON
import ThemeIndex

/// The Tokens Studio part of `make bench-tokens`: a folder as the plugin syncs it (a `Mode`
/// group of 2 themes, a `Brand` group of 4: 8 combinations), 3,900 tokens read in a combination
/// and 1,900 answered (1,500 colours and 500 lengths in a source-only core set; 1,000 aliases and
/// 200 sums per mode, 400 brand colours with 100 colour modifiers, 300 typography styles). Measured: one
/// combination resolved, against `tokens_studio_ref.py` resolving the same (the reference, in the
/// same run), and the whole folder indexed.
enum StudioBench {
    static func run(folder: String) throws -> [(String, JSONValue)] {
        let root = "\(folder)/studio/themes/studio"
        try? FileManager.default.removeItem(atPath: "\(folder)/studio")
        let brands = (0..<4).map { "brand/b\($0)" }
        try TokenBench.write(.object([("tokenSetOrder", .array((["core", "semantic/light", "semantic/dark"] + brands + ["components"]).map { .string($0) }))]), to: "\(root)/$metadata.json")
        var themes: [JSONValue] = ["light", "dark"].map { mode in
            .object([("name", .string(mode.capitalized)), ("group", "Mode"),
                     ("selectedTokenSets", .object([("core", "source"), ("semantic/\(mode)", "enabled"), ("components", "enabled")]))])
        }
        themes += brands.enumerated().map { number, set in
            .object([("name", .string("Brand \(number)")), ("group", "Brand"), ("selectedTokenSets", .object([(set, JSONValue.string("enabled"))]))])
        }
        try TokenBench.write(.array(themes), to: "\(root)/$themes.json")
        try TokenBench.write(core(), to: "\(root)/core.json")
        for (number, mode) in ["light", "dark"].enumerated() { try TokenBench.write(semantic(number), to: "\(root)/semantic/\(mode).json") }
        for (number, set) in brands.enumerated() { try TokenBench.write(brand(number), to: "\(root)/\(set).json") }
        try TokenBench.write(components(), to: "\(root)/components.json")

        func load(_ path: String) throws -> JSONValue { try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(path)")))) }
        let sets = ["core", "semantic/light", "semantic/dark", "components"] + brands
        var tokens = 0
        let resolve = try TokenBench.best {
            let resolver = try TokenResolver(tokensStudioThemes: try load("$themes.json"), metadata: try load("$metadata.json"), sets: sets, read: load)
            tokens = resolver.tokens(for: try resolver.inputs(["Mode": "Dark", "Brand": "Brand 2"])).tokens.count
        }
        let index = try TokenBench.best {
            let scratch = "\(folder)/studio-index-\(UUID().uuidString).sqlite"
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            try ThemeIndex(databasePath: scratch).writer.sync(themesDirectory: "\(folder)/studio/themes")
        }
        var members: [(String, JSONValue)] = [("studioTokens", .int(tokens)), ("studioCombinations", .int(8)),
                                             ("studioResolveOneSeconds", .double(resolve)), ("studioIndexSeconds", .double(index))]
        if let best = try TokenBench.referenceSeconds("tokens_studio_ref.py", [root, "Mode=Dark", "Brand=Brand 2"]) {
            members += [("studioReferenceSeconds", .double(best)), ("studioResolveVersusReference", .double(best / resolve))]
        }
        return members
    }

    static func hex(_ number: Int) -> String {
        let channels = [number % 256, number * 7 % 256, number * 13 % 256]
        return "#" + channels.map { String(format: "%02x", $0) }.joined()
    }

    static func core() -> JSONValue {
        .object([
            ("palette", .object((0..<1500).map { ("p\($0)", .object([("$value", .string(hex($0))), ("$type", "color")])) })),
            ("space", .object((0..<500).map { ("s\($0)", .object([("$value", .string("\($0)")), ("$type", "spacing")])) })),
        ])
    }

    static func semantic(_ mode: Int) -> JSONValue {
        .object([
            ("role", .object((0..<1000).map { ("r\($0)", .object([("$value", .string("{palette.p\(($0 * 3 + mode * 500) % 1500)}")), ("$type", "color")])) })),
            ("gap", .object((0..<200).map { ("g\($0)", .object([("$value", .string("{space.s\($0)} * \(mode + 2)")), ("$type", "spacing")])) })),
        ])
    }

    static func brand(_ number: Int) -> JSONValue {
        .object([("brand", .object((0..<400).map { index in
            var token: [(String, JSONValue)] = [("$value", .string("{palette.p\((index + number * 101) % 1500)}")), ("$type", "color")]
            if index < 100 {
                token.append(("$extensions", .object([("studio.tokens", .object([("modify", .object([("type", "darken"), ("value", "0.2"), ("space", "lch")]))]))])))
            }
            return ("b\(index)", .object(token))
        }))])
    }

    static func components() -> JSONValue {
        .object([("text", .object((0..<300).map { index in
            ("t\(index)", .object([("$type", "typography"), ("$value", .object([
                ("fontFamily", "Inter"), ("fontWeight", "Semi Bold"), ("fontSize", .string("{space.s\(index % 40 + 8)}")),
                ("lineHeight", "140%"), ("letterSpacing", "0"),
            ]))]))
        }))])
    }
}
