import Foundation
import Testing
import ThemeVocabulary

/// Every colour space of the Color module converted to sRGB and Display P3 (gamut mapped as
/// CSS Color 4 does) and compared with coloraide, a reference outside our code
/// (scripts/check-colors.py; `make test` installs it).
@Suite("colour conversions")
struct ColorConversionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let hasColoraide: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import coloraide"]
        (process.standardOutput, process.standardError) = (FileHandle.nullDevice, FileHandle.nullDevice)
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Ranges that cover each space's gamut and some way past sRGB's.
    static let ranges: [CSSColor.Space: [ClosedRange<Double>]] = [
        .srgb: [0...1, 0...1, 0...1], .srgbLinear: [0...1, 0...1, 0...1], .displayP3: [0...1, 0...1, 0...1],
        .a98RGB: [0...1, 0...1, 0...1], .prophotoRGB: [0...1, 0...1, 0...1], .rec2020: [0...1, 0...1, 0...1],
        .hsl: [0...360, 0...100, 0...100], .hwb: [0...360, 0...60, 0...60], .lab: [0...100, -125...125, -125...125],
        .lch: [0...100, 0...150, 0...360], .oklab: [0...1, -0.4...0.4, -0.4...0.4], .oklch: [0...1, 0...0.4, 0...360],
        .xyzD65: [0...0.95, 0...1, 0...1.08], .xyzD50: [0...0.96, 0...1, 0...0.82],
    ]

    @Test("the 14 spaces against coloraide: in gamut exactly, out of gamut mapped within the search's step", .enabled(if: hasColoraide, "coloraide is not installed (pip install coloraide; make test installs it)"))
    func againstColoraide() throws {
        var generator = SeededGenerator(seed: 42)
        var samples: [[String: Any]] = []
        for space in CSSColor.Space.allCases {
            for index in 0..<40 {
                var components: [Double?] = (Self.ranges[space] ?? []).map { Double.random(in: $0, using: &generator) }
                if index == 0 { components[space == .hsl || space == .hwb || space == .lch || space == .oklch ? 2 : 0] = nil }
                let color = CSSColor(space: space, components: components)
                samples.append(["space": space.rawValue, "components": components.map { $0.map { $0 as Any } ?? NSNull() },
                                "srgb": Array(color.sRGB.components.prefix(3)), "p3": Array(color.displayP3.components.prefix(3))])
            }
        }
        let file = NSTemporaryDirectory() + "themed-colors-\(UUID().uuidString.prefix(8)).json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try JSONSerialization.data(withJSONObject: samples).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.root.appendingPathComponent("scripts/check-colors.py").path, file]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("colors: \(samples.count * 2) passed, 0 failed"), "\(text)")
    }

    @Test("known values: white and black, a P3 red outside sRGB, none as zero, alpha kept")
    func knownValues() {
        #expect(CSSColor(space: .oklch, components: [1, 0, 0]).sRGB.hex == "#FFFFFFFF")
        #expect(CSSColor(space: .lab, components: [0, 0, 0]).sRGB.hex == "#000000FF")
        let p3Red = CSSColor(space: .displayP3, components: [1, 0, 0], alpha: 0.5)
        #expect(!p3Red.isInSRGB && p3Red.displayP3.components.elementsEqual([1, 0, 0, 0.5]) { abs($0 - $1) < 1e-9 })
        #expect(p3Red.sRGB.components.allSatisfy { (0...1).contains($0) }, "mapped into sRGB")
        #expect(CSSColor(space: .hsl, components: [nil, 0, 50]).sRGB.hex == "#808080FF", "a none hue is 0: a gray")
        #expect(CSSColor(space: .srgb, components: [0.2, 0.4, 0.6]).sRGB.components.prefix(3).elementsEqual([0.2, 0.4, 0.6]) { abs($0 - $1) < 1e-9 })
    }
}

/// The same text read by coloraide (a CSS Color 4 implementation outside our code), where it is installed.
@Suite("CSS colour text against coloraide")
struct CSSColorTextReferenceTests {
    static let samples = [
        "rgba(12, 200, 99, .3)", "rgb(10% 20% 30% / 0.4)", "hsl(200 40% 60%)", "hsla(330, 80%, 45%, 0.75)", "hsl(-30deg 50% 50%)",
        "hwb(200 20% 30%)", "lab(52% 30 -40)", "lch(60% 40 120)", "oklab(0.6 0.05 -0.08)", "oklch(0.7 0.12 40)", "color(display-p3 0.2 0.5 0.7)",
        "color(rec2020 0.3 0.4 0.5)", "color(xyz-d50 0.2 0.3 0.25)", "rebeccapurple", "#c0ffee", "hsl(0.25turn 60% 40%)",
    ]

    @Test("each sample's sRGB components within 1e-4 of coloraide's (in gamut), or both out of gamut", .enabled(if: ColorConversionTests.hasColoraide, "coloraide is not installed (pip install coloraide; make test installs it)"))
    func againstColoraide() throws {
        let script = """
        import json, sys
        from coloraide import Color
        out = []
        for text in json.load(sys.stdin):
            c = Color(text).convert('srgb')
            out.append({'coords': [0 if v != v else v for v in c.coords()], 'alpha': c.alpha(), 'inGamut': c.in_gamut()})
        print(json.dumps(out))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe()
        (process.standardInput, process.standardOutput) = (input, output)
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: Self.samples))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let reference = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(reference.count == Self.samples.count)
        for (text, expected) in zip(Self.samples, reference) {
            guard let color = CSSColor(css: text) else { Issue.record("\(text) not read"); continue }
            let coords = expected["coords"] as? [Double] ?? []
            #expect(abs(color.alpha - (expected["alpha"] as? Double ?? -1)) < 1e-9, "\(text) alpha")
            guard expected["inGamut"] as? Bool == true else { #expect(!color.isInSRGB, "\(text): out of sRGB for both"); continue }
            let ours = Array(color.sRGB.components.prefix(3))
            #expect(zip(ours, coords).allSatisfy { abs($0 - $1) < 1e-4 }, "\(text): \(ours) against \(coords)")
        }
    }
}

/// SplitMix64: the same samples on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
