import Foundation
import JSON
import Testing
import ThemeExport
import ThemeIndex
import ThemeVocabulary

@Suite("export names")
struct ExportNameTests {
    @Test("one rule, spelled for each format", arguments: [
        ("Scene/Onboarding/tint", "--scene-onboarding-tint", "scene_onboarding_tint", "sceneOnboardingTint"),
        ("primaryTint", "--primary-tint", "primary_tint", "primaryTint"),
        ("HTMLColor", "--html-color", "html_color", "htmlColor"),
        ("gray 500", "--gray-500", "gray_500", "gray500"),
        ("500", "--500", "color_500", "color500"),
        ("class", "--class", "color_class", "class"),
        ("主色", "--color", "color_", "color"),
        ("space.1_5x", "--space-1-5x", "space_1_5x", "space1_5x"),
        ("space.15x", "--space-15x", "space_15x", "space15x"),
    ])
    func rule(name: String, css: String, android: String, swift: String) {
        #expect(NameStyle.cssCustomProperty.exportName(for: name) == css)
        #expect(NameStyle.androidResource.exportName(for: name) == android)
        #expect(NameStyle.swiftIdentifier.exportName(for: name) == swift)
    }

    @Test("design tokens keep the name but for the characters DTCG reserves")
    func tokenNames() {
        #expect(NameStyle.designToken.exportName(for: "Scene/Onboarding/tint") == "Scene/Onboarding/tint")
        #expect(NameStyle.designToken.exportName(for: "a.b{c}") == "a-b-c-")
        #expect(NameStyle.designToken.exportName(for: "$x$") == "-x$")
    }

    @Test("names that collide are numbered in name order and reported; a real `a-b-2` keeps its name")
    func collisions() {
        let names = ExportNames(["a-b", "a-b-2", "a.b", "a_b"], style: .cssCustomProperty)
        #expect(names["a-b"] == "--a-b")
        #expect(names["a-b-2"] == "--a-b-2")
        #expect(names["a.b"] == "--a-b-3")
        #expect(names["a_b"] == "--a-b-4")
        #expect(names.collisions == [ExportNames.Collision(exportName: "--a-b", names: ["a-b", "a.b", "a_b"], renamedTo: ["--a-b-3", "--a-b-4"])])
        #expect(names.report.count == 1)
        #expect(ExportNames(["x", "y"], style: .androidResource).collisions.isEmpty)
    }
}

@Suite("exports")
struct ExportTests {
    static func color(_ red: Double, _ space: ColorSpace = .sRGB) -> ColorValue {
        ColorValue(colorSpace: space, components: [red, 0.5, 0.25, 1])
    }

    static func row(_ name: String, _ values: [ColorMode: ColorValue]) -> ColorTable.Row {
        ColorTable.Row(name: name, values: values.mapValues { ColorTable.Entry(value: $0, theme: "t", source: "t/Theme.xcassets") })
    }

    static let table = ColorTable(theme: "brand", revision: "r1", rows: [
        row("primary", [.light: color(0.1), .dark: color(0.9), .lightHighContrast: color(0), .darkHighContrast: color(1),
                        .lightP3: color(0.1), .darkP3: color(0.9)]),
        row("accent", [.light: color(1), .dark: color(1), .lightHighContrast: color(1), .darkHighContrast: color(1),
                       .lightP3: color(1, .displayP3), .darkP3: color(1, .displayP3)]),
        row("Night/only", [.dark: color(0.2), .darkHighContrast: color(0.2), .darkP3: color(0.2)]),
    ], systemColors: ["labelColor"])

    @Test("CSS: light on :root, dark under the media query and data-theme, P3 and high contrast only where they differ")
    func css() {
        let text = CSSExport(Self.table).text
        #expect(text.contains(":root {\n  --primary: rgb(26 128 64 / 1);\n  --accent: rgb(255 128 64 / 1);\n}\n"))
        #expect(text.contains("@media (prefers-color-scheme: dark) {\n  :root {\n    --primary: rgb(230 128 64 / 1);"))
        #expect(text.contains("[data-theme=\"dark\"] {\n  --primary: rgb(230 128 64 / 1);\n  --accent: rgb(255 128 64 / 1);\n  --night-only: rgb(51 128 64 / 1);\n}"))
        #expect(text.contains("@media (color-gamut: p3) {\n  :root {\n    --accent: color(display-p3 1 0.5 0.25 / 1);\n  }"))
        #expect(text.contains("@media (prefers-contrast: more) {\n  :root {\n    --primary: rgb(0 128 64 / 1);"))
        #expect(!text.contains("@media (color-gamut: p3) {\n  :root {\n    --primary"), "primary is the same on P3 screens")
        #expect(text.contains(" * No value in light: \"Night/only\""))
        #expect(text.contains(" * System colours, not exported: \"labelColor\""))
        #expect(text.range(of: "(prefers-contrast: more)")!.lowerBound > text.range(of: "(color-gamut: p3)")!.lowerBound,
                "high contrast comes last, so it wins on a wide-gamut screen")
    }

    static func token(_ path: String, _ type: String, _ json: String, dark: String? = nil, aliasOf: String? = nil) throws -> TokenTable.Row {
        let value = try JSONParser.parse(Array(json.utf8))
        var values = Dictionary(uniqueKeysWithValues: ColorMode.all.map { ($0, value) })
        if let dark { for mode in ColorMode.all where mode.scheme == .dark { values[mode] = try JSONParser.parse(Array(dark.utf8)) } }
        return TokenTable.Row(path: path, type: type, values: values, aliasOf: aliasOf)
    }

    @Test("CSS: the other design tokens as custom properties by type, typography as classes, dark only where it differs")
    func cssTokens() throws {
        let tokens = TokenTable(rows: [
            try Self.token("space.sm", "dimension", #"{"value": 4, "unit": "px"}"#),
            try Self.token("space.lg", "dimension", #"{"value": 1.5, "unit": "rem"}"#, dark: #"{"value": 2, "unit": "rem"}"#),
            try Self.token("space.gap", "dimension", #"{"value": 4, "unit": "px"}"#, aliasOf: "space.sm"),
            try Self.token("motion.ease", "cubicBezier", "[0.2, 0, 0, 1]"),
            try Self.token("motion.fade", "transition", #"{"duration": {"value": 150, "unit": "ms"}, "delay": {"value": 0, "unit": "ms"}, "timingFunction": [0.2, 0, 0, 1]}"#),
            try Self.token("font.body", "fontFamily", #"["Inter", "Helvetica Neue", "sans-serif"]"#),
            try Self.token("font.semibold", "fontWeight", #""semi-bold""#),
            try Self.token("line.card", "border", #"{"color": {"colorSpace": "srgb", "components": [0, 0, 0], "alpha": 1}, "width": {"value": 1, "unit": "px"}, "style": "solid"}"#),
            try Self.token("line.dashes", "strokeStyle", #"{"dashArray": [{"value": 2, "unit": "px"}], "lineCap": "round"}"#),
            try Self.token("shadow.two", "shadow", #"""
                [{"color": {"colorSpace": "srgb", "components": [0, 0, 0], "alpha": 0.5}, "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 1, "unit": "px"},
                  "blur": {"value": 2, "unit": "px"}, "spread": {"value": 0, "unit": "px"}, "inset": true},
                 {"color": {"colorSpace": "display-p3", "components": [1, 0, 0], "alpha": 1}, "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 8, "unit": "px"},
                  "blur": {"value": 16, "unit": "px"}, "spread": {"value": -4, "unit": "px"}}]
                """#),
            try Self.token("type.body", "typography", #"{"fontFamily": ["Inter", "sans-serif"], "fontSize": {"value": 16, "unit": "px"}, "fontWeight": 400, "letterSpacing": {"value": 0.5, "unit": "px"}, "lineHeight": 1.5}"#,
                           dark: #"{"fontFamily": ["Inter", "sans-serif"], "fontSize": {"value": 17, "unit": "px"}, "fontWeight": 400, "letterSpacing": {"value": 0.5, "unit": "px"}, "lineHeight": 1.5}"#),
            try Self.token("type.label", "typography", #"{"fontWeight": 600, "lineHeight": 1.2}"#),
        ])
        let text = CSSExport(Self.table, tokens: tokens).text
        #expect(text.contains("""
            :root {
              --primary: rgb(26 128 64 / 1);
              --accent: rgb(255 128 64 / 1);
              --space-sm: 4px;
              --space-lg: 1.5rem;
              --space-gap: 4px;
              --motion-ease: cubic-bezier(0.2, 0, 0, 1);
              --motion-fade: 150ms cubic-bezier(0.2, 0, 0, 1) 0ms;
              --font-body: Inter, "Helvetica Neue", sans-serif;
              --font-semibold: 600;
              --line-card: 1px solid rgb(0 0 0 / 1);
              --shadow-two: inset 0px 1px 2px 0px rgb(0 0 0 / 0.5), 0px 8px 16px -4px color(display-p3 1 0 0 / 1);
              --type-body: 400 16px/1.5 Inter, sans-serif;
            }

            """), "\(text)")
        // Dark restates the colours, and of the other tokens only those that differ.
        #expect(text.contains("[data-theme=\"dark\"] {\n  --primary: rgb(230 128 64 / 1);\n  --accent: rgb(255 128 64 / 1);\n  --night-only: rgb(51 128 64 / 1);\n  --space-lg: 2rem;\n  --type-body: 400 17px/1.5 Inter, sans-serif;\n}"))
        #expect(text.contains(".type-body {\n  font: 400 16px/1.5 Inter, sans-serif;\n  letter-spacing: 0.5px;\n}\n"))
        #expect(text.contains(".type-label {\n  font-weight: 600;\n  line-height: 1.2;\n}\n"), "no size or family: no font shorthand")
        #expect(text.contains("@media (prefers-color-scheme: dark) {\n  .type-body {\n    font: 400 17px/1.5 Inter, sans-serif;"))
        #expect(text.contains("[data-theme=\"dark\"] .type-body {\n  font: 400 17px/1.5 Inter, sans-serif;"))
        #expect(text.contains("[data-theme=\"light\"] .type-body {\n  font: 400 16px/1.5 Inter, sans-serif;"))
        #expect(!text.contains("[data-theme=\"dark\"] .type-label"), "the same in dark: no forced rule")
        #expect(!text.contains("--type-label") && !text.contains("--line-dashes"))
        #expect(text.contains(" * Tokens CSS has no value for, not exported: \"line.dashes\""))
        // With references, an alias is the property of the token it names.
        #expect(CSSExport(Self.table, tokens: tokens, references: true).text.contains("  --space-gap: var(--space-sm);\n"))
        #expect(CSSExport(Self.table).text == CSSExport(Self.table, tokens: .empty).text, "a theme without other tokens: the colours alone, as before")
    }

    @Test("Android: dimensions in dp, whole numbers, durations and weights as integers, typography as text appearances; night only what differs")
    func androidTokens() throws {
        let tokens = TokenTable(rows: [
            try Self.token("space.lg", "dimension", #"{"value": 1.5, "unit": "rem"}"#, dark: #"{"value": 2, "unit": "rem"}"#),
            try Self.token("space.em", "dimension", #"{"value": 1, "unit": "em"}"#),
            try Self.token("ratio", "number", "1.618"),
            try Self.token("motion.slow", "duration", #"{"value": 0.5, "unit": "s"}"#),
            try Self.token("font.semibold", "fontWeight", #""semi-bold""#),
            try Self.token("type.body", "typography", #"{"fontFamily": ["Inter", "sans-serif"], "fontSize": {"value": 16, "unit": "px"}, "fontWeight": 400, "letterSpacing": {"value": 0.5, "unit": "px"}, "lineHeight": 1.5}"#),
        ])
        let files = Dictionary(uniqueKeysWithValues: AndroidExport(Self.table, tokens: tokens).files.map { ($0.path, $0.contents) })
        #expect(files.keys.sorted() == ["values-night/colors.xml", "values-night/dimens.xml", "values/colors.xml", "values/dimens.xml",
                                        "values/integers.xml", "values/styles.xml"])
        #expect(files["values/dimens.xml"]?.contains("<dimen name=\"space_lg\">24dp</dimen>") == true)
        #expect(files["values/dimens.xml"]?.contains("<item name=\"ratio\" format=\"float\" type=\"dimen\">1.618</item>") == true)
        #expect(files["values-night/dimens.xml"]?.contains("<dimen name=\"space_lg\">32dp</dimen>") == true)
        #expect(files["values-night/dimens.xml"]?.contains("ratio\"") == false, "the same in dark: values/ has it")
        #expect(files["values/integers.xml"]?.contains("<integer name=\"motion_slow\">500</integer>") == true)
        #expect(files["values/integers.xml"]?.contains("<integer name=\"font_semibold\">600</integer>") == true)
        #expect(files["values/styles.xml"]?.contains("""
                <style name="TextAppearance.Themed.type_body" parent="android:TextAppearance">
                    <item name="android:textSize">16sp</item>
                    <item name="android:textFontWeight">400</item>
                    <item name="android:lineHeight">24sp</item>
                    <item name="android:letterSpacing">0.0313</item>
                    <item name="android:fontFamily">Inter</item>
                </style>
            """) == true, "\(files["values/styles.xml"] ?? "")")
        #expect(files["values/dimens.xml"]?.contains("Not Android resources, not exported: \"space.em\"") == true)
        #expect(AndroidExport(Self.table).files.map(\.path) == ["values/colors.xml", "values-night/colors.xml"], "colours alone, as before")
    }

    @Test("Compose: Dp, Int milliseconds, FontWeight, CubicBezierEasing, TextStyle and Shadow in light and dark objects; what has no type is named")
    func composeTokens() throws {
        let tokens = TokenTable(rows: [
            try Self.token("space.lg", "dimension", #"{"value": 1.5, "unit": "rem"}"#, dark: #"{"value": 2, "unit": "rem"}"#),
            try Self.token("motion.slow", "duration", #"{"value": 0.5, "unit": "s"}"#),
            try Self.token("motion.ease", "cubicBezier", "[0.2, 0, 0, 1]"),
            try Self.token("type.body", "typography", #"{"fontFamily": ["Inter", "sans-serif"], "fontSize": {"value": 16, "unit": "px"}, "fontWeight": "bold", "letterSpacing": {"value": 0.5, "unit": "px"}, "lineHeight": 1.5}"#),
            try Self.token("glow", "shadow", #"{"color": {"colorSpace": "srgb", "components": [1, 0, 0], "alpha": 0.5}, "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 2, "unit": "px"}, "blur": {"value": 4, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}"#),
            try Self.token("line.card", "border", #"{"color": {"colorSpace": "srgb", "components": [0, 0, 0]}, "width": {"value": 1, "unit": "px"}, "style": "solid"}"#),
        ])
        let file = try #require(ComposeTokenExport(tokens, colors: ComposeExport(Self.table)).file)
        #expect(file.path == "BrandTokens.kt")
        #expect(file.contents.contains("package themed.brand\n"))
        let light = try #require(file.contents.components(separatedBy: "object BrandLightTokens {").last?.components(separatedBy: "}\n").first)
        let dark = try #require(file.contents.components(separatedBy: "object BrandDarkTokens {").last)
        #expect(light.contains("    val spaceLg: Dp = 24.dp\n") && dark.contains("    val spaceLg: Dp = 32.dp\n"))
        #expect(light.contains("    val motionSlow: Int = 500\n") && light.contains("    val motionEase: CubicBezierEasing = CubicBezierEasing(0.2f, 0f, 0f, 1f)\n"))
        #expect(light.contains("    val typeBody: TextStyle = TextStyle(fontFamily = FontFamily.SansSerif, fontSize = 16.sp, fontWeight = FontWeight(700), lineHeight = 1.5.em, letterSpacing = 0.5.sp)\n"))
        #expect(light.contains("    val glow: Shadow = Shadow(color = Color(0x80FF0000), offset = Offset(0f, 2f), blurRadius = 4f)\n"))
        #expect(!file.contents.contains("lineCard") && file.contents.contains("// No Compose value type, not exported: \"line.card\""))
        #expect(ComposeTokenExport(.empty, colors: ComposeExport(Self.table)).file == nil, "a theme without such tokens: no file")
    }

    @Test("Swift: a Values of every token for light and dark, in points, seconds and CSS weights; composites as the file's own types")
    func swiftTokens() throws {
        let tokens = TokenTable(rows: [
            try Self.token("space.lg", "dimension", #"{"value": 1.5, "unit": "rem"}"#, dark: #"{"value": 2, "unit": "rem"}"#),
            try Self.token("motion.fast", "duration", #"{"value": 150, "unit": "ms"}"#),
            try Self.token("default", "number", "2"),
            try Self.token("type.body", "typography", #"{"fontFamily": ["Inter", "sans-serif"], "fontSize": {"value": 16, "unit": "px"}, "fontWeight": "bold", "letterSpacing": {"value": 0.5, "unit": "px"}, "lineHeight": 1.5}"#),
            try Self.token("fade", "gradient", #"[{"color": {"colorSpace": "srgb", "components": [0, 0, 0]}, "position": 0}]"#),
        ])
        let file = try #require(SwiftTokenExport(tokens, colors: SwiftExport(Self.table)).file)
        #expect(file.path == "BrandTokens.swift")
        let text = file.contents
        #expect(text.contains("public enum BrandTokens {") && text.contains("        public let `default`: Double\n"))
        let light = try #require(text.components(separatedBy: "public static let light = Values(\n").last?.components(separatedBy: "\n    )").first)
        let dark = try #require(text.components(separatedBy: "public static let dark = Values(\n").last?.components(separatedBy: "\n    )").first)
        #expect(light.contains("        spaceLg: 24,") && dark.contains("        spaceLg: 32,"))
        #expect(light.contains("        motionFast: 0.15,") && light.contains("        default: 2,"), "an argument label needs no backquotes")
        #expect(light.contains("        typeBody: TextStyle(families: [\"Inter\", \"sans-serif\"], size: 16, weight: 700, lineHeight: 24, letterSpacing: 0.5)"))
        #expect(light.contains("        fade: [GradientStop(color: RGBA(0, 0, 0, 1), location: 0)]"), "a gradient is its stops")
        #expect(text.contains("#if canImport(SwiftUI)\nextension BrandTokens.TextStyle {"))
        #expect(SwiftTokenExport(.empty, colors: SwiftExport(Self.table)).file == nil)
    }

    @Test("a letter spacing in em or % is converted (or kept relative) in every format, never 0")
    func relativeLetterSpacing() throws {
        let tokens = TokenTable(rows: [
            try Self.token("type.tight", "typography", #"{"fontFamily": "Inter", "fontSize": {"value": 20, "unit": "px"}, "fontWeight": 400, "letterSpacing": {"value": -0.0088, "unit": "em"}, "lineHeight": 1.2}"#),
            try Self.token("type.wide", "typography", #"{"fontFamily": "Inter", "fontSize": {"value": 10, "unit": "px"}, "fontWeight": 400, "letterSpacing": {"value": 5, "unit": "%"}, "lineHeight": 1.2}"#),
        ])
        let swift = try #require(SwiftTokenExport(tokens, colors: SwiftExport(Self.table)).file?.contents)
        #expect(swift.contains("size: 20, weight: 400, lineHeight: 24, letterSpacing: -0.176)"), "20 pt x -0.0088 em")
        #expect(swift.contains("size: 10, weight: 400, lineHeight: 12, letterSpacing: 0.5)"), "10 pt x 5 %")
        let compose = try #require(ComposeTokenExport(tokens, colors: ComposeExport(Self.table)).file?.contents)
        #expect(compose.contains("letterSpacing = -0.0088.em)") && compose.contains("letterSpacing = 0.05.em)"))
        let styles = try #require(AndroidExport(Self.table, tokens: tokens).files.first { $0.path == "values/styles.xml" }?.contents)
        #expect(styles.contains("<item name=\"android:letterSpacing\">-0.0088</item>") && styles.contains("<item name=\"android:letterSpacing\">0.05</item>"))
        let css = CSSExport(Self.table, tokens: tokens).text
        #expect(css.contains("letter-spacing: -0.0088em;") && css.contains("letter-spacing: 5%;"), "\(css)")
    }

    static let fade = #"[{"color": {"colorSpace": "srgb", "components": [0, 0, 0]}, "position": 0}, {"color": {"colorSpace": "srgb", "components": [1, 1, 1], "alpha": 0.5}, "position": 1}]"#

    @Test("a gradient in every format: linear-gradient() in CSS, a Brush in Compose, a shape drawable on Android, stops in Swift")
    func gradients() throws {
        let tokens = TokenTable(rows: [try Self.token("fade", "gradient", Self.fade)])
        #expect(CSSExport(Self.table, tokens: tokens).text.contains("  --fade: linear-gradient(rgb(0 0 0 / 1) 0%, rgb(255 255 255 / 0.5) 100%);\n"))
        let compose = try #require(ComposeTokenExport(tokens, colors: ComposeExport(Self.table)).file?.contents)
        #expect(compose.contains("    val fade: Brush = Brush.verticalGradient(0f to Color(0xFF000000), 1f to Color(0x80FFFFFF))\n"))
        let drawable = try #require(AndroidExport(Self.table, tokens: tokens).files.first { $0.path == "drawable/fade.xml" }?.contents)
        #expect(drawable.contains(##"<gradient android:type="linear" android:angle="270" android:startColor="#FF000000" android:endColor="#80FFFFFF" />"##))
        let swift = try #require(SwiftTokenExport(tokens, colors: SwiftExport(Self.table)).file?.contents)
        #expect(swift.contains("fade: [GradientStop(color: RGBA(0, 0, 0, 1), location: 0), GradientStop(color: RGBA(1, 1, 1, 0.5), location: 1)]"))
        let four = TokenTable(rows: [try Self.token("bands", "gradient", #"[{"color": {"colorSpace": "srgb", "components": [0, 0, 0]}, "position": 0}, {"color": {"colorSpace": "srgb", "components": [1, 0, 0]}, "position": 0.3}, {"color": {"colorSpace": "srgb", "components": [0, 1, 0]}, "position": 0.6}, {"color": {"colorSpace": "srgb", "components": [0, 0, 1]}, "position": 1}]"#)])
        #expect(!AndroidExport(Self.table, tokens: four).files.contains { $0.path.hasPrefix("drawable") }, "a shape holds three stops at most")
    }

    @Test("CSS with light-dark(): one :root block, color-scheme from the system or data-theme; other tokens restated per scheme")
    func lightDark() throws {
        let tokens = TokenTable(rows: [try Self.token("space.lg", "dimension", #"{"value": 24, "unit": "px"}"#, dark: #"{"value": 32, "unit": "px"}"#)])
        let text = CSSExport(Self.table, tokens: tokens, lightDark: true).text
        let light = Self.color(0.1).css, dark = Self.color(0.9).css
        #expect(text.contains(":root {\n  color-scheme: light dark;\n  --primary: light-dark(\(light), \(dark));\n"), "\(text)")
        #expect(text.contains("[data-theme=\"dark\"] {\n  --night-only: \(Self.color(0.2).css);\n  --space-lg: 32px;\n}\n"), "a colour of dark alone is restated per scheme")
        let root = try #require(text.components(separatedBy: ":root {\n  color-scheme: light dark;\n").last?.components(separatedBy: "}\n").first)
        #expect(!root.contains("--night-only"), "light leaves it unset, as the block-per-scheme form does")
        #expect(text.contains("[data-theme=\"dark\"] {\n  color-scheme: dark;\n}\n"))
        #expect(text.contains("@media (prefers-color-scheme: dark) {\n  :root {\n    --night-only: \(Self.color(0.2).css);\n    --space-lg: 32px;\n  }\n}\n"), "no light-dark() for a length")
        #expect(text.contains("@media (prefers-contrast: more) {\n  :root {\n    --primary: light-dark(\(Self.color(0).css), \(Self.color(1).css));\n"))
        #expect(!text.contains("@media (prefers-color-scheme: dark) {\n  :root {\n    --primary"), "colours are not restated per scheme")
    }

    @Test("Tailwind v4: @theme with namespaced names, the dark scheme as a custom variant and restated variables, typography as --text-*")
    func tailwind() throws {
        let tokens = TokenTable(rows: [
            try Self.token("space.lg", "dimension", #"{"value": 24, "unit": "px"}"#, dark: #"{"value": 32, "unit": "px"}"#),
            try Self.token("radius.md", "dimension", #"{"value": 8, "unit": "px"}"#),
            try Self.token("motion.ease", "cubicBezier", "[0.2, 0, 0, 1]"),
            try Self.token("type.body", "typography", #"{"fontFamily": "Inter", "fontSize": {"value": 16, "unit": "px"}, "fontWeight": 400, "letterSpacing": {"value": 0.5, "unit": "px"}, "lineHeight": 1.5}"#),
        ])
        let file = TailwindExport(Self.table, tokens: tokens).file
        #expect(file.path == "theme.css")
        let text = file.contents
        let theme = try #require(text.components(separatedBy: "@theme {\n").last?.components(separatedBy: "}\n").first)
        #expect(theme.contains("  --color-primary: \(Self.color(0.1).css);\n") && theme.contains("  --spacing-space-lg: 24px;\n"))
        #expect(theme.contains("  --radius-radius-md: 8px;\n") && theme.contains("  --ease-motion-ease: cubic-bezier(0.2, 0, 0, 1);\n"))
        #expect(theme.contains("  --text-type-body: 16px;\n  --text-type-body--line-height: 1.5;\n  --text-type-body--letter-spacing: 0.5px;\n  --text-type-body--font-weight: 400;\n"))
        #expect(text.contains("@custom-variant dark {") && text.contains("@slot;"))
        #expect(text.contains("@media (prefers-color-scheme: dark) {\n  :root {\n    --color-primary: \(Self.color(0.9).css);\n"))
        #expect(TailwindExport(Self.table, prefix: "ds").file.contents.contains("  --color-ds-primary: "))
    }

    @Test("a prefix starts every name in the formats that share a namespace; formats it means nothing to refuse it")
    func prefix() throws {
        #expect(CSSExport(Self.table, prefix: "ds").text.contains("  --ds-primary: "))
        #expect(AndroidExport(Self.table, prefix: "ds").files[0].contents.contains("<color name=\"ds_primary\">"))
        let scss = SCSSExport(Self.table, prefix: "ds").file.contents
        #expect(scss.contains("$ds-colors: (") && scss.contains("@function ds-color($name") && !scss.contains("themed-"))
        #expect(throws: ExportError.badPrefix("1x")) { try ExportOptions(prefix: "1x") }
        #expect(throws: ExportError.badPrefix("a b")) { try ExportOptions(prefix: "a b") }
        #expect(throws: ExportError.optionNotFor("prefix", .swift, ExportFormat.takingPrefix)) { try ExportOptions(prefix: "ds").check(for: .swift) }
        #expect(throws: ExportError.optionNotFor("light-dark", .scss, [.css])) { try ExportOptions(lightDark: true).check(for: .scss) }
    }

    @Test("DTCG: a token theme is written as its tokens are, in groups, an alias as {path}, themed's own note of it dropped")
    func dtcgTokenTheme() throws {
        let document = try JSONParser.parse(Array(##"""
            {"space": {"sm": {"$type": "dimension", "$value": {"value": 4, "unit": "px"}},
                       "gap": {"$type": "dimension", "$value": {"value": 4, "unit": "px"}, "$extensions": {"org.themed": {"aliasOf": ["space.sm"]}}}},
             "ink": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 0]},
                     "$extensions": {"org.themed": {"aliasOf": ["space.sm"], "note": 1}, "com.other": true}}}
            """##.utf8))
        let json = DesignTokensExport(Self.table, mode: .dark, document: document).json
        #expect(json["space"]?["gap"]?.serialized() == #"{"$type":"dimension","$value":"{space.sm}"}"#)
        #expect(json["space"]?["sm"]?["$value"]?["value"] == .int(4))
        #expect(json["ink"]?["$extensions"]?.serialized() == #"{"org.themed":{"note":1},"com.other":true}"#, "other extensions are kept")
        #expect(json["$description"].map { if case .string(let text) = $0 { text.contains("Mode: dark") } else { false } } == true)
        #expect(json["primary"] == nil, "the colours are the document's, not the table's")
    }

    @Test("a name cannot close a comment or a tag early in any format")
    func hostileNames() {
        let hostile = ["x*/ body{color:red} /*", "a--><script>alert(1)</script><!--", "line\nbreak */", "q\"uote"]
        let table = ColorTable(theme: "t*/", revision: "r", rows: hostile.map { Self.row($0, [.light: Self.color(0.5), .dark: Self.color(0.5)]) })
        let css = CSSExport(table).text
        let cssOutsideComments = Self.removingComments(css, open: "/*", close: "*/")
        #expect(!cssOutsideComments.contains("body{") && !cssOutsideComments.contains("*/"), "every comment closes where it was meant to")
        for file in AndroidExport(table).files {
            let outside = Self.removingComments(file.contents, open: "<!--", close: "-->")
            #expect(!outside.contains("<script") && !outside.contains("-->"))
        }
        let swift = SwiftExport(table).text
        #expect(!swift.split(separator: "\n").contains { $0.hasPrefix("break") })
    }

    /// The text with each comment taken out the way a parser ends it: at the first `close`.
    static func removingComments(_ text: String, open: String, close: String) -> String {
        var rest = Substring(text)
        var outside = ""
        while let start = rest.range(of: open) {
            outside += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].range(of: close) else { return outside }
            rest = rest[end.upperBound...]
        }
        return outside + rest
    }

    @Test("every export is the same bytes for the same table, with thousands of colours and each name once")
    func deterministic() {
        let rows = (0..<3000).map { Self.row("Group \($0 % 7)/color.\($0)", [.light: Self.color(Double($0 % 256) / 255), .dark: Self.color(0.5)]) }
        let table = ColorTable(theme: "big", revision: "r", rows: rows)
        for format in ExportFormat.allCases {
            #expect(format.files(for: table) == format.files(for: table), "\(format)")
        }
        let css = CSSExport(table)
        #expect(Set(rows.map { css.names[$0.name] }).count == 3000)
        let light = DesignTokensExport(table, mode: .light).text
        #expect(light.components(separatedBy: "\"$type\" : \"color\"").count - 1 == 3000)
        #expect(AndroidExport(table).files[0].contents.components(separatedBy: "<color name=").count - 1 == 3000)
    }

    @Test("design tokens: one file per mode, the colour module's value, the source as description")
    func tokens() {
        let dark = DesignTokensExport(Self.table, mode: .darkP3).json
        let accent = dark["accent"]
        #expect(accent?["$type"] == "color")
        #expect(accent?["$value"]?["colorSpace"] == "display-p3")
        #expect(accent?["$value"]?["components"] == .array([.double(1), .double(0.5), .double(0.25)]))
        #expect(accent?["$value"]?["alpha"] == .double(1))
        #expect(accent?["$value"]?["hex"] == "#ff8040")
        #expect(accent?["$description"] == "t: t/Theme.xcassets")
        #expect(DesignTokensExport(Self.table, mode: .light).json["Night/only"] == nil)
        #expect(ExportFormat.dtcg.files(for: Self.table).map(\.path) == ColorMode.all.map { "tokens/\($0.name).tokens.json" })
    }

    @Test("Android: #AARRGGBB in values/ and values-night/")
    func android() {
        let files = AndroidExport(Self.table).files
        #expect(files.map(\.path) == ["values/colors.xml", "values-night/colors.xml"])
        #expect(files[0].contents.contains("<color name=\"primary\">#FF1A8040</color>"))
        #expect(files[1].contents.contains("<color name=\"night_only\">#FF338040</color>"))
        #expect(!files[0].contents.contains("night_only"))
    }

    @Test("Swift: a mode without a value takes its scheme's, then the other scheme's")
    func swift() {
        let export = SwiftExport(Self.table)
        #expect(export.typeName == "BrandColors")
        #expect(export.text.contains("public static let nightOnly = DynamicColor(\n        light: .init(.sRGB, 0.2, 0.5, 0.25, 1),"))
        #expect(SwiftExport.fallbacks(of: .lightHighContrast) == [.lightHighContrast, .light, .darkHighContrast, .dark])
        #expect(SwiftExport(ColorTable(theme: "2024", revision: "r", rows: [])).typeName == "Theme2024Colors")
    }
}

/// `--format compose`: Kotlin for Jetpack Compose (issue 46); `make exports-check` compiles it with kotlinc.
@Suite("Compose export")
struct ComposeExportTests {
    @Test("names are Kotlin identifiers by the one rule (keywords take a suffix), values ARGB longs, light and dark objects with every name")
    func compose() {
        func bytes(_ values: [Double]) -> ColorValue { ColorValue(colorSpace: .sRGB, components: values.map { $0 / 255 }) }
        let table = ColorTable(theme: "brand-2", revision: "r", rows: [
            ExportTests.row("primary/tint", [.light: bytes([0x11, 0x22, 0x33, 0x44]), .dark: bytes([0x55, 0x66, 0x77, 0x88])]),
            ExportTests.row("object", [.light: bytes([0xAA, 0xBB, 0xCC, 0xFF])]),
        ])
        let text = ComposeExport(table).text
        #expect(text.contains("package themed.brand_2\n") && text.contains("import androidx.compose.ui.graphics.Color"))
        #expect(text.contains("object Brand2LightColors {") && text.contains("object Brand2DarkColors {"))
        #expect(text.contains("val primaryTint: Color = Color(0x44112233)") && text.contains("val primaryTint: Color = Color(0x88556677)"))
        #expect(text.components(separatedBy: "val objectColor: Color = Color(0xFFAABBCC)").count == 3, "a light-only colour is in both objects")
        #expect(ExportFormat.compose.files(for: table).first?.path == "Brand2ColorScheme.kt")
    }
}
