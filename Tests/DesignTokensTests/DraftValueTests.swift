import DesignTokens
import JSON
import Testing

/// Values in the forms of the drafts before 2025.10 (hex strings, "16px"), as published design
/// systems still write them: read as the values they denote, and nothing else guessed at.
@Suite("design tokens in the drafts' forms")
struct DraftValueTests {
    func set(_ text: String) throws -> TokenSet {
        try TokenSet(parsing: text, file: "draft.tokens.json")
    }

    func value(_ set: TokenSet, _ path: String) -> JSONValue? { set[TokenPath(dotted: path)]?.value }

    @Test("a hex colour in each length is an sRGB colour with its alpha and 8-bit hex; what was written is kept")
    func hexColors() throws {
        let tokens = try set(#"""
        {"c": {"$type": "color", "six": {"$value": "#0A66cc"}, "eight": {"$value": "#0a66cc80"}, "three": {"$value": "#fa0"}, "four": {"$value": "#fa08"},
               "alias": {"$value": "{c.six}"}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(tokens.warnings.map(\.location.pointer) == ["/c/six", "/c/eight", "/c/three", "/c/four"], "each read anew is said once, not at its alias")
        #expect(tokens.warnings.allSatisfy { $0.kind == .draftForm })
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
        #"{"$type": "color", "$value": "rgba(14, 14)"}"#,
        #"{"$type": "color", "$value": "reddish"}"#,
        #"{"$type": "color", "$value": "currentcolor"}"#,
        #"{"$type": "color", "$value": "linear-gradient(90deg, #fff 0%, 10px)"}"#,
        ##"{"$type": "color", "$value": "#12345"}"##,
        ##"{"$type": "color", "$value": "#ggg"}"##,
        #"{"$type": "dimension", "$value": "16"}"#,
        #"{"$type": "dimension", "$value": "clamp(2rem, 4.5vw, 3.25rem)"}"#,
        #"{"$type": "dimension", "$value": "1.2.3px"}"#,
        #"{"$type": "duration", "$value": "fast"}"#
    ))
    func notRead(_ token: String) throws {
        let tokens = try set(#"{"x": \#(token)}"#)
        #expect(tokens[TokenPath(dotted: "x")] == nil)
        #expect(tokens.problems.count == 1 && tokens.problems.first?.location.pointer == "/x", "\(tokens.problems)")
    }
}

/// What the most-used converters write beside the 2025.10 forms: served, and said as warnings
/// (one kind each), never an error that drops the token and every alias of it.
@Suite("what converters write")
struct ConverterSlipTests {
    func set(_ text: String) throws -> TokenSet {
        try TokenSet(parsing: text, file: "converted.tokens.json")
    }

    @Test("a hex fallback of 3, 4 or 8 digits beside valid components: the components win, and its aliases resolve")
    func hexFallback() throws {
        let tokens = try set(#"""
        {"c": {"$type": "color",
               "eight": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "alpha": 0.5, "hex": "#0066cc80"}},
               "three": {"$value": {"colorSpace": "srgb", "components": [1, 0.6667, 0], "hex": "#fa0"}},
               "alias": {"$value": "{c.eight}"},
               "shadowed": {"$type": "shadow", "$value": {"color": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "#0008"},
                            "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 1, "unit": "px"}, "blur": {"value": 2, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(tokens[TokenPath(dotted: "c.eight")]?.value["hex"] == nil && tokens[TokenPath(dotted: "c.eight")]?.value["alpha"] == .double(0.5))
        #expect(tokens[TokenPath(dotted: "c.alias")]?.value == tokens[TokenPath(dotted: "c.eight")]?.value)
        #expect(tokens[TokenPath(dotted: "c.shadowed")]?.value["color"]?["hex"] == nil)
        #expect(tokens.warnings.map(\.kind) == [.hexFallback, .hexFallback, .hexFallback])
        #expect(tokens.warnings.map(\.location.pointer) == ["/c/eight", "/c/three", "/c/shadowed"])
        // A hex that is no hex at all is still the spec's error.
        let broken = try set(#"{"c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "black"}}}"#)
        #expect(broken.problems.count == 1 && broken.warnings.isEmpty)
    }

    @Test("dimensions in em, dp, pt and %: kept as written, a warning each; inside a typography value too")
    func units() throws {
        let tokens = try set(#"""
        {"d": {"$type": "dimension", "em": {"$value": {"value": 1.5, "unit": "em"}}, "dp": {"$value": "16dp"}, "pt": {"$value": {"value": 12, "unit": "pt"}},
               "share": {"$value": "50%"}, "px": {"$value": {"value": 1, "unit": "px"}}},
         "type": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "14px", "fontWeight": 400, "letterSpacing": "0.16px", "lineHeight": 1.4}},
         "loose": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": {"value": 1, "unit": "em"}, "fontWeight": 400, "letterSpacing": "-0.01em", "lineHeight": 1.2}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(tokens[TokenPath(dotted: "d.em")]?.value == .object([("value", .double(1.5)), ("unit", "em")]))
        #expect(tokens[TokenPath(dotted: "d.dp")]?.value == .object([("value", .int(16)), ("unit", "dp")]))
        #expect(tokens[TokenPath(dotted: "d.share")]?.value == .object([("value", .int(50)), ("unit", "%")]))
        #expect(tokens[TokenPath(dotted: "type")]?.value["letterSpacing"] == .object([("value", .double(0.16)), ("unit", "px")]))
        #expect(tokens[TokenPath(dotted: "loose")]?.value["letterSpacing"] == .object([("value", .double(-0.01)), ("unit", "em")]))
        let units = tokens.warnings.filter { $0.kind == .unit }.map(\.location.pointer)
        #expect(units == ["/d/em", "/d/dp", "/d/pt", "/d/share", "/loose", "/loose"], "\(tokens.warnings)")
        #expect(!tokens.warnings.contains { $0.location.pointer == "/d/px" })
        #expect(tokens.warnings.contains { $0.location.pointer == "/type" && $0.kind == .draftForm }, "a draft string inside a composite is said")
    }

    @Test("a token that is also a group: both answer, the children take its $type, and it is said once")
    func tokenGroup() throws {
        let tokens = try set(#"""
        {"color": {"$type": "color",
                   "primary": {"$value": "#0066cc", "hover": {"$value": "#0055aa"}, "$description": "brand"},
                   "link": {"$value": "{color.primary.hover}"}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(Set(tokens.tokens.map(\.path.dotted)) == ["color.primary", "color.primary.hover", "color.link"])
        #expect(tokens[TokenPath(dotted: "color.link")]?.type == .color)
        #expect(tokens.warnings.filter { $0.kind == .tokenGroup }.map(\.location.pointer) == ["/color/primary"])
        #expect(tokens[TokenPath(dotted: "color.primary")]?.description == "brand")
    }

    @Test("what stays an error: an untyped token is never guessed at, nor an unknown unit")
    func hardRules() throws {
        let tokens = try set(#"{"untyped": {"$value": "16px"}, "d": {"$type": "dimension", "$value": {"value": 2, "unit": "vw"}}}"#)
        #expect(tokens.tokens.isEmpty)
        #expect(Set(tokens.problems.map(\.location.pointer)) == ["/untyped", "/d"], "\(tokens.problems)")
    }
}

/// Colours and gradients as CSS writes them in text (what Tokens Studio's picker and many teams'
/// files hold): served in the space they name, with a warning of kind css-form.
@Suite("CSS colour and gradient text")
struct CSSFormTests {
    func set(_ text: String) throws -> TokenSet {
        try TokenSet(parsing: text, file: "css.tokens.json")
    }

    @Test("rgba(), hsla(), names and transparent are colours, their aliases too; one warning each where written")
    func colors() throws {
        let tokens = try set(#"""
        {"c": {"$type": "color", "shade": {"$value": "rgba(0, 0, 0, .12)"}, "brand": {"$value": "hsla(210, 50%, 40%, 0.5)"},
               "named": {"$value": "RebeccaPurple"}, "clear": {"$value": "transparent"}, "modern": {"$value": "oklch(70% 0.1 250 / 80%)"},
               "alias": {"$value": "{c.brand}"}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(tokens.warnings.filter { $0.kind == .cssForm }.map(\.location.pointer) == ["/c/shade", "/c/brand", "/c/named", "/c/clear", "/c/modern"])
        #expect(tokens[TokenPath(dotted: "c.shade")]?.value == .object([("colorSpace", "srgb"), ("components", .array([.double(0), .double(0), .double(0)])),
                                                                          ("alpha", .double(0.12)), ("hex", "#000000")]))
        #expect(tokens[TokenPath(dotted: "c.brand")]?.value == .object([("colorSpace", "hsl"), ("components", .array([.double(210), .double(50), .double(40)])),
                                                                          ("alpha", .double(0.5))]))
        #expect(tokens[TokenPath(dotted: "c.named")]?.value["hex"] == "#663399")
        #expect(tokens[TokenPath(dotted: "c.clear")]?.value["alpha"] == .double(0))
        #expect(tokens[TokenPath(dotted: "c.modern")]?.value["colorSpace"] == "oklch")
        #expect(tokens[TokenPath(dotted: "c.alias")]?.value == tokens[TokenPath(dotted: "c.brand")]?.value)
    }

    @Test("a gradient string is a gradient: typed gradient, or a colour that holds one (as Tokens Studio keeps them), and its aliases")
    func gradients() throws {
        let tokens = try set(#"""
        {"g": {"$type": "gradient", "$value": "linear-gradient(90deg, #ffffff 0%, rgba(0, 0, 0, 0.5) 100%)"},
         "c": {"$type": "color", "fade": {"$value": "linear-gradient(to bottom, red, hsl(120 100% 25%) 40%, blue)"}, "alias": {"$value": "{c.fade}"}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        guard case .array(let stops)? = tokens[TokenPath(dotted: "g")]?.value, stops.count == 2 else {
            Issue.record("not two stops: \(String(describing: tokens[TokenPath(dotted: "g")]))")
            return
        }
        #expect(stops[0]["position"] == .double(0) && stops[1]["position"] == .double(1))
        #expect(stops[1]["color"]?["alpha"] == .double(0.5))
        let fade = tokens[TokenPath(dotted: "c.fade")]
        #expect(fade?.type == .gradient)
        if case .array(let placed)? = fade?.value { #expect(placed.map { $0["position"] } == [.double(0), .double(0.4), .double(1)], "CSS places the unplaced stops") }
        else { Issue.record("not a gradient: \(String(describing: fade))") }
        #expect(tokens[TokenPath(dotted: "c.alias")]?.type == .gradient && tokens[TokenPath(dotted: "c.alias")]?.value == fade?.value)
        #expect(tokens.warnings.contains { $0.location.pointer == "/g" && $0.detail.contains("90deg") && $0.detail.contains("not served") }, "\(tokens.warnings)")
    }
}


/// The value forms teams write beside the Format module's, each with one thing it can mean:
/// served with a warning, and their aliases with them.
@Suite("value forms teams write")
struct TeamValueFormTests {
    func set(_ text: String) throws -> TokenSet {
        try TokenSet(parsing: text, file: "team.tokens.json")
    }

    @Test("a curve as CSS writes it (cubic-bezier() or an easing keyword) is the four numbers, in a transition too; steps() stays an error")
    func cssCurves() throws {
        let tokens = try set(#"""
        {"ease": {"$type": "cubicBezier", "standard": {"$value": "cubic-bezier(0.2, 0, 0, 1)"}, "out": {"$value": "ease-out"}, "alias": {"$value": "{ease.standard}"},
                  "stepped": {"$value": "steps(4)"}},
         "fade": {"$type": "transition", "$value": {"duration": "200ms", "delay": "0ms", "timingFunction": "ease-in-out"}}}
        """#)
        #expect(tokens[TokenPath(dotted: "ease.standard")]?.value == .array([.double(0.2), .int(0), .int(0), .int(1)]))
        #expect(tokens[TokenPath(dotted: "ease.out")]?.value == .array([.int(0), .int(0), .double(0.58), .int(1)]), "CSS Easing's ease-out")
        #expect(tokens[TokenPath(dotted: "ease.alias")]?.value == tokens[TokenPath(dotted: "ease.standard")]?.value)
        #expect(tokens[TokenPath(dotted: "fade")]?.value["timingFunction"] == .array([.double(0.42), .int(0), .double(0.58), .int(1)]))
        #expect(tokens.problems.map(\.location.pointer) == ["/ease/stepped"], "\(tokens.problems)")
        #expect(tokens.warnings.contains { $0.kind == .cssForm && $0.location.pointer == "/ease/standard" }, "\(tokens.warnings)")
    }

    @Test("a description kept inside a colour value (Canvas's shape) is left out of it; the colour and its aliases serve")
    func noteInsideColor() throws {
        let tokens = try set(#"""
        {"c": {"$type": "color", "blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "description": "Primary blue"}},
               "link": {"$value": "{c.blue}"}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(tokens[TokenPath(dotted: "c.blue")]?.value == .object([("colorSpace", "srgb"), ("components", .array([.int(0), .double(0.4), .double(0.8)]))]))
        #expect(tokens[TokenPath(dotted: "c.link")]?.value == tokens[TokenPath(dotted: "c.blue")]?.value)
        #expect(tokens.warnings.map(\.location.pointer) == ["/c/blue"] && tokens.warnings.first?.detail.contains("description") == true)
    }

    @Test("typography: no letterSpacing is 0px; a line height in px, or an alias of a sizing token, is its ratio to the font size; 1.5em and 150% are 1.5")
    func typography() throws {
        let tokens = try set(#"""
        {"size": {"$type": "dimension", "body": {"$value": "16px"}, "line": {"$value": "24px"}},
         "t": {"$type": "typography",
               "plain": {"$value": {"fontFamily": "Inter", "fontSize": "16px", "fontWeight": 400, "lineHeight": 1.5}},
               "pixels": {"$value": {"fontFamily": "Inter", "fontSize": "16px", "fontWeight": 400, "letterSpacing": "0px", "lineHeight": "28px"}},
               "aliased": {"$value": {"fontFamily": "Inter", "fontSize": "{size.body}", "fontWeight": 400, "letterSpacing": "0px", "lineHeight": "{size.line}"}},
               "ems": {"$value": {"fontFamily": "Inter", "fontSize": "16px", "fontWeight": 400, "letterSpacing": "0px", "lineHeight": {"value": 1.5, "unit": "em"}}}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(tokens[TokenPath(dotted: "t.plain")]?.value["letterSpacing"] == .object([("value", .int(0)), ("unit", "px")]))
        #expect(tokens[TokenPath(dotted: "t.pixels")]?.value["lineHeight"] == .double(1.75))
        #expect(tokens[TokenPath(dotted: "t.aliased")]?.value["lineHeight"] == .double(1.5))
        #expect(tokens[TokenPath(dotted: "t.ems")]?.value["lineHeight"] == .double(1.5))
        #expect(tokens.warnings.contains { $0.location.pointer == "/t/plain" && $0.detail.contains("without letterSpacing") })
    }

    @Test("a number aliasing a dimension takes its amount, a dimension aliasing a number is px; other crossings stay errors")
    func numberAndDimension() throws {
        let tokens = try set(#"""
        {"space": {"$type": "dimension", "$value": "8px"}, "scale": {"$type": "number", "$value": 1.5},
         "ratio": {"$type": "number", "$value": "{space}"}, "gap": {"$type": "dimension", "$value": "{scale}"},
         "wrong": {"$type": "color", "$value": "{space}"}}
        """#)
        #expect(tokens[TokenPath(dotted: "ratio")]?.value == .int(8))
        #expect(tokens[TokenPath(dotted: "gap")]?.value == .object([("value", .double(1.5)), ("unit", "px")]))
        #expect(tokens.problems.map(\.location.pointer) == ["/wrong"], "\(tokens.problems)")
        #expect(tokens.warnings.filter { $0.detail.contains("alias of") }.map(\.location.pointer).sorted() == ["/gap", "/ratio"])
    }

    @Test("references inside a string are filled in, as Style Dictionary does, and the string read as its type (Primer's shadows)")
    func interpolation() throws {
        let tokens = try set(#"""
        {"border": {"thin": {"$type": "dimension", "$value": "1px"}}, "line": {"$type": "color", "$value": "#d0d7de"},
         "ring": {"$type": "shadow", "$value": "inset 0 0 0 {border.thin} {line}"},
         "stack": {"$type": "shadow", "$value": "0 1px 2px rgba(0, 0, 0, 0.1), 0 4px 8px rgba(0, 0, 0, 0.2)"},
         "font": {"$type": "fontFamily", "$value": "{brand.face}, sans-serif"}, "brand": {"face": {"$type": "fontFamily", "$value": "Inter"}},
         "broken": {"$type": "shadow", "$value": "inset 0 0 0 {border.thick} {line}"}}
        """#)
        let ring = tokens[TokenPath(dotted: "ring")]?.value
        #expect(ring?["inset"] == .bool(true) && ring?["spread"] == .object([("value", .int(1)), ("unit", "px")]), "\(String(describing: ring))")
        #expect(ring?["color"]?["components"] != nil)
        if case .array(let layers)? = tokens[TokenPath(dotted: "stack")]?.value { #expect(layers.count == 2 && layers[1]["blur"]?["value"] == .int(8)) }
        else { Issue.record("stack: \(String(describing: tokens[TokenPath(dotted: "stack")]))") }
        #expect(tokens[TokenPath(dotted: "font")]?.value == "Inter, sans-serif")
        #expect(tokens.problems.map(\.location.pointer) == ["/broken"] && tokens.problems.first?.reason.contains("{border.thick}") == true, "\(tokens.problems)")
    }
}
