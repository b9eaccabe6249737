import DesignTokens
import JSON
import Testing

/// Inputs the Format and Resolver modules (2025.10) do not allow that used to pass in silence:
/// each is now said, as an error where the value cannot mean anything (the token is not served),
/// as a warning where it still means one thing (served as that).
@Suite("what the DTCG 2025.10 modules forbid is said")
struct NegativeInputTests {
    func set(_ text: String) throws -> TokenSet {
        try TokenSet(parsing: text, file: "t.tokens.json")
    }

    static func resolver(_ text: String) throws -> TokenResolver {
        try TokenResolver(document: try JSONParser.parse(Array(text.utf8)), path: "r.resolver.json") { _ in .object([("a", .object([("$type", "number"), ("$value", 1)]))]) }
    }

    @Test("errors: the value cannot mean anything, and the token is not served", arguments: [
        (#"{"c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.5, 0.5, "x"]}}}"#, "/c", "each component must be a number"),
        (##"{"a": {"$type": "color", "$value": "#ff0000"}, "s": {"$type": "shadow", "$value": {"color": "{a} and more", "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 0, "unit": "px"}, "blur": {"value": 0, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}}}"##,
         "/s", "must be an object"), // filled in ("#ff0000 and more"), it is no colour
        (#"{"f": {"$type": "fontFamily", "$value": "Inter {x}"}}"#, "/f", "alias {x} in \"Inter {x}\" names no token"),
        (##"{"g": {"a": {"$type": "number", "$value": 1}}, "p": {"$type": "number", "$value": {"$ref": "#/g"}}}"##, "/p", "points at a group"),
        (##"{"p": {"$type": "number", "$value": {"$ref": "#/nowhere/$value"}}}"##, "/p", "points at nothing"),
    ])
    func errors(_ text: String, _ pointer: String, _ reason: String) throws {
        let tokens = try set(text)
        let problem = tokens.problems.first { $0.location.pointer.hasPrefix(pointer) && $0.reason.contains(reason) }
        #expect(problem?.reason.contains(reason) == true, "\(tokens.problems)")
        #expect(tokens[TokenPath(dotted: String(pointer.dropFirst()).replacingOccurrences(of: "/", with: "."))] == nil)
    }

    @Test("warnings: the value still means one thing, served as that", arguments: [
        (#"{"c": {"$type": "color", "$value": {"colorSpace": "hsl", "components": [360, 50, 50]}}}"#, "/c", "hue 360"),
        (#"{"c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [1.2, 0.5, 0]}}}"#, "/c", "outside srgb's range"),
        (#"{"c": {"$type": "color", "$value": {"colorSpace": "oklch", "components": [1.5, 0.1, 20]}}}"#, "/c", "outside oklch's range"),
        (#"{"n": {"$type": "number", "$value": 1, "$description": 5}}"#, "/n", "$description is a string"),
        (#"{"n": {"$type": "number", "$value": 1, "$deprecated": 5}}"#, "/n", "$deprecated is true, false or a string"),
        (#"{"n": {"$type": "number", "$value": 1, "$extensions": "x"}}"#, "/n", "$extensions is an object"),
        (#"{"n": {"$type": "length", "$value": 1}}"#, "/n", "length is no type of the Format module"),
    ])
    func warnings(_ text: String, _ pointer: String, _ detail: String) throws {
        let tokens = try set(text)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        let warning = tokens.warnings.first { $0.location.pointer == pointer }
        #expect(warning?.detail.contains(detail) == true && warning?.kind == .format, "\(tokens.warnings)")
        #expect(tokens[TokenPath(dotted: String(pointer.dropFirst()))] != nil, "still served")
    }

    @Test("resolvers: an empty resolutionOrder is refused; additional properties (of the document, a set, a modifier) and a modifier of one context are warnings")
    func resolvers() throws {
        #expect(throws: TokenResolver.Invalid.self) { try Self.resolver(#"{"version": "2025.10", "resolutionOrder": []}"#) }
        let extra = try Self.resolver(##"{"version": "2025.10", "colour": "red", "sets": {"s": {"sources": [{"$ref": "a.json"}]}}, "resolutionOrder": [{"$ref": "#/sets/s"}]}"##)
        #expect(extra.warnings.map(\.description) == ["r.resolver.json#/colour: colour is not a property of a resolver document; ignored (format)"], "\(extra.warnings)")
        let inner = try Self.resolver(##"{"version": "2025.10", "sets": {"s": {"sources": [{"$ref": "a.json"}], "order": 1}}, "modifiers": {"m": {"contexts": {"a": [], "b": []}, "fallback": "a"}}, "resolutionOrder": [{"$ref": "#/sets/s"}, {"$ref": "#/modifiers/m"}, {"type": "set", "name": "t", "sources": [], "weight": 2}]}"##)
        #expect(inner.warnings.map(\.description) == ["r.resolver.json#/sets/s/order: order is not a property of a set; ignored (format)",
                                                      "r.resolver.json#/modifiers/m/fallback: fallback is not a property of a modifier; ignored (format)",
                                                      "r.resolver.json#/resolutionOrder/2/weight: weight is not a property of a set; ignored (format)"], "\(inner.warnings)")
        let lone = try Self.resolver(##"{"version": "2025.10", "modifiers": {"m": {"contexts": {"only": [{"$ref": "a.json"}]}}}, "resolutionOrder": [{"$ref": "#/modifiers/m"}]}"##)
        #expect(lone.warnings.map(\.description) == ["r.resolver.json#/modifiers/m/contexts: a modifier has at least two contexts; m has one, always on (format)"], "\(lone.warnings)")
        #expect(lone.tokens(for: try lone.inputs([:])).tokens.count == 1)
    }
}

@Suite("refused tokens by their root cause")
struct RootCauseTests {
    @Test("a broken primitive is the cause; the aliases that follow from it are counted, not listed")
    func rootCause() throws {
        let text = ##"""
        {"color": {"$type": "color",
           "brand": {"$value": {"colorSpace": "srgb", "components": [1, 0, "x"]}},
           "accent": {"$value": "{color.brand}"}, "link": {"$value": "{color.accent}"}, "focus": {"$value": "{color.link}"},
           "typo": {"$value": "{color.nowhere}"}}}
        """##
        let tokens = try TokenSet(parsing: text, file: "t.tokens.json")
        let causes = RootCauses.of(tokens.problems)
        #expect(causes.map(\.cause.location.pointer) == ["/color/brand", "/color/typo"], "\(causes)")
        #expect(causes.map(\.aliases) == [3, 0])
        #expect(RootCauses.summary(of: tokens.problems) == "t.tokens.json#/color/brand: color value: each component must be a number or \"none\", and 3 aliases of it (and 1 other token refused)")
        #expect(RootCauses.summary(of: []) == nil)
    }
}

/// What the spec suite names: pointers into a composite's members resolve; references inside a
/// colour's, dimension's, duration's or Bézier's members are errors, never silently taken.
@Suite("references into and inside values")
struct ReferencePlacementTests {
    func set(_ text: String) throws -> TokenSet {
        try TokenSet(parsing: text, file: "t.tokens.json")
    }

    @Test("a $ref into a shadow's colour or offset stands for that part of the value")
    func pointerIntoComposite() throws {
        let tokens = try set(##"""
        {"base-shadow": {"$type": "shadow", "$value": {"color": {"colorSpace": "srgb", "components": [0, 0, 0], "alpha": 0.5},
                                                      "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 2, "unit": "px"},
                                                      "blur": {"value": 4, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}},
         "shade": {"$type": "color", "$value": {"$ref": "#/base-shadow/$value/color"}},
         "lifted": {"$type": "shadow", "$value": {"color": {"$ref": "#/base-shadow/$value/color"}, "offsetX": {"value": 0, "unit": "px"},
                                                  "offsetY": {"$ref": "#/base-shadow/$value/offsetY"}, "blur": {"value": 8, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}}}
        """##)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(tokens[TokenPath(dotted: "shade")]?.value["alpha"] == .double(0.5))
        #expect(tokens[TokenPath(dotted: "lifted")]?.value["offsetY"] == .object([("value", .int(2)), ("unit", "px")]))
    }

    @Test("a reference inside a colour's components, a dimension's value, a duration's or a Bézier's numbers is an error", arguments: [
        #"{"n": {"$type": "number", "$value": 1}, "x": {"$type": "color", "$value": {"colorSpace": "srgb", "components": ["{n}", 0, 0]}}}"#,
        #"{"n": {"$type": "number", "$value": 1}, "x": {"$type": "dimension", "$value": {"value": "{n}", "unit": "px"}}}"#,
        #"{"n": {"$type": "number", "$value": 1}, "x": {"$type": "duration", "$value": {"value": "{n}", "unit": "ms"}}}"#,
        #"{"n": {"$type": "number", "$value": 1}, "x": {"$type": "cubicBezier", "$value": [0, "{n}", 1, 1]}}"#,
    ])
    func referenceInsideSimpleValue(_ text: String) throws {
        let tokens = try set(text)
        #expect(tokens[TokenPath(dotted: "x")] == nil)
        #expect(tokens.problems.contains { $0.location.pointer == "/x" && $0.reason.contains("a reference inside") }, "\(tokens.problems)")
    }
}
