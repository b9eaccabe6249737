@testable import DesignTokens
import Foundation
import JSON
import Testing
import TestSupport

@Suite("Tokens Studio folders, as the plugin syncs them to git")
struct TokensStudioTests {
    /// A folder's resolver, read as the index reads it (sets through a reader confined to the folder).
    static func resolver(_ folder: String) throws -> TokenResolver {
        func load(_ path: String) throws -> JSONValue { try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(path)")))) }
        let themes = FileManager.default.fileExists(atPath: "\(folder)/$themes.json") ? try load("$themes.json") : nil
        let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
        return try TokenResolver(tokensStudioThemes: themes, metadata: try load("$metadata.json"), sets: files.compactMap(TokensStudioThemes.set(ofFile:)), read: load)
    }

    static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .int(let whole)?: Double(whole)
        case .double(let fraction)?: fraction
        default: nil
        }
    }

    /// Equal as JSON, numbers compared as numbers (1 and 1.0 alike).
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y.first { $0.0 == key }.map { same(value, $0.1) } ?? false }
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
        default:
            if let x = number(a), let y = number(b) { return abs(x - y) < 1e-9 }
            return a == b
        }
    }

    @Test("a group of several themes is a modifier, a group of one is always on; sets merge in tokenSetOrder and only enabled sets answer")
    func themesAndSets() throws {
        let folder = try TokensStudioFolder.write(TokensStudioFolder.multiBrand)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let resolver = try Self.resolver(folder)
        #expect(resolver.modifiers.map(\.name) == ["Mode", "Brand"])
        #expect(resolver.modifiers.map(\.contexts) == [["Light", "Dark"], ["Acme", "Globex"]])
        #expect(resolver.modifiers.map(\.defaultContext) == ["Light", "Acme"])

        let darkGlobex = resolver.tokens(for: try resolver.inputs(["Mode": "Dark", "Brand": "Globex"]))
        #expect(darkGlobex.problems.isEmpty, "\(darkGlobex.problems)")
        #expect(darkGlobex[TokenPath(dotted: "accent")]?.value["components"] == .array([.int(1), .double(0.4), .int(0)]))
        #expect(darkGlobex[TokenPath(dotted: "button.background")]?.value["components"] == .array([.double(0.1), .double(0.1), .double(0.1)]))
        #expect(darkGlobex[TokenPath(dotted: "gray.50")] == nil, "a source set's tokens serve aliases, not requests")
        #expect(darkGlobex[TokenPath(dotted: "space.large")]?.value["value"] == .int(20), "the always-on group's set comes later in tokenSetOrder and wins")
        #expect(resolver.tokens(for: try resolver.inputs([:]))[TokenPath(dotted: "accent")]?.value["components"] == .array([.int(0), .double(0.4), .double(0.8)]))
        #expect(resolver.document["modifiers"]?["Mode"]?["default"] == "Light")
    }

    @Test("every combination of themes equals tokens_studio_ref.py's reading of the folder",
          .enabled(if: ReferenceTools.directory.map { FileManager.default.fileExists(atPath: $0.appendingPathComponent("tokens_studio_ref.py").path) } ?? false,
                   "../shared/tools not found (tokens_studio_ref.py)"))
    func matchesReference() throws {
        let tools = try #require(ReferenceTools.directory)
        let folder = try TokensStudioFolder.write(TokensStudioFolder.multiBrand)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let resolver = try Self.resolver(folder)
        var compared = 0
        for inputs in resolver.allInputs() {
            let run = try ReferenceTools.run([tools.appendingPathComponent("tokens_studio_ref.py").path, folder] + inputs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            #expect(run.status == 0, "\(run.output)")
            let reference = try JSONParser.parse(Array(run.output.utf8))
            guard case .object(let expected)? = reference["tokens"] else { Issue.record("\(run.output.prefix(300))"); continue }
            let tokens = resolver.tokens(for: inputs)
            #expect(Set(tokens.tokens.map(\.path.dotted)) == Set(expected.map(\.0)), "\(inputs)")
            for (path, token) in expected {
                let ours = tokens[TokenPath(dotted: path)]
                #expect(ours.map { Self.same($0.value, token["$value"] ?? .null) } ?? false, "\(inputs) \(path): \(ours?.value.serialized() ?? "missing") against \(token.serialized())")
                compared += 1
            }
        }
        #expect(compared == 28, "only \(compared) values compared")
    }

    @Test("the plugin's own forms: older keys, its types, unitless lengths, weights by name, percentages, shadows, typography")
    func studioForms() throws {
        let folder = try TokensStudioFolder.write(TokensStudioFolder.studioForms)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokens = try Self.resolver(folder).tokens(for: [:])
        func value(_ path: String) -> JSONValue? { tokens[TokenPath(dotted: path)]?.value }
        #expect(value("space.rem") == .object([("value", .double(1.5)), ("unit", "rem")]))
        #expect(value("weight.strong") == .int(600))
        #expect(value("motion.base") == .object([("value", .int(200)), ("unit", "ms")]), "a duration without a unit is in milliseconds")
        #expect(Self.number(value("opacity.muted")) == 0.4)
        #expect(Self.number(value("line")) == 1.5 && tokens[TokenPath(dotted: "line")]?.type == .number)
        let shadow = try #require(value("shadow"))
        #expect(Self.same(shadow["offsetY"] ?? .null, .object([("value", 4), ("unit", "px")])), "\(shadow.serialized())")
        #expect(shadow["inset"] == .bool(false) && Self.number(shadow["color"]?["alpha"]).map { abs($0 - 64.0 / 255) < 1e-9 } == true)
        let heading = try #require(value("heading"))
        #expect(heading["fontFamily"] == "Inter" && heading["fontWeight"] == .int(700) && Self.number(heading["lineHeight"]) == 1.2)
        #expect(Self.same(heading["fontSize"] ?? .null, .object([("value", 24), ("unit", "px")])), "\(heading.serialized())")
        #expect(tokens[TokenPath(dotted: "heading")]?.extensions?["studio.tokens"]?["typography"]?["textCase"] == "uppercase", "kept beside the value")
        #expect(tokens[TokenPath(dotted: "accent.hover")]?.description == nil && tokens.warnings.count == 1)
        #expect(tokens.warnings.first?.kind == .studioKeys && tokens.warnings.first?.location.file == "theme.json", "one warning for the file, none for the source-only set: \(tokens.warnings)")
    }

    @Test("arithmetic over aliases, as Tokens Studio evaluates it", arguments: [
        ("space.double", 16.0), ("space.roomy", 13.3), ("space.capped", 12.0),
    ])
    func arithmetic(_ path: String, _ expected: Double) throws {
        let folder = try TokensStudioFolder.write(TokensStudioFolder.studioForms)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let token = try #require(try Self.resolver(folder).tokens(for: [:])[TokenPath(dotted: path)])
        #expect(token.type == .dimension && token.value["unit"] == "px")
        #expect(Self.number(token.value["value"]).map { abs($0 - expected) < 1e-9 } == true, "\(token.value.serialized())")
    }

    @Test("arithmetic that names nothing is that token's problem; the rest serve")
    func brokenArithmetic() throws {
        let folder = try TokensStudioFolder.write(TokensStudioFolder.studioForms)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokens = try Self.resolver(folder).tokens(for: [:])
        #expect(tokens[TokenPath(dotted: "broken")] == nil)
        #expect(tokens.problems.map(\.description) == ["theme.json#/broken: alias {nowhere} in {base} * {nowhere} names no token"], "\(tokens.problems)")
    }

    @Test("colour modifiers in the space they name (checked against coloraide's conversions)")
    func colorModifiers() throws {
        let folder = try TokensStudioFolder.write(TokensStudioFolder.studioForms)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokens = try Self.resolver(folder).tokens(for: [:])
        func close(_ path: String, _ space: String, _ expected: [Double], alpha: Double = 1, tolerance: Double = 1e-6) {
            let value = tokens[TokenPath(dotted: path)]?.value
            guard case .array(let components)? = value?["components"], value?["colorSpace"] == .string(space) else {
                Issue.record("\(path): \(value?.serialized() ?? "missing")"); return
            }
            let numbers = components.compactMap(Self.number)
            #expect(numbers.count == 3 && zip(numbers, expected).allSatisfy { abs($0 - $1) < tolerance }, "\(path): \(numbers) against \(expected)")
            #expect(Self.number(value?["alpha"]).map { abs($0 - alpha) < 1e-9 } == true, "\(path) alpha")
        }
        close("accent.hover", "hsl", [220, 60, 40])
        close("accent.wash", "srgb", [0.6, 0.7, 0.9])
        close("accent.glass", "srgb", [0.2, 0.4, 0.8], alpha: 0.3)
        // coloraide: #3366cc is lch(44.12101 60.09261 280.50322); half way to white, half its chroma.
        close("accent.light", "lch", [72.06050711466763, 30.046305443645874, 280.5032243387333], tolerance: 1e-3)
    }

    @Test("a folder without $themes.json: every set is enabled, no modifiers; a set missing from disk is skipped with a warning")
    func withoutThemes() throws {
        let folder = try TokensStudioFolder.write([
            "$metadata.json": #"{"tokenSetOrder": ["a", "b"]}"#,
            "a.json": ##"{"x": {"value": "#ff0000", "type": "color"}}"##,
            "b.json": #"{"y": {"value": "{x}", "type": "color"}}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let resolver = try Self.resolver(folder)
        #expect(resolver.modifiers.isEmpty && resolver.warnings.isEmpty)
        #expect(resolver.tokens(for: [:]).tokens.map(\.path.dotted).sorted() == ["x", "y"])
        try FileManager.default.removeItem(atPath: folder + "/b.json")
        let stale = try Self.resolver(folder)
        #expect(stale.tokens(for: [:]).tokens.map(\.path.dotted) == ["x"])
        #expect(stale.warnings.map(\.description) == ["$metadata.json#: tokenSetOrder names 1 set the folder does not have, skipped: b (studio-folder)"])
        try Data(#"{"tokenSetOrder": ["../outside", "a"]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/$metadata.json"))
        let outside = try Self.resolver(folder)
        #expect(outside.tokens(for: [:]).tokens.map(\.path.dotted) == ["x"])
        #expect(outside.warnings.first?.description.contains("tokenSetOrder/0 is not a set name inside the folder") == true, "\(outside.warnings)")
    }

    @Test("a stale $metadata.json and $themes.json (Canvas's shape): entries naming no file are skipped with a warning, never the theme")
    func staleEntries() throws {
        let folder = try TokensStudioFolder.write([
            "$metadata.json": #"{"tokenSetOrder": ["base", "brand/canvas", "sys/color"]}"#,
            "$themes.json": #"[{"id": "1", "name": "Canvas", "group": "Brand", "selectedTokenSets": {"base": "source", "brand/canvas": "enabled", "sys/color": "enabled", "sys/shape": "enabled"}}]"#,
            "brand/canvas.json": ##"{"brand": {"primary": {"value": "#0875e1", "type": "color"}}}"##,
            "sys/color.json": #"{"color": {"fg": {"value": "{brand.primary}", "type": "color"}}}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let resolver = try Self.resolver(folder)
        let tokens = resolver.tokens(for: [:])
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(tokens[TokenPath(dotted: "color.fg")]?.value["components"] != nil)
        let lines = resolver.warnings.map(\.description)
        #expect(lines.contains("$metadata.json#: tokenSetOrder names 1 set the folder does not have, skipped: base (studio-folder)"), "\(lines)")
        #expect(lines.contains("$themes.json#: themes name 2 sets the folder does not have, skipped: base, sys/shape (studio-folder)"), "\(lines)")
    }

    @Test("an order that omits sets (the lion example's shape): the folder's other sets merge after it, in file order, as the plugin does")
    func omittedSets() throws {
        let folder = try TokensStudioFolder.write([
            "$metadata.json": #"{"tokenSetOrder": ["core"]}"#,
            "$themes.json": #"[{"id": "1", "name": "Lion", "group": "Brand", "selectedTokenSets": {"core": "source", "lion/colors": "enabled", "z-overrides": "enabled"}}]"#,
            "core.json": ##"{"red": {"value": "#ff0000", "type": "color"}, "blue": {"value": "#0000ff", "type": "color"}}"##,
            "lion/colors.json": #"{"accent": {"value": "{red}", "type": "color"}}"#,
            "z-overrides.json": #"{"accent": {"value": "{blue}", "type": "color"}}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let resolver = try Self.resolver(folder)
        let accent = resolver.tokens(for: [:])[TokenPath(dotted: "accent")]
        #expect(accent.map { Self.same($0.value["components"] ?? .null, .array([.int(0), .int(0), .int(1)])) } == true, "z-overrides comes later in file order and wins")
        #expect(resolver.warnings.map(\.description) == [
            "$metadata.json#: 2 sets of the folder not in tokenSetOrder, merged after it in file order: lion/colors, z-overrides (studio-folder)"])
    }

    @Test("themes without a group (Compound's shape) are one group of exclusive themes, the first by default, with a warning naming the choice")
    func ungroupedThemes() throws {
        let folder = try TokensStudioFolder.write([
            "$metadata.json": #"{"tokenSetOrder": ["light", "dark", "dark-hc"]}"#,
            "$themes.json": """
                [{"id": "1", "name": "Light", "selectedTokenSets": {"light": "enabled"}},
                 {"id": "2", "name": "Dark", "selectedTokenSets": {"dark": "enabled"}},
                 {"id": "3", "name": "Dark HC", "selectedTokenSets": {"dark-hc": "enabled"}}]
                """,
            "light.json": ##"{"text": {"value": "#1b1d22", "type": "color"}}"##,
            "dark.json": ##"{"text": {"value": "#ebeef2", "type": "color"}}"##,
            "dark-hc.json": ##"{"text": {"value": "#f2f5f7", "type": "color"}}"##,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let resolver = try Self.resolver(folder)
        #expect(resolver.modifiers.map(\.name) == ["theme"])
        #expect(resolver.modifiers.first?.contexts == ["Light", "Dark", "Dark HC"] && resolver.modifiers.first?.defaultContext == "Light")
        func text(_ inputs: [String: String]) throws -> JSONValue? { resolver.tokens(for: try resolver.inputs(inputs))[TokenPath(dotted: "text")]?.value["components"] }
        #expect(try text([:]) == resolver.tokens(for: try resolver.inputs(["theme": "Light"]))[TokenPath(dotted: "text")]?.value["components"])
        #expect(try text([:]) != text(["theme": "Dark HC"]), "one theme at a time: Light's value by default, not the last theme's")
        #expect(resolver.warnings.map(\.description) == [
            "$themes.json#: 3 themes have no group: they form one group \"theme\" whose themes exclude each other, Light by default (?theme=Dark for another); give them groups to combine them (studio-folder)"])
    }

    @Test("the evaluator: units, functions, precedence; what is no arithmetic is nil", arguments: [
        ("2 * (3 + 4)", 14.0, nil), ("16px / 2", 8.0, "px"), ("-4px + 10px", 6.0, "px"), ("min(3rem, 2rem, 4rem)", 2.0, "rem"),
        ("roundTo(10 / 3, 2)", 3.33, nil), ("ceil(2.1)", 3.0, nil), ("sqrt(16)", 4.0, nil),
    ] as [(String, Double, String?)])
    func evaluator(_ text: String, _ value: Double, _ unit: String?) {
        #expect(TokenMath.evaluate(text) == .some(.init(value: value, unit: unit)), "\(text)")
    }

    @Test("refused: mixed units, division by zero, unknown functions, text", arguments: ["1px + 1rem", "4 / 0", "foo(2)", "Sans-Serif", "2 *", String(repeating: "(", count: 200) + "1" + String(repeating: ")", count: 200)])
    func notArithmetic(_ text: String) {
        #expect(TokenMath.evaluate(text) == nil, "\(text)")
    }
}

extension TokensStudioTests {
    @Test("keys a team keeps beside a token's value (Canvas's deprecatedValues) are kept with it, not read as tokens; the token serves")
    func keysBesideTheValue() throws {
        let folder = try TokensStudioFolder.write([
            "$metadata.json": #"{"tokenSetOrder": ["base"]}"#,
            "base.json": ##"{"blue": {"value": "#0875e1", "type": "color", "deprecatedValues": {"old": "#0000ff"}, "comment": "brand"}, "link": {"value": "{blue}", "type": "color"}}"##,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokens = try Self.resolver(folder).tokens(for: [:])
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(Set(tokens.tokens.map(\.path.dotted)) == ["blue", "link"])
        let beside = tokens.warnings.filter { $0.kind == .besideValue }.map(\.description)
        #expect(beside == [#"base.json#/blue: "comment", "deprecatedValues" beside the value: no token, kept under $extensions["org.themed.beside"] here (beside-value)"#],
                "one line for the file: \(tokens.warnings)")
    }
}
