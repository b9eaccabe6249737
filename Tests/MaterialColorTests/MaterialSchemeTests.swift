import Foundation
import MaterialColor
import TestSupport
import Testing
import ThemeVocabulary

/// Material 3 roles from seeds, against material-color-utilities as PyPI `materialyoucolor`
/// 3.0.4 computes them with spec "2021" (scripts/material-reference.py; `make test` installs it).
@Suite("Material 3 schemes")
struct MaterialSchemeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Primaries and their mixes, greys and the ends of the tone scale, yellows (whose tone 99 is
    /// an average), dark yellow-greens (which Material lightens), and design systems' brand colours.
    static let seeds = ["#6750A4", "#FF0000", "#00FF00", "#0000FF", "#FFFF00", "#00FFFF", "#FF00FF", "#000000", "#FFFFFF", "#808080",
                        "#FAFAFA", "#0B0B0B", "#6B6B00", "#8A8F2B", "#B3261E", "#4285F4", "#FF9800", "#795548", "#E91E63", "#009688",
                        "#CDDC39", "#000080", "#123456", "#F2E6A0"]

    @Test("every role of 24 seeds x 9 variants x light and dark x contrast 0, 0.5 and 1 equals the reference's 8-bit ARGB",
          .needsPython(["materialyoucolor"]))
    func againstReference() throws {
        let script = Self.root.appendingPathComponent("scripts/material-reference.py").path
        let (status, output) = try ReferenceTools.run([script, "0,0.5,1"] + Self.seeds)
        try #require(status == 0, "\(output.prefix(2000))")
        var (schemes, roles, differences) = (0, 0, [String]())
        for line in output.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let seed = try #require(object["seed"] as? String), name = try #require(object["variant"] as? String)
            let dark = try #require(object["dark"] as? Bool), level = try #require(object["contrast"] as? Double)
            let expected = try #require(object["roles"] as? [String: String])
            let variant = try #require(MaterialVariant(rawValue: name))
            let argb = try #require(UInt32(seed.dropFirst(), radix: 16)) | 0xFF00_0000
            let scheme = MaterialScheme(source: Hct(argb: argb), variant: variant, isDark: dark, contrastLevel: level)
            let ours = Dictionary(uniqueKeysWithValues: scheme.roles.map { ($0.name, $0.argb) })
            #expect(Set(ours.keys) == Set(expected.keys), "\(seed) \(name): roles \(Set(ours.keys).symmetricDifference(expected.keys))")
            for (role, hex) in expected {
                roles += 1
                let mine = ours[role].map { String(format: "#%08X", $0) } ?? "none"
                if mine != hex { differences.append("\(seed) \(name) \(dark ? "dark" : "light") \(level) \(role): \(mine), reference \(hex)") }
            }
            schemes += 1
        }
        #expect(schemes == Self.seeds.count * 9 * 2 * 3)
        #expect(roles == schemes * 49)
        #expect(differences.isEmpty, "\(differences.count) of \(roles) roles differ: \(differences.prefix(20).joined(separator: "; "))")
    }

    @Test("HCT: a colour's hue, chroma and tone, and the colour solved back from them")
    func hct() {
        let purple = Hct(argb: 0xFF67_50A4)
        #expect(abs(purple.hue - 298.98) < 0.01 && abs(purple.chroma - 47.86) < 0.01 && abs(purple.tone - 40.08) < 0.01, "\(purple)")
        #expect(Hct(hue: purple.hue, chroma: purple.chroma, tone: purple.tone).argb == purple.argb, "in gamut: the same colour back")
        let white = Hct(argb: 0xFFFF_FFFF), black = Hct(argb: 0xFF00_0000)
        #expect(abs(white.tone - 100) < 0.001 && white.chroma < 3 && black.tone == 0)
        // Beyond sRGB's gamut the solver keeps hue and tone and gives up chroma.
        let vivid = Hct(hue: 140, chroma: 200, tone: 60)
        #expect(vivid.hex == "#31A700" && abs(vivid.tone - 60) < 0.5 && vivid.chroma < 81 && abs(vivid.hue - 140) < 0.1, "\(vivid)")
        #expect(Hct(argb: 0xFF12_3456).hex == "#123456")
    }
}
