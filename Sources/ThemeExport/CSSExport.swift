import ThemeIndex

/// `colors.css`: the theme's colours as custom properties on `:root`.
///
/// - light values by default;
/// - dark values under `@media (prefers-color-scheme: dark)`;
/// - `[data-theme="light"]` and `[data-theme="dark"]` force a scheme on an element and what it
///   contains, whatever the system prefers (they come last in each block so they win);
/// - Display P3 values under `@media (color-gamut: p3)`, high contrast ones under
///   `@media (prefers-contrast: more)`, which comes after P3 so that it wins on a wide-gamut
///   screen: these blocks hold only the names whose value differs there, each written for both
///   schemes so a forced scheme never shows the other scheme's value.
///
/// Light and dark in one file is what Style Dictionary's users keep asking for. With
/// `references`, a colour token that is an alias of another is written as `var(--that-one)`
/// (Style Dictionary's outputReferences), so a page that overrides the one changes both.
public struct CSSExport: Sendable {
    public let table: ColorTable
    public let tokens: TokenTable
    public let names: ExportNames
    public let references: Bool
    /// Every declaration, colours then the other design tokens, with its value in each mode.
    private let lines: [Line]
    /// Typography tokens: a class each (`.type-body`), its declarations in each mode.
    private let classes: [(selector: String, declarations: [ColorMode: [(property: String, value: String)]])]
    /// Tokens CSS has no value for (a dash-array stroke, a gradient), by path.
    private let unwritten: [String]

    /// One custom property: its value in each mode it has one. A colour is restated in every
    /// scheme's block, as it always was; another token only where its value differs from light.
    private struct Line {
        var name: String
        var values: [ColorMode: String]
        var restatedAlways: Bool
    }

    /// With `lightDark`, `text` is one `:root` block of `light-dark()` colours (`lightDarkText`).
    public let lightDark: Bool

    /// Tailwind CSS v4's form (`TailwindExport`): the light values are its `@theme`, each name in
    /// the namespace of its type, typography as `--text-*` with its line height, letter spacing
    /// and weight beside it.
    let tailwind: Bool

    public init(_ table: ColorTable, tokens: TokenTable = .empty, references: Bool = false, lightDark: Bool = false, prefix: String = "") {
        self.init(table, tokens: tokens, references: references, lightDark: lightDark, prefix: prefix, tailwind: false)
    }

    init(_ table: ColorTable, tokens: TokenTable, references: Bool, lightDark: Bool, prefix: String, tailwind: Bool) {
        self.table = table
        self.tokens = tokens
        self.references = references
        self.lightDark = lightDark
        self.tailwind = tailwind
        // Tailwind's names start with their namespace (`--color-`, `--spacing-`): the name rule
        // runs over the namespace and the name together, so collisions are settled within one.
        // The prefix comes after the namespace, where Tailwind's utilities take the name
        // (`--color-ds-primary` is `bg-ds-primary`).
        // A name of no words is `color` there too, as in colors.css.
        func named(_ name: String) -> String { NameStyle.words(of: name).isEmpty ? "color" : name }
        let keys = tailwind ? Dictionary(table.rows.map { ($0.name, "color \(prefix) \(named($0.name))") } + tokens.rows.map { row in
            (row.path, TailwindExport.namespace(type: row.type, path: row.path).map { "\($0) \(prefix) \(named(row.path))" } ?? "\(prefix) \(named(row.path))")
        }, uniquingKeysWith: { first, _ in first }) : [:]
        let exportNames = ExportNames(table.rows.map { keys[$0.name] ?? $0.name } + tokens.rows.map { keys[$0.path] ?? $0.path },
                                      style: .cssCustomProperty, prefix: tailwind ? "" : prefix)
        self.names = exportNames
        let names = KeyedNames(names: exportNames, keys: keys)
        // Each token's value per mode: a typography style's is its `font` shorthand, where it has one.
        let values = tokens.rows.map { row in
            row.type == "typography" ? row.values.compactMapValues { CSSTokenValue.typography($0).flatMap(Self.fontShorthand) }
                : row.values.compactMapValues { CSSTokenValue.css(type: row.type, value: $0) }
        }
        // A reference is kept only to a property this file declares.
        let declared = Set(table.rows.map(\.name)).union(zip(tokens.rows, values).filter { !$1.isEmpty }.map { $0.0.path })
        func reference(_ target: String?) -> String? {
            guard references, let target, declared.contains(target) else { return nil }
            return "var(\(names[target]))"
        }
        var lines = table.rows.map { row in
            Line(name: names[row.name], values: row.values.mapValues { reference($0.aliasOf) ?? $0.value.css }, restatedAlways: true)
        }
        var classes: [(String, [ColorMode: [(String, String)]])] = []
        var unwritten: [String] = []
        for (row, values) in zip(tokens.rows, values) {
            if tailwind, row.type == "typography" {
                let split = TailwindExport.textLines(row.values)
                if split.isEmpty { unwritten.append(row.path) }
                lines += split.map { Line(name: names[row.path] + $0.suffix, values: $0.values, restatedAlways: false) }
                continue
            }
            if row.type == "typography" {
                let declarations = row.values.compactMapValues(CSSTokenValue.typography).filter { !$0.value.isEmpty }
                if !declarations.isEmpty { classes.append(("." + names[row.path].dropFirst(2), declarations)) }
                if declarations.isEmpty { unwritten.append(row.path) }
            } else if values.isEmpty {
                unwritten.append(row.path)
            }
            guard !values.isEmpty else { continue }
            let target = reference(row.aliasOf)
            lines.append(Line(name: names[row.path], values: target.map { target in values.mapValues { _ in target } } ?? values, restatedAlways: false))
        }
        self.lines = lines
        self.classes = classes
        self.unwritten = unwritten
    }

    /// The export names by a row's name, through the Tailwind key it was named under.
    private struct KeyedNames {
        let names: ExportNames
        let keys: [String: String]
        subscript(name: String) -> String { names[keys[name] ?? name] }
    }

    /// A typography style's `font` shorthand (its value as a custom property), when it has one.
    private static func fontShorthand(_ declarations: [(property: String, value: String)]) -> String? {
        declarations.first { $0.property == "font" }?.value
    }

    public var text: String {
        lightDark ? lightDarkText : schemeBlocksText
    }

    private var headerComment: String {
        var header = CommentText.header(table, names: names, modes: ColorMode.all)
        if !tokens.rows.isEmpty { header.append("With the theme's other design tokens: \(tokens.rows.count), typography also as classes.") }
        if !unwritten.isEmpty { header.append("Tokens CSS has no value for, not exported: " + unwritten.map { "\"\($0)\"" }.joined(separator: ", ")) }
        if lightDark {
            header.append("Colours as light-dark(light, dark): the scheme is the element's color-scheme (the system's, or data-theme's); needs a browser of 2024 (Chrome 123, Safari 17.5, Firefox 120).")
        }
        return "/*\n" + header.map { " * " + CommentText.css($0) + "\n" }.joined() + " */\n"
    }

    /// A block per scheme: light on `:root`, dark under the media query and `data-theme`.
    private var schemeBlocksText: String {
        var out = headerComment
        let differing = lines.filter { line in line.restatedAlways || line.values[.dark] != line.values[.light] }
        if tailwind { out += TailwindExport.darkVariant }
        out += rule(tailwind ? "@theme" : ":root", mode: .light, lines: lines, depth: 0)
        out += block("@media (prefers-color-scheme: dark)") { depth in rule(":root", mode: .dark, lines: differing, depth: depth) }
        out += rule("[data-theme=\"light\"]", mode: .light, lines: differing, depth: 0)
        out += rule("[data-theme=\"dark\"]", mode: .dark, lines: differing, depth: 0)
        for (condition, light, dark) in [("@media (color-gamut: p3)", ColorMode.lightP3, ColorMode.darkP3),
                                         ("@media (prefers-contrast: more)", ColorMode.lightHighContrast, ColorMode.darkHighContrast)] {
            let changed = lines.filter { line in
                [light, dark].contains { mode in line.values[mode] != nil && line.values[mode] != line.values[mode.base] }
            }
            guard !changed.isEmpty else { continue }
            out += block(condition) { depth in
                rule(":root", mode: light, lines: changed, depth: depth)
                    + block("@media (prefers-color-scheme: dark)", depth: depth) { rule(":root", mode: dark, lines: changed, depth: $0) }
                    + rule("[data-theme=\"light\"]", mode: light, lines: changed, depth: depth)
                    + rule("[data-theme=\"dark\"]", mode: dark, lines: changed, depth: depth)
            }
        }
        out += typographyClasses
        return out
    }

    /// One `:root` block: a colour is `light-dark(light, dark)` where its schemes differ, so the
    /// element's `color-scheme` chooses (`light dark` follows the system; `data-theme` sets it);
    /// the P3 and high-contrast blocks restate only what differs there, the same way. Other tokens
    /// have no `light-dark()` (it takes colours only): one that differs in dark is restated under
    /// the media query and `data-theme`, as in the block-per-scheme form.
    private var lightDarkText: String {
        var out = headerComment
        // A colour with a light value is one light-dark() declaration; a colour of dark alone is
        // restated per scheme like the other tokens, so light mode leaves it unset as the
        // block-per-scheme form does.
        let isLightDark = { (line: Line) in line.restatedAlways && line.values[.light] != nil }
        func declaration(_ line: Line, light: ColorMode, dark: ColorMode) -> String? {
            guard isLightDark(line) else { return line.values[light] }
            // A P3 or high-contrast mode without a value of its own draws its scheme's.
            switch (line.values[light] ?? line.values[light.base], line.values[dark] ?? line.values[dark.base]) {
            case (let lightValue?, let darkValue?): return lightValue == darkValue ? lightValue : "light-dark(\(lightValue), \(darkValue))"
            // A colour of light alone is that colour in both, as without light-dark().
            case (let only?, nil), (nil, let only?): return only
            case (nil, nil): return nil
            }
        }
        func lightDarkRule(_ selector: String, _ lines: [Line], light: ColorMode, dark: ColorMode, depth: Int, extra: [String] = []) -> String {
            let indent = String(repeating: "  ", count: depth)
            let declarations = extra.map { "\(indent)  \($0);\n" }
                + lines.compactMap { line in declaration(line, light: light, dark: dark).map { "\(indent)  \(line.name): \($0);\n" } }
            guard !declarations.isEmpty else { return "" }
            return "\(indent)\(selector) {\n" + declarations.joined() + "\(indent)}\n"
        }
        out += lightDarkRule(":root", lines.filter { !$0.restatedAlways || isLightDark($0) }, light: .light, dark: .dark, depth: 0, extra: ["color-scheme: light dark"])
        out += "[data-theme=\"light\"] {\n  color-scheme: light;\n}\n[data-theme=\"dark\"] {\n  color-scheme: dark;\n}\n"
        let darkTokens = lines.filter { !isLightDark($0) && $0.values[.dark] != nil && $0.values[.dark] != $0.values[.light] }
        out += block("@media (prefers-color-scheme: dark)") { depth in rule(":root", mode: .dark, lines: darkTokens, depth: depth) }
        out += rule("[data-theme=\"light\"]", mode: .light, lines: darkTokens, depth: 0)
        out += rule("[data-theme=\"dark\"]", mode: .dark, lines: darkTokens, depth: 0)
        for (condition, light, dark) in [("@media (color-gamut: p3)", ColorMode.lightP3, ColorMode.darkP3),
                                         ("@media (prefers-contrast: more)", ColorMode.lightHighContrast, ColorMode.darkHighContrast)] {
            let changed = lines.filter { line in
                [light, dark].contains { mode in line.values[mode] != nil && line.values[mode] != line.values[mode.base] }
            }
            let (colors, others) = (changed.filter(isLightDark), changed.filter { !isLightDark($0) })
            out += block(condition) { depth in
                lightDarkRule(":root", colors, light: light, dark: dark, depth: depth)
                    + rule(":root", mode: light, lines: others, depth: depth)
                    + block("@media (prefers-color-scheme: dark)", depth: depth) { rule(":root", mode: dark, lines: others, depth: $0) }
                    + rule("[data-theme=\"light\"]", mode: light, lines: others, depth: depth)
                    + rule("[data-theme=\"dark\"]", mode: dark, lines: others, depth: depth)
            }
        }
        out += typographyClasses
        return out
    }

    /// Each typography style as a class, its dark declarations where they differ (under the
    /// media query, and for an element whose scheme data-theme forces).
    private var typographyClasses: String {
        var out = ""
        for (selector, declarations) in classes {
            guard let light = declarations[.light] ?? declarations.values.first else { continue }
            out += Self.declarationBlock(selector, light, depth: 0)
        }
        let dark = classes.filter { _, declarations in
            declarations[.dark].map { dark in declarations[.light].map { !Self.same(dark, $0) } ?? true } ?? false
        }
        out += block("@media (prefers-color-scheme: dark)") { depth in
            dark.map { selector, declarations in Self.declarationBlock(selector, declarations[.dark] ?? [], depth: depth) }.joined()
        }
        // A scheme forced by data-theme, as the custom properties are.
        for (selector, declarations) in dark {
            if let light = declarations[.light] { out += Self.declarationBlock("[data-theme=\"light\"] \(selector)", light, depth: 0) }
            if let darkDeclarations = declarations[.dark] { out += Self.declarationBlock("[data-theme=\"dark\"] \(selector)", darkDeclarations, depth: 0) }
        }
        return out
    }

    private static func same(_ left: [(property: String, value: String)], _ right: [(property: String, value: String)]) -> Bool {
        left.map(\.property) == right.map(\.property) && left.map(\.value) == right.map(\.value)
    }

    private static func declarationBlock(_ selector: String, _ declarations: [(property: String, value: String)], depth: Int) -> String {
        let indent = String(repeating: "  ", count: depth)
        return "\(indent)\(selector) {\n" + declarations.map { "\(indent)  \($0.property): \($0.value);\n" }.joined() + "\(indent)}\n"
    }

    /// A rule with one declaration per line that has a value in `mode`.
    private func rule(_ selector: String, mode: ColorMode, lines: [Line], depth: Int) -> String {
        let indent = String(repeating: "  ", count: depth)
        let declarations = lines.compactMap { line in line.values[mode].map { "\(indent)  \(line.name): \($0);\n" } }
        guard !declarations.isEmpty else { return "" }
        return "\(indent)\(selector) {\n" + declarations.joined() + "\(indent)}\n"
    }

    private func block(_ condition: String, depth: Int = 0, _ body: (Int) -> String) -> String {
        let inner = body(depth + 1)
        guard !inner.isEmpty else { return "" }
        let indent = String(repeating: "  ", count: depth)
        return "\(indent)\(condition) {\n\(inner)\(indent)}\n"
    }
}
