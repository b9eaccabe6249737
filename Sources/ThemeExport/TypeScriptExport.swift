import JSON
import ThemeIndex

/// The theme for web code that imports it: ES modules of its colours and design tokens in every
/// mode, as CSS writes each value (`rgb(0 122 255 / 1)`, `16px`), so a value can go straight into
/// a style.
///
/// - `ts`: `colors.ts`, typed (`Mode`, `ColorName`, `TokenName`; `tsc --strict` takes it);
/// - `js`: `colors.js` and its types in `colors.d.ts`.
///
/// Names stay the theme's own, as string keys (`colors.light["primary tint"]`): no naming rule
/// between them, so two names can never collide. A mode a colour has no value for has no key.
/// Typography (a CSS class in the CSS export) and tokens CSS has no text for are listed in the
/// header, not exported.
public struct TypeScriptExport: Sendable {
    public let table: ColorTable
    public let tokens: TokenTable

    public init(_ table: ColorTable, tokens: TokenTable = .empty) {
        (self.table, self.tokens) = (table, tokens)
    }

    /// `colors.ts`.
    public var typescript: ExportFile {
        ExportFile(path: "colors.ts", contents: header + declarations(typed: true), mediaType: "text/typescript; charset=utf-8")
    }

    /// `colors.js` and `colors.d.ts`.
    public var javascript: [ExportFile] {
        [ExportFile(path: "colors.js", contents: header + declarations(typed: false), mediaType: "text/javascript; charset=utf-8"),
         ExportFile(path: "colors.d.ts", contents: header + types, mediaType: "text/typescript; charset=utf-8")]
    }

    // MARK: - Text

    private var header: String {
        headerLines.map { "// " + $0 + "\n" }.joined()
    }

    /// The leading comment's lines, safe in a `//` comment: what the export is and what it left out.
    var headerLines: [String] {
        var lines = CommentText.header(table, names: ExportNames([], style: .designToken), modes: ColorMode.all)
        if !unwritten.isEmpty {
            lines.append("Not exported (typography is a class of the CSS export; these have no CSS text): " + unwritten.joined(separator: ", "))
        }
        return lines.map(CommentText.swift)
    }

    /// Each token CSS has text for, with its value in each mode.
    var tokenValues: [(path: String, values: [ColorMode: String])] {
        tokens.rows.compactMap { row in
            guard row.type != "typography" else { return nil }
            let values = row.values.compactMapValues { CSSTokenValue.css(type: row.type, value: $0) }
            return values.isEmpty ? nil : (row.path, values)
        }
    }

    private var unwritten: [String] {
        let written = Set(tokenValues.map(\.path))
        return tokens.rows.map(\.path).filter { !written.contains($0) }
    }

    var colorValues: [(path: String, values: [ColorMode: String])] {
        table.rows.map { row in (row.name, row.values.mapValues(\.value.css)) }
    }

    private func declarations(typed: Bool) -> String {
        var text = "\nexport const modes = [" + ColorMode.all.map { Self.literal($0.name) }.joined(separator: ", ") + "]" + (typed ? " as const" : "") + ";\n"
        if typed { text += typeAliases }
        text += "\n" + object("colors", colorValues, type: typed ? ": { readonly [M in Mode]: { readonly [N in ColorName]?: string } }" : "")
        text += "\n" + object("tokens", tokenValues, type: typed ? ": { readonly [M in Mode]: { readonly [N in TokenName]?: string } }" : "")
        return text
    }

    private var typeAliases: String {
        "export type Mode = (typeof modes)[number];\n"
            + "export type ColorName = " + Self.union(colorValues.map(\.path)) + ";\n"
            + "export type TokenName = " + Self.union(tokenValues.map(\.path)) + ";\n"
    }

    private var types: String {
        "\nexport declare const modes: readonly [" + ColorMode.all.map { Self.literal($0.name) }.joined(separator: ", ") + "];\n" + typeAliases
            + "export declare const colors: { readonly [M in Mode]: { readonly [N in ColorName]?: string } };\n"
            + "export declare const tokens: { readonly [M in Mode]: { readonly [N in TokenName]?: string } };\n"
    }

    /// `export const NAME = { "light": { "a": "...", ... }, ... };`, modes in export order, names sorted.
    private func object(_ name: String, _ entries: [(path: String, values: [ColorMode: String])], type: String) -> String {
        var text = "export const \(name)\(type) = {\n"
        for mode in ColorMode.all {
            text += "  \(Self.literal(mode.name)): {\n"
            for entry in entries.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }) {
                guard let value = entry.values[mode] else { continue }
                text += "    \(Self.literal(entry.path)): \(Self.literal(value)),\n"
            }
            text += "  },\n"
        }
        return text + "};\n"
    }

    /// A string literal both languages read back as `text` (JSON's escaping, and the two line
    /// separators escaped, which older engines end a string at).
    static func literal(_ text: String) -> String {
        JSONValue.string(text).serialized().replacingAll("\u{2028}", with: "\\u2028").replacingAll("\u{2029}", with: "\\u2029")
    }

    /// A union of string literal types; `never` for none.
    private static func union(_ names: [String]) -> String {
        names.isEmpty ? "never" : names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map(literal).joined(separator: " | ")
    }
}
