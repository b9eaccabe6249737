import DesignTokens
import JSON
import Testing

/// The Format module's own examples (2025.10), and a test for each kind of error: a token that
/// cannot be resolved is reported with its file and pointer and never given a value.
@Suite("design token sets")
struct TokenSetTests {
    func set(_ text: String, file: String = "a.tokens.json") throws -> TokenSet {
        TokenSet(sources: [TokenSource(root: try JSONParser.parse(Array(text.utf8)), location: TokenLocation(file: file, pointer: ""))])
    }

    func value(_ set: TokenSet, _ path: String) -> JSONValue? { set[TokenPath(dotted: path)]?.value }

    static let blue = ##"{"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}"##

    @Test("groups carry $type down; $description, $deprecated and $extensions are kept")
    func groups() throws {
        let tokens = try set(#"""
        {"color": {"$type": "color", "$deprecated": "use brand", "primary": {"$value": \#(Self.blue), "$description": "Buttons",
           "$extensions": {"org.example": {"x": 1}}},
           "semantic": {"warning": {"$type": "fontFamily", "$value": "Comic Sans MS"}, "ok": {"$value": \#(Self.blue), "$deprecated": false}}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        let primary = try #require(tokens[TokenPath(dotted: "color.primary")])
        #expect(primary.type == .color && primary.description == "Buttons" && primary.deprecated == .string("use brand"))
        #expect(primary.extensions?["org.example"]?["x"] == .int(1))
        #expect(tokens[TokenPath(dotted: "color.semantic.warning")]?.type == .fontFamily)
        #expect(tokens[TokenPath(dotted: "color.semantic.ok")]?.deprecated == nil, "$deprecated: false overrides the group")
    }

    @Test("aliases are followed through chains, and inside composite values; the chain is named")
    func aliases() throws {
        let tokens = try set(#"""
        {"base": {"primary": {"$type": "color", "$value": \#(Self.blue)}},
         "semantic": {"brand": {"$value": "{base.primary}"}, "link": {"$value": "{semantic.brand}"}},
         "space": {"small": {"$type": "dimension", "$value": {"value": 0.5, "unit": "rem"}}},
         "shadow": {"medium": {"$type": "shadow", "$value": {"color": "{semantic.link}", "offsetX": "{space.small}", "offsetY": "{space.small}",
            "blur": {"value": 1.5, "unit": "rem"}, "spread": {"value": 0, "unit": "rem"}}},
            "layered": {"$type": "shadow", "$value": ["{shadow.medium}", {"color": "{base.primary}", "offsetX": {"value": 4, "unit": "px"},
               "offsetY": {"value": 4, "unit": "px"}, "blur": {"value": 8, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}]}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        let link = try #require(tokens[TokenPath(dotted: "semantic.link")])
        #expect(link.type == .color && link.value == value(tokens, "base.primary"))
        #expect(link.aliasOf.map(\.dotted) == ["semantic.brand", "base.primary"])
        #expect(value(tokens, "shadow.medium")?["offsetX"] == value(tokens, "space.small"))
        guard case .array(let layers)? = value(tokens, "shadow.layered") else { Issue.record("no layers"); return }
        #expect(layers.count == 2 && layers[0] == value(tokens, "shadow.medium"), "an alias in an array is one element, not flattened")
    }

    @Test("$ref pointers: a whole token value, and components of composite values")
    func pointers() throws {
        let tokens = try set(#"""
        {"colors": {"blue": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0.2, 0.4, 0.9], "hex": "#3366e6"}}},
         "semantic": {"primary": {"$ref": "#/colors/blue/$value", "$type": "color"},
                      "hue": {"$ref": "#/colors/blue/$value/components/0", "$type": "number"},
                      "deep": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [{"$ref": "#/colors/blue/$value/components/0"},
                                {"$ref": "#/colors/blue/$value/components/1"}, 0.7], "hex": "#3366b3"}}},
         "base": {"spacing": {"$type": "dimension", "$value": {"value": 16, "unit": "px"}}},
         "layout": {"small": {"$type": "dimension", "$value": {"value": {"$ref": "#/base/spacing/$value/value"}, "unit": "rem"}}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(value(tokens, "semantic.primary") == value(tokens, "colors.blue"))
        #expect(value(tokens, "semantic.hue") == .double(0.2))
        #expect(value(tokens, "semantic.deep")?["components"] == .array([.double(0.2), .double(0.4), .double(0.7)]))
        #expect(value(tokens, "layout.small") == .object([("value", .int(16)), ("unit", "rem")]))
    }

    @Test("$extends inherits a group's tokens, overridden where the extending group has its own; $root tokens")
    func extending() throws {
        let tokens = try set(#"""
        {"input": {"$type": "dimension", "field": {"width": {"$value": {"value": 100, "unit": "px"}},
                                                   "height": {"$value": {"value": 2, "unit": "rem"}}}},
         "input-amount": {"$extends": "{input}", "field": {"width": {"$value": {"value": 50, "unit": "px"}}}},
         "spacing": {"$type": "dimension", "$root": {"$value": {"value": 16, "unit": "px"}}, "small": {"$value": {"value": 8, "unit": "px"}}}}
        """#)
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(value(tokens, "input-amount.field.width")?["value"] == .int(50))
        #expect(value(tokens, "input-amount.field.height")?["value"] == .int(2))
        #expect(tokens[TokenPath(dotted: "input-amount.field.height")]?.type == .dimension)
        #expect(value(tokens, "spacing.$root")?["value"] == .int(16))
    }

    @Test("every type of the Format module: valid values are taken, each kind of invalid one is reported with its reason")
    func types() throws {
        let valid = try set(#"""
        {"t": {
          "c": {"$type": "color", "$value": {"colorSpace": "oklch", "components": [0.7, 0.1, "none"], "alpha": 0.5}},
          "d": {"$type": "dimension", "$value": {"value": 0, "unit": "px"}},
          "ff": {"$type": "fontFamily", "$value": ["Helvetica", "Arial", "sans-serif"]},
          "fw": {"$type": "fontWeight", "$value": "extra-bold"}, "fw2": {"$type": "fontWeight", "$value": 350},
          "du": {"$type": "duration", "$value": {"value": 1.5, "unit": "s"}},
          "cb": {"$type": "cubicBezier", "$value": [0.5, -2, 1, 3]},
          "n": {"$type": "number", "$value": 2.3},
          "ss": {"$type": "strokeStyle", "$value": {"dashArray": [{"value": 0.5, "unit": "rem"}], "lineCap": "round"}},
          "b": {"$type": "border", "$value": {"color": {"colorSpace": "srgb", "components": [0.2, 0.2, 0.2]}, "width": {"value": 3, "unit": "px"}, "style": "solid"}},
          "tr": {"$type": "transition", "$value": {"duration": {"value": 200, "unit": "ms"}, "delay": {"value": 0, "unit": "ms"}, "timingFunction": [0.5, 0, 1, 1]}},
          "g": {"$type": "gradient", "$value": [{"color": {"colorSpace": "srgb", "components": [0, 0, 1]}, "position": 0}]},
          "ty": {"$type": "typography", "$value": {"fontFamily": "Roboto", "fontSize": {"value": 42, "unit": "px"}, "fontWeight": 700,
                 "letterSpacing": {"value": 0.1, "unit": "px"}, "lineHeight": 1.2}},
          "custom": {"$type": "org.example.elevation", "$value": {"anything": [1, 2]}}}}
        """#)
        #expect(valid.problems.isEmpty, "\(valid.problems)")
        #expect(valid.tokens.count == 14)
        #expect(valid[TokenPath(dotted: "t.custom")]?.type == .other("org.example.elevation"))

        let cases: [(String, String, String)] = [
            ("color", #"{"colorSpace": "cmyk", "components": [0, 0, 0]}"#, "not one the Color module defines"),
            ("color", #"{"colorSpace": "srgb", "components": [0, 0]}"#, "takes 3 components"),
            ("color", #"{"colorSpace": "srgb", "components": [0, 0, 0], "alpha": 2}"#, "alpha must be"),
            ("color", ##""blurple""##, "must be an object"), // a hex or CSS colour string is read as its colour (DraftValueTests)
            ("dimension", #"{"value": 4, "unit": "vw"}"#, "unit is px or rem"),
            ("fontWeight", #""Bold""#, "case matters"),
            ("fontWeight", "1001", "from 1 to 1000"),
            ("duration", #"{"value": 4, "unit": "min"}"#, "unit is ms or s"),
            ("cubicBezier", "[2, 0, 1, 1]", "x coordinates"),
            ("number", #""2""#, "must be a number"),
            ("strokeStyle", #""wavy""#, "not a stroke style"),
            ("border", #"{"color": {"colorSpace": "srgb", "components": [0, 0, 0]}, "width": {"value": 1, "unit": "px"}}"#, "style is missing"),
            ("shadow", "[]", "may not be empty"),
            ("gradient", #"[{"color": {"colorSpace": "srgb", "components": [0, 0, 0]}}]"#, "position is missing"),
            ("typography", #"{"fontFamily": "A"}"#, "fontSize is missing"),
        ]
        for (type, value, words) in cases {
            let tokens = try set(#"{"bad": {"$type": "\#(type)", "$value": \#(value)}}"#)
            #expect(tokens.tokens.isEmpty, "\(type) \(value) was taken")
            #expect(tokens.problems.count == 1 && tokens.problems[0].reason.contains(words) && tokens.problems[0].location.pointer == "/bad",
                    "\(type) \(value): \(tokens.problems)")
        }
    }

    @Test("errors name the file and pointer, and leave the rest serving: a missing alias, a loop, no type, a bad pointer, a bad $extends, a bad name")
    func errors() throws {
        let tokens = try set(#"""
        {"ok": {"$type": "number", "$value": 1},
         "missing": {"$value": "{ok2}"},
         "a": {"$value": "{b}"}, "b": {"$value": "{c}"}, "c": {"$value": "{a}"},
         "untyped": {"$value": 3},
         "pointer": {"$ref": "#/nowhere/$value", "$type": "number"},
         "ext": {"$extends": "{ok}", "x": {"$type": "number", "$value": 2}},
         "bad.name": {"$type": "number", "$value": 1}}
        """#, file: "brand/base.tokens.json")
        #expect(tokens.tokens.map(\.path.dotted) == ["ok"])
        func reason(_ pointer: String) -> [String] { tokens.problems.filter { $0.location.pointer == pointer }.map(\.reason) }
        #expect(reason("/missing").first?.contains("alias {ok2} names no token; did you mean {ok}?") == true, "\(tokens.problems)")
        for member in ["/a", "/b", "/c"] { #expect(reason(member).first?.contains("aliases loop") == true, "\(member): \(tokens.problems)") }
        #expect(reason("/untyped").first?.contains("has no $type") == true)
        #expect(reason("/pointer").first?.contains("points at nothing") == true, "\(tokens.problems)")
        #expect(reason("/ext").first?.contains("only a group can be extended") == true, "\(tokens.problems)")
        #expect(reason("/bad.name").first?.contains("may not contain") == true)
        #expect(tokens.problems.allSatisfy { $0.location.file == "brand/base.tokens.json" })
    }

    @Test("sources merge in order: the last occurrence of a token wins, groups merge, and each token names the file it came from")
    func merging() throws {
        let first = try JSONParser.parse(Array(#"{"color": {"$type": "color", "a": {"$value": \#(Self.blue)}, "b": {"$value": \#(Self.blue)}}}"#.utf8))
        let second = try JSONParser.parse(Array(#"{"color": {"b": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0]}}}}"#.utf8))
        let tokens = TokenSet(sources: [TokenSource(root: first, location: TokenLocation(file: "base.tokens.json", pointer: "")),
                                        TokenSource(root: second, location: TokenLocation(file: "brand.tokens.json", pointer: ""))])
        #expect(tokens.problems.isEmpty, "\(tokens.problems)")
        #expect(value(tokens, "color.b")?["components"] == .array([.int(1), .int(0), .int(0)]))
        #expect(tokens[TokenPath(dotted: "color.b")]?.type == .color, "the group's $type still applies")
        #expect(tokens[TokenPath(dotted: "color.b")]?.location == TokenLocation(file: "brand.tokens.json", pointer: "/color/b"))
        #expect(tokens[TokenPath(dotted: "color.a")]?.location == TokenLocation(file: "base.tokens.json", pointer: "/color/a"))
    }
}
