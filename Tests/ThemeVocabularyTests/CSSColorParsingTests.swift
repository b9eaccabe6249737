import Foundation
import Testing
@testable import ThemeVocabulary

/// CSS Color 4's text forms read as the colour they name, and everything else refused.
@Suite("CSS colour text")
struct CSSColorParsingTests {
    static func hex(_ text: String) -> String? { CSSColor(css: text)?.sRGB.hex }

    @Test("each form names the colour CSS draws", arguments: [
        ("rgba(0,0,0,.12)", "#0000001F"), ("rgb(255 128 0 / 50%)", "#FF800080"), ("rgb(100%, 50%, 0%)", "#FF8000FF"),
        ("hsla(210, 50%, 40%, 0.5)", "#33669980"), ("hsl(120deg 100% 25%)", "#008000FF"), ("hsl(0.5turn 100% 50%)", "#00FFFFFF"),
        ("hwb(0 0% 0%)", "#FF0000FF"), ("#0a66cc80", "#0A66CC80"), ("#FA0", "#FFAA00FF"), ("transparent", "#00000000"),
        ("RebeccaPurple", "#663399FF"), ("mediumpurple", "#9370DBFF"), ("  white ", "#FFFFFFFF"), ("color(srgb 1 0 0)", "#FF0000FF"),
        ("oklch(100% 0 0)", "#FFFFFFFF"), ("lab(0 0 0)", "#000000FF"), ("rgb(300 -5 0)", "#FF0000FF"),
    ])
    func reads(_ text: String, _ expected: String) {
        #expect(Self.hex(text) == expected, "\(text)")
    }

    @Test("the space written is kept: hsl in degrees and percentages, oklch as written, none as none")
    func spaces() {
        let hsl = CSSColor(css: "hsl(210 50% 40% / .5)")
        #expect(hsl?.space == .hsl && hsl?.components == [210, 50, 40] && hsl?.alpha == 0.5)
        let oklch = CSSColor(css: "oklch(70% 0.1 250)")
        #expect(oklch?.space == .oklch && oklch?.components == [0.7, 0.1, 250])
        #expect(CSSColor(css: "hsl(none 0% 50%)")?.components.first == .some(nil))
        #expect(CSSColor(css: "color(display-p3 1 0 0)")?.space == .displayP3)
    }

    @Test("what names no colour is nil", arguments: [
        "", "rgb(1,2)", "rgb(10%, 20, 30)", "hsl(10, 20, 30)", "hsl(none, 50%, 50%)", "currentcolor", "rgb(inf, 0, 0)", "rgb(1e999 0 0)",
        "foo(1 2 3)", "rgb(1 2 3 / 4 / 5)", "color(unknown 1 2 3)", "color(srgb 1 0)", "hwb(0, 0%, 0%)", "#12345", "rgb(1 2 3", "rgb(0x10 0 0)",
        String(repeating: "a", count: 300), "lab(50%, 40, -20)", "reddish",
    ])
    func refuses(_ text: String) {
        #expect(CSSColor(css: text) == nil, "\(text)")
    }

    @Test("the named colours are CSS Color 4's 148, each a hex of six digits")
    func namedTable() {
        #expect(CSSColor.namedColors.count == 148, "transparent is beside them")
        #expect(CSSColor.namedColors.values.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isHexDigit) })
    }
}
