import Foundation
import JSON
import Testing
@testable import ThemeExport
import TestSupport
import ThemeVocabulary

/// WCAG 2.1 contrast as coloraide computes it (a reference outside our code; `make test`
/// installs it), and the report of a theme's pairs in every mode.
@Suite("contrast")
struct ContrastTests {
    /// A fixed sequence, the same on every run.
    struct Sequence {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    @Test("600 pairs (sRGB and Display P3, translucent text) equal coloraide's WCAG 2.1 ratio within 0.01",
          .enabled(if: ReferenceTools.pythonUnavailableReason(modules: ["coloraide"]) == nil, "coloraide is not installed (pip install coloraide; make test installs it)"))
    func againstColoraide() throws {
        var random = Sequence(state: 53)
        var pairs: [[String: Any]] = []
        for index in 0..<600 {
            let space: ColorSpace = index % 4 == 3 ? .displayP3 : .sRGB
            let alpha = index % 3 == 0 ? 0.3 + random.next() * 0.7 : 1
            let text = ColorValue(colorSpace: space, components: [random.next(), random.next(), random.next(), alpha])
            let background = ColorValue(colorSpace: space, components: [random.next(), random.next(), random.next(), 1])
            pairs.append(["space": space == .displayP3 ? "display-p3" : "srgb", "text": text.components, "background": background.components,
                          "ratio": text.contrastRatio(over: background)])
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("contrast-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try JSONSerialization.data(withJSONObject: pairs).write(to: input)
        let script = """
        import json, sys
        from coloraide import Color
        worst = 0
        for p in json.load(open(sys.argv[1])):
            text = Color(p["space"], p["text"][:3], p["text"][3])
            background = Color(p["space"], p["background"][:3])
            ratio = Color.layer([text, background], space="srgb" if p["space"] == "srgb" else p["space"]).contrast(background, method="wcag21")
            worst = max(worst, abs(ratio - p["ratio"]))
        print(worst)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, input.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let worst = try #require(Double(output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(output)")
        #expect(worst <= 0.01, "largest difference from coloraide: \(worst)")
    }

    @Test("black on white is 21, a colour on itself 1, and the order of the two does not matter for opaque ones")
    func bounds() {
        let black = ColorValue(colorSpace: .sRGB, components: [0, 0, 0, 1]), white = ColorValue(colorSpace: .sRGB, components: [1, 1, 1, 1])
        #expect(abs(black.contrastRatio(over: white) - 21) < 1e-9 && abs(white.contrastRatio(over: black) - 21) < 1e-9)
        #expect(abs(white.contrastRatio(over: white) - 1) < 1e-9)
    }

    @Test("a theme's pairs in every mode: the failures named with mode and ratio, a missing colour said")
    func report() throws {
        func value(_ gray: Double) -> ColorTable.Entry { .init(value: ColorValue(colorSpace: .sRGB, components: [gray, gray, gray, 1]), theme: "t", source: "s") }
        let table = ColorTable(theme: "t", revision: "r", rows: [
            .init(name: "label", values: [.light: value(0.1), .dark: value(0.6)]),
            .init(name: "background", values: [.light: value(1), .dark: value(0.2)]),
        ])
        var settings = ThemeSettings()
        settings.contrastPairs = [.init(foreground: "label", background: "background"), .init(foreground: "label", background: "nowhere", largeText: true)]
        let report = ContrastReport(table: table, settings: settings)
        #expect(report.checks.count == 12)
        #expect(report.checks.first { $0.mode == .light && $0.pair.background == "background" }?.passes == true)
        let dark = try #require(report.checks.first { $0.mode == .dark && $0.pair.background == "background" })
        #expect(!dark.passes && ContrastReport.describe(dark) == "contrast: label over background in dark: 4.43:1, below 4.5", "\(ContrastReport.describe(dark))")
        #expect(report.failures.contains { $0.missing == "nowhere" })
        #expect(try JSONValueEncoder().encode(report)["failures"] == .int(report.failures.count))
        #expect(settings.contrastPairs[1].minimum == 3, "large text needs 3:1")
    }
}
