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
    public let names: ExportNames
    public let references: Bool
    private let exported: Set<String>

    public init(_ table: ColorTable, references: Bool = false) {
        self.table = table
        self.references = references
        names = ExportNames(table.rows.map(\.name), style: .cssCustomProperty)
        exported = Set(table.rows.map(\.name))
    }

    /// A declaration's value: the colour, or with references a `var()` of the token it aliases.
    private func value(_ entry: ColorTable.Entry) -> String {
        if references, let target = entry.aliasOf, exported.contains(target) { return "var(\(names[target]))" }
        return entry.value.css
    }

    public var text: String {
        var out = "/*\n" + CommentText.header(table, names: names, modes: ColorMode.all).map { " * " + CommentText.css($0) + "\n" }.joined() + " */\n"
        out += rule(":root", mode: .light, rows: table.rows, depth: 0)
        out += block("@media (prefers-color-scheme: dark)") { depth in rule(":root", mode: .dark, rows: table.rows, depth: depth) }
        out += rule("[data-theme=\"light\"]", mode: .light, rows: table.rows, depth: 0)
        out += rule("[data-theme=\"dark\"]", mode: .dark, rows: table.rows, depth: 0)
        for (condition, light, dark) in [("@media (color-gamut: p3)", ColorMode.lightP3, ColorMode.darkP3),
                                         ("@media (prefers-contrast: more)", ColorMode.lightHighContrast, ColorMode.darkHighContrast)] {
            let rows = table.rows.filter { row in
                [light, dark].contains { mode in row.values[mode] != nil && row.values[mode]?.value != row.values[mode.base]?.value }
            }
            guard !rows.isEmpty else { continue }
            out += block(condition) { depth in
                rule(":root", mode: light, rows: rows, depth: depth)
                    + block("@media (prefers-color-scheme: dark)", depth: depth) { rule(":root", mode: dark, rows: rows, depth: $0) }
                    + rule("[data-theme=\"light\"]", mode: light, rows: rows, depth: depth)
                    + rule("[data-theme=\"dark\"]", mode: dark, rows: rows, depth: depth)
            }
        }
        return out
    }

    /// A rule with one declaration per row that has a value in `mode`.
    private func rule(_ selector: String, mode: ColorMode, rows: [ColorTable.Row], depth: Int) -> String {
        let indent = String(repeating: "  ", count: depth)
        let declarations = rows.compactMap { row in
            row.values[mode].map { "\(indent)  \(names[row.name]): \(value($0));\n" }
        }
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
