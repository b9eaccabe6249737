import Foundation
import Testing
import TestSupport
@testable import ThemeIndex

/// The worked examples of ../shared/docs/lookup-rules.md 7.1 and 7.4, each a theme built on disk,
/// indexed into SQLite and queried: the expected variant, or a miss.
@Suite("lookup rules")
struct LookupRulesTests {
    struct Example: CustomTestStringConvertible, Sendable {
        var id: String
        var request: TraitRequest
        var kind: AssetKind = .image
        /// Contents.json entries (images) or (appearance, extra) pairs for colours.
        var variants: [[String: String]]
        /// Index into `variants`, or nil for a miss.
        var expected: Int?
        var testDescription: String { id }
    }

    static func request(_ idiom: Int = 0, _ scale: Int = 1, _ appearance: String = "light", highContrast: Bool = false,
                        gamut: Int = 0, horizontal: Int = 0, vertical: Int = 0, subtype: Int = 0) -> TraitRequest {
        var request = TraitRequest()
        request.idiom = idiom
        request.scale = scale
        request.appearance = Appearance(name: appearance)
        request.appearance.highContrast = highContrast
        request.gamut = gamut
        request.sizeClassHorizontal = horizontal
        request.sizeClassVertical = vertical
        request.subtype = subtype
        return request
    }

    static let phone = 1, pad = 2, vision = 8

    static let catalogExamples: [Example] = [
        Example(id: "C1 exact scale", request: request(phone, 2), variants: [["scale": "1x"], ["scale": "2x"], ["scale": "3x"]], expected: 1),
        Example(id: "C2 lower scales first", request: request(phone, 3), variants: [["scale": "1x"], ["scale": "2x"]], expected: 1),
        Example(id: "C3 every lower scale before any higher", request: request(phone, 2), variants: [["scale": "1x"], ["scale": "3x"]], expected: 0),
        Example(id: "C4 nearest higher", request: request(phone, 1), variants: [["scale": "2x"], ["scale": "3x"]], expected: 0),
        Example(id: "C5 phone never answers pad", request: request(pad, 2), variants: [["scale": "2x"], ["scale": "2x", "idiom": "iphone"]], expected: 0),
        Example(id: "C6 scale outranks idiom", request: request(pad, 2), variants: [["scale": "2x"], ["scale": "1x", "idiom": "ipad"]], expected: 0),
        Example(id: "C7 scale 1 before scale 3", request: request(pad, 2), variants: [["scale": "1x", "idiom": "ipad"], ["scale": "3x"]], expected: 0),
        Example(id: "C8 universal accepts only universal", request: request(0, 2), variants: [["scale": "2x", "idiom": "iphone"], ["scale": "2x", "idiom": "ipad"]], expected: nil),
        Example(id: "C9 exact appearance", request: request(phone, 2, "dark"), variants: [["scale": "2x"], ["scale": "2x", "appearance": "dark"]], expected: 1),
        Example(id: "C10 light never answers dark", request: request(phone, 2, "dark"), variants: [["scale": "2x"], ["scale": "2x", "appearance": "light"]], expected: 0),
        Example(id: "C11 appearance outranks scale", request: request(phone, 3, "dark"), variants: [["scale": "3x"], ["scale": "1x", "appearance": "dark"]], expected: 1),
        Example(id: "C12 no appearance means light", request: request(phone, 2), variants: [["scale": "2x"], ["scale": "2x", "appearance": "light"], ["scale": "2x", "appearance": "dark"]], expected: 1),
        Example(id: "C13 any accepts only any", request: request(phone, 2, "any"), variants: [["scale": "2x", "appearance": "light"], ["scale": "2x", "appearance": "dark"]], expected: nil),
        Example(id: "C14 dark+hc chain", request: request(phone, 2, "dark", highContrast: true), variants: [[:], ["appearance": "dark"], ["appearance": "high"]], expected: 1),
        Example(id: "C15 high contrast before plain any", request: request(phone, 2, "dark", highContrast: true), variants: [[:], ["appearance": "high"]], expected: 1),
        Example(id: "C16 dark never answers light", request: request(phone, 2, "light", highContrast: true), variants: [[:], ["appearance": "dark+high"], ["appearance": "light"]], expected: 2),
        Example(id: "C18 vision ignores luminosity", request: request(vision, 2, "dark"), variants: [[:], ["appearance": "dark"]], expected: 0),
        Example(id: "C22 gamut outranks idiom", request: request(pad, 2, gamut: 1), variants: [["scale": "2x", "idiom": "ipad"], ["scale": "2x", "display-gamut": "display-P3"]], expected: 1),
        Example(id: "C23 size-class chain", request: request(phone, 2, horizontal: 1, vertical: 2),
                variants: [["scale": "2x"], ["scale": "2x", "width-class": "compact"], ["scale": "2x", "height-class": "regular"]], expected: 1),
        Example(id: "C24 idiom outranks size class", request: request(pad, 2, horizontal: 2, vertical: 2),
                variants: [["scale": "2x", "idiom": "ipad"], ["scale": "2x", "width-class": "regular", "height-class": "regular"]], expected: 0),
        Example(id: "C25 subtype outranks scale", request: request(phone, 3, subtype: 2436), variants: [["scale": "3x"], ["scale": "2x", "idiom": "iphone", "subtype": "2436h"]], expected: 1),
        Example(id: "C26 retina4 is 568", request: request(phone, 2, subtype: 568), variants: [["scale": "2x", "idiom": "iphone", "subtype": "retina4"], ["scale": "2x", "idiom": "iphone"]], expected: 0),
        Example(id: "C33 explicit scales before scale-less", request: request(phone, 2), variants: [[:], ["scale": "1x"]], expected: 1),
        Example(id: "C34 scale-less as last resort", request: request(phone, 2), variants: [[:]], expected: 0),
    ]

    static func with(_ request: TraitRequest, _ change: (inout TraitRequest) -> Void) -> TraitRequest {
        var copy = request
        change(&copy)
        return copy
    }

    static let mac = 7

    static let moreExamples: [Example] = [
        Example(id: "C17 macOS names follow the same chain", request: request(mac, 2, "NSAppearanceNameAccessibilityHighContrastDarkAqua"),
                variants: [[:], ["appearance": "dark"]], expected: 1),
        Example(id: "C27 largest memory class not above the request", request: with(request(phone, 2)) { $0.memoryGB = 4 },
                variants: [["memory": "2GB"], [:]], expected: 0),
        Example(id: "C28 never a larger memory class", request: with(request(phone, 2)) { $0.memoryGB = 2 },
                variants: [["memory": "4GB"], [:]], expected: 1),
        Example(id: "C29 the opposite direction before none", request: with(request(phone, 2)) { $0.direction = 5 },
                variants: [["scale": "2x", "language-direction": "left-to-right"]], expected: 0),
        Example(id: "C30 exact direction", request: with(request(phone, 2)) { $0.direction = 5 },
                variants: [["scale": "2x"], ["scale": "2x", "language-direction": "right-to-left"]], expected: 1),
        Example(id: "C31 localization by language code", request: with(request(phone, 2)) { $0.languages = ["fr-CA"] },
                variants: [["scale": "2x"], ["scale": "2x", "locale": "fr"]], expected: 1),
        Example(id: "C32 no matching localization: unlocalized", request: with(request(phone, 2)) { $0.languages = ["ja"] },
                variants: [["scale": "2x"], ["scale": "2x", "locale": "fr"]], expected: 0),
    ]

    static let colorExamples: [Example] = [
        Example(id: "C19 exact gamut", request: request(phone, gamut: 1), kind: .color, variants: [[:], ["display-gamut": "display-P3"]], expected: 1),
        Example(id: "C20 P3 falls back to sRGB", request: request(phone, gamut: 1), kind: .color, variants: [[:]], expected: 0),
        Example(id: "C21 sRGB accepts P3 as last resort", request: request(phone, gamut: 0), kind: .color, variants: [["display-gamut": "display-P3"]], expected: 0),
        Example(id: "C35 colours ignore scale", request: request(phone, 3, "dark"), kind: .color, variants: [["appearance": "dark"], [:]], expected: 0),
    ]

    /// Builds the example's theme, indexes it and resolves `icon`/`tint`.
    func resolve(_ example: Example) throws -> Int? {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        switch example.kind {
        case .color:
            fixtures.colorSet("theme", "tint", example.variants.enumerated().map { index, entry in
                var extra: [String: Any] = entry.filter { $0.key != "appearance" }
                extra["idiom"] = "universal"
                return (entry["appearance"], ["red": "\(index)", "green": "0", "blue": "0", "alpha": "1"], extra)
            })
        default:
            fixtures.imageSet("theme", "icon", example.variants)
        }
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.sync(themesDirectory: fixtures.root)
        let chain = try index.chain(of: "theme", in: try index.themes())
        guard let resolution = try index.resolve(example.kind, named: example.kind == .color ? "tint" : "icon", in: chain, for: example.request) else { return nil }
        if example.kind == .color { return Int(resolution.variant.components[0].rounded()) }
        return Int(resolution.variant.location.split(separator: "-").last?.split(separator: ".").first ?? "")
    }

    @Test("asset catalog examples (7.1)", arguments: catalogExamples + moreExamples + colorExamples)
    func catalogExample(_ example: Example) throws {
        #expect(try resolve(example) == example.expected)
    }
}

/// Themes and inheritance (lookup-rules.md 7.4): the nearest theme with an acceptable variant wins.
@Suite("theme inheritance")
struct InheritanceTests {
    func index(_ build: (ThemeFixtures) -> Void) throws -> (ThemeIndex, ThemeFixtures) {
        let fixtures = ThemeFixtures()
        build(fixtures)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        try index.sync(themesDirectory: fixtures.root)
        return (index, fixtures)
    }

    func resolveColor(_ index: ThemeIndex, _ name: String, appearance: String = "light") throws -> (theme: String, red: Double)? {
        let chain = try index.chain(of: "child", in: try index.themes())
        var request = TraitRequest()
        request.appearance = Appearance(name: appearance)
        return try index.resolve(.color, named: name, in: chain, for: request).map { ($0.theme, $0.variant.components[0]) }
    }

    @Test("T1 the child owns a name it defines; T3 a miss falls through to the parent")
    func childOwnsName() throws {
        let (index, fixtures) = try index { f in
            f.write("{\"parent\": \"base\"}", to: "child/theme.json")
            f.colorSet("child", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
            f.colorSet("base", "primary", [(nil, ["red": "0", "green": "0", "blue": "0"], [:]), ("dark", ["red": "0.5", "green": "0", "blue": "0"], [:])])
            f.colorSet("base", "accent", [(nil, ["red": "0.25", "green": "0", "blue": "0"], [:])])
        }
        defer { fixtures.remove() }
        #expect(try resolveColor(index, "primary")?.theme == "child")
        #expect(try resolveColor(index, "accent")?.theme == "base")
        #expect(try resolveColor(index, "missing") == nil)
    }

    @Test("T2 a child with only dark variants still inherits the light answer")
    func darkOnlyChild() throws {
        let (index, fixtures) = try index { f in
            f.write("{\"parent\": \"base\"}", to: "child/theme.json")
            f.colorSet("child", "primary", [("dark", ["red": "1", "green": "0", "blue": "0"], [:])])
            f.colorSet("base", "primary", [(nil, ["red": "0", "green": "0", "blue": "0"], [:])])
        }
        defer { fixtures.remove() }
        #expect(try resolveColor(index, "primary")?.theme == "base")
        #expect(try resolveColor(index, "primary", appearance: "dark")?.theme == "child")
    }

    @Test("T4 the nearest theme wins even with a worse scale")
    func nearestThemeWins() throws {
        let (index, fixtures) = try index { f in
            f.write("{\"parent\": \"base\"}", to: "child/theme.json")
            f.imageSet("child", "icon", [["scale": "1x"]])
            f.imageSet("base", "icon", [["scale": "2x"]])
        }
        defer { fixtures.remove() }
        let chain = try index.chain(of: "child", in: try index.themes())
        var request = TraitRequest()
        request.scale = 2
        let resolution = try #require(try index.resolve(.image, named: "icon", in: chain, for: request))
        #expect(resolution.theme == "child")
        #expect(resolution.fallbacks == ["appearance:any", "scale:1"])
    }

    @Test("T7 a parent cycle or a missing parent is an error for that theme only")
    func brokenChains() throws {
        let (index, fixtures) = try index { f in
            f.write("{\"parent\": \"base\"}", to: "child/theme.json")
            f.write("{\"parent\": \"child\"}", to: "base/theme.json")
            f.write("{\"parent\": \"nowhere\"}", to: "orphan/theme.json")
            f.colorSet("fine", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        }
        defer { fixtures.remove() }
        let themes = try index.themes()
        #expect(throws: ThemeError.self) { try index.chain(of: "child", in: themes) }
        #expect(throws: ThemeError.self) { try index.chain(of: "orphan", in: themes) }
        #expect(try index.chain(of: "fine", in: themes).map(\.name) == ["fine"])
    }
}
