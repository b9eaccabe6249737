import DesignTokens
import JSON
import Testing

/// Values in the forms of the drafts before 2025.10 (hex strings, "16px"), as published design
/// systems still write them: read as the values they denote, and nothing else guessed at.
@Suite("design tokens in the drafts' forms")
struct DraftValueTests {
    func set(_ text: String) throws -> TokenSet {
        TokenSet(sources: [TokenSource(root: try JSONParser.parse(Array(text.utf8)), location: TokenLocation(file: "draft.tokens.json", pointer: ""))])
    }

    func value(_ set: TokenSet, _ path: String) -> JSONValue? { set[TokenPath(dotted: path)]?.value }

    @Test("a hex colour in each length is an sRGB colour with its alpha and 8-bit hex; what was written is kept")
    func hexColors() throws {
        let tokens = try set(#"""
        {"c": {"$type": "color", "six": {"$value": "#0A66cc"}, "eight": {"$value": "#0a66cc80"}, "three": {"$value": "#fa0"}, "four": {"$value": "#fa08"},
               "alias": {"$value": "{c.six}"}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        let components: [JSONValue] = [.double(10.0 / 255), .double(102.0 / 255), .double(204.0 / 255)]
        let six: JSONValue = .object([("colorSpace", "srgb"), ("components", .array(components)), ("hex", "#0a66cc")])
        #expect(value(tokens, "c.six") == six)
        #expect(value(tokens, "c.eight")?["alpha"] == .double(128.0 / 255))
        #expect(value(tokens, "c.three")?["hex"] == "#ffaa00" && value(tokens, "c.three")?["alpha"] == nil)
        #expect(value(tokens, "c.four")?["alpha"] == .double(136.0 / 255))
        #expect(value(tokens, "c.alias") == value(tokens, "c.six"), "an alias takes the value read anew")
        #expect(tokens[TokenPath(dotted: "c.six")]?.written == "#0A66cc")
    }

    @Test("a dimension or duration with its unit in one string; inside shadows, borders, transitions and typography too")
    func measures() throws {
        let tokens = try set(#"""
        {"d": {"$type": "dimension", "px": {"$value": "16px"}, "rem": {"$value": "1.5rem"}, "negative": {"$value": "-2px"}},
         "t": {"$type": "duration", "ms": {"$value": "200ms"}, "s": {"$value": "0.25s"}},
         "shadow": {"$type": "shadow", "$value": {"color": "#00000033", "offsetX": "0px", "offsetY": "4px", "blur": "12px", "spread": "0px"}},
         "border": {"$type": "border", "$value": {"color": "#ccc", "width": "1px", "style": "solid"}},
         "type": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "14px", "fontWeight": 400, "letterSpacing": "0px", "lineHeight": 1.4}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(value(tokens, "d.px") == .object([("value", .int(16)), ("unit", "px")]))
        #expect(value(tokens, "d.rem") == .object([("value", .double(1.5)), ("unit", "rem")]))
        #expect(value(tokens, "d.negative")?["value"] == .int(-2))
        #expect(value(tokens, "t.s") == .object([("value", .double(0.25)), ("unit", "s")]))
        #expect(value(tokens, "shadow")?["blur"] == .object([("value", .int(12)), ("unit", "px")]))
        #expect(value(tokens, "shadow")?["color"]?["alpha"] == .double(0x33 / 255.0))
        #expect(value(tokens, "border")?["width"] == .object([("value", .int(1)), ("unit", "px")]))
        #expect(value(tokens, "type")?["fontSize"] == .object([("value", .int(14)), ("unit", "px")]))
    }

    @Test("anything else stays a problem, never a guess", arguments: [String](arrayLiteral:
        #"{"$type": "color", "$value": "rgba(14, 14, 24, 0.94)"}"#,
        #"{"$type": "color", "$value": "red"}"#,
        ##"{"$type": "color", "$value": "#12345"}"##,
        ##"{"$type": "color", "$value": "#ggg"}"##,
        #"{"$type": "dimension", "$value": "16"}"#,
        #"{"$type": "dimension", "$value": "clamp(2rem, 4.5vw, 3.25rem)"}"#,
        #"{"$type": "dimension", "$value": "1.2.3px"}"#,
        #"{"$type": "dimension", "$value": "16em"}"#,
        #"{"$type": "duration", "$value": "fast"}"#
    ))
    func notRead(_ token: String) throws {
        let tokens = try set(#"{"x": \#(token)}"#)
        #expect(tokens[TokenPath(dotted: "x")] == nil)
        #expect(tokens.problems.count == 1 && tokens.problems.first?.location.pointer == "/x", "\(tokens.problems)")
    }
}
