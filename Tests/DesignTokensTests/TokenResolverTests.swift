import DesignTokens
import JSON
import Testing

/// The Resolver module (2025.10): sets and modifiers in a resolution order, inputs with
/// defaults, and documents that are refused with the place and the reason.
@Suite("token resolvers")
struct TokenResolverTests {
    static func json(_ text: String) -> JSONValue { (try? JSONParser.parse(Array(text.utf8))) ?? .null }

    /// A theme folder's files, as the reader a resolver is given.
    static let files: [String: JSONValue] = [
        "foundation/size.json": json(#"{"space": {"$type": "dimension", "small": {"$value": {"value": 4, "unit": "px"}}}}"#),
        "theme/light.json": json(#"{"color": {"$type": "color", "bg": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1]}}}}"#),
        "theme/dark.json": json(#"{"color": {"$type": "color", "bg": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}}}"#),
        "theme/high.json": json(#"{"color": {"$type": "color", "fg": {"$value": {"colorSpace": "srgb", "components": [1, 1, 0]}}}}"#),
        "size/large.json": json(#"{"space": {"small": {"$value": {"value": 8, "unit": "px"}}}}"#),
    ]

    static func read(_ path: String) throws -> JSONValue {
        guard let file = files[path] else { throw Missing(path: path) }
        return file
    }

    struct Missing: Error, CustomStringConvertible { var path: String; var description: String { "no file \(path) in the theme" } }

    static let document = json(#"""
    {"version": "2025.10",
     "sets": {"size": {"sources": [{"$ref": "foundation/size.json"}]}},
     "modifiers": {"theme": {"contexts": {"light": [{"$ref": "theme/light.json"}], "dark": [{"$ref": "theme/dark.json"}],
                                          "darkHigh": [{"$ref": "theme/dark.json"}, {"$ref": "theme/high.json"}]}, "default": "light"}},
     "resolutionOrder": [{"$ref": "#/sets/size"}, {"$ref": "#/modifiers/theme"},
        {"type": "modifier", "name": "size", "contexts": {"normal": [], "large": [{"$ref": "size/large.json"}]}},
        {"type": "set", "name": "overrides", "sources": [{"brand": {"$type": "number", "ratio": {"$value": 1.5}}}]}]}
    """#)

    @Test("inputs choose each modifier's context; a missing one takes the default, or the first context")
    func resolution() throws {
        let resolver = try TokenResolver(document: Self.document, path: "tokens.resolver.json", read: Self.read)
        #expect(resolver.modifiers.map(\.name) == ["theme", "size"])
        #expect(resolver.modifiers.map(\.defaultContext) == ["light", "normal"])
        #expect(resolver.allInputs().count == 6, "3 x 2 resolutions")

        let light = resolver.tokens(for: try resolver.inputs([:]))
        #expect(light.problems.isEmpty, "\(light.problems)")
        #expect(light[TokenPath(dotted: "color.bg")]?.value["components"] == .array([.int(1), .int(1), .int(1)]))
        #expect(light[TokenPath(dotted: "space.small")]?.value["value"] == .int(4))
        #expect(light[TokenPath(dotted: "brand.ratio")]?.value == .double(1.5), "inline tokens of an inline set")
        #expect(light[TokenPath(dotted: "color.fg")] == nil)

        let dark = resolver.tokens(for: try resolver.inputs(["theme": "darkHigh", "size": "large"]))
        #expect(dark[TokenPath(dotted: "color.bg")]?.value["components"] == .array([.int(0), .int(0), .int(0)]))
        #expect(dark[TokenPath(dotted: "color.fg")] != nil && dark[TokenPath(dotted: "space.small")]?.value["value"] == .int(8))
        #expect(dark[TokenPath(dotted: "space.small")]?.location == TokenLocation(file: "size/large.json", pointer: "/space/small"))
    }

    @Test("an unknown modifier or context is refused, listing the valid ones")
    func unknownInputs() throws {
        let resolver = try TokenResolver(document: Self.document, path: "tokens.resolver.json", read: Self.read)
        #expect { try resolver.inputs(["mode": "dark"]) } throws: { "\($0)".contains("the modifiers are theme, size") }
        #expect { try resolver.inputs(["theme": "sepia"]) } throws: { "\($0)".contains("its contexts are light, dark, darkHigh") }
    }

    @Test("documents that cannot be used are refused with the place and the reason")
    func invalidDocuments() {
        let cases: [(String, String, String)] = [
            (##"{"resolutionOrder": []}"##, "/version", "version must be \"2025.10\""),
            (##"{"version": "2025.10"}"##, "/resolutionOrder", "resolutionOrder (an array) is required"),
            (##"{"version": "2025.10", "resolutionOrder": [{"$ref": "#/sets/none"}]}"##, "/resolutionOrder/0", "is not a set or modifier"),
            (##"{"version": "2025.10", "resolutionOrder": [{"type": "set", "sources": []}]}"##, "/resolutionOrder/0", "needs a name and a type"),
            (##"{"version": "2025.10", "resolutionOrder": [{"type": "set", "name": "a", "sources": []}, {"type": "set", "name": "a", "sources": []}]}"##,
             "/resolutionOrder/1", "appears twice"),
            (##"{"version": "2025.10", "modifiers": {"m": {"contexts": {}}}, "resolutionOrder": [{"$ref": "#/modifiers/m"}]}"##, "/modifiers/m/contexts",
             "at least one context"),
            (##"{"version": "2025.10", "modifiers": {"m": {"contexts": {"a": []}, "default": "b"}}, "resolutionOrder": [{"$ref": "#/modifiers/m"}]}"##,
             "/modifiers/m/default", "default must be one of its contexts (a)"),
            (##"{"version": "2025.10", "sets": {"s": {"sources": [{"$ref": "#/modifiers/m"}]}}, "modifiers": {"m": {"contexts": {"a": []}}}, "resolutionOrder": [{"$ref": "#/sets/s"}]}"##,
             "/sets/s/sources/0", "may not point at a modifier"),
            (##"{"version": "2025.10", "sets": {"s": {"sources": [{"$ref": "#/sets/s"}]}}, "resolutionOrder": [{"$ref": "#/sets/s"}]}"##,
             "/sets/s/sources/0", "refers to itself"),
            (##"{"version": "2025.10", "sets": {"s": {"sources": [{"$ref": "../outside.json"}]}}, "resolutionOrder": [{"$ref": "#/sets/s"}]}"##,
             "/sets/s/sources/0", "no file ../outside.json in the theme"),
        ]
        for (text, pointer, words) in cases {
            #expect(throws: TokenResolver.Invalid.self) { try TokenResolver(document: Self.json(text), path: "r.resolver.json", read: Self.read) }
            do {
                _ = try TokenResolver(document: Self.json(text), path: "r.resolver.json", read: Self.read)
            } catch {
                #expect(error.location.pointer == pointer && error.reason.contains(words), "\(text): \(error)")
            }
        }
    }

    @Test("without a resolver, the token files merge in path order")
    func implicit() {
        let resolver = TokenResolver(files: [("a.tokens.json", Self.files["theme/light.json"] ?? .null), ("b.tokens.json", Self.files["theme/dark.json"] ?? .null)])
        #expect(resolver.modifiers.isEmpty)
        let tokens = resolver.tokens(for: [:])
        #expect(tokens[TokenPath(dotted: "color.bg")]?.value["components"] == .array([.int(0), .int(0), .int(0)]))
        #expect(tokens[TokenPath(dotted: "color.bg")]?.location.file == "b.tokens.json")
    }
}
