import ThemeIndex

/// `<Theme>ColorScheme.kt`: the theme's colours for Jetpack Compose, one object for light and one
/// for dark, each a `val` of `androidx.compose.ui.graphics.Color` per name, ready to hand to
/// `lightColorScheme(primary = BrandLightColors.primary, ...)`. A colour without a value in a
/// scheme takes the other scheme's (as the Swift export does), so both objects have every name.
/// Compose colours are sRGB here, as Android's colour resources are.
public struct ComposeExport: Sendable {
    public let table: ColorTable
    public let names: ExportNames

    public init(_ table: ColorTable) {
        self.table = table
        names = ExportNames(table.rows.map(\.name), style: .kotlinIdentifier)
    }

    /// `Brand` for theme `brand`; `Theme` when the name has no words or starts with a digit.
    var prefix: String {
        let joined = NameStyle.words(of: table.theme).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = joined.first, !first.isNumber else { return "Theme" + joined }
        return joined
    }

    /// `themed.brand`: a package per theme, so that two themes' objects can live in one app.
    var package: String {
        let words = NameStyle.words(of: table.theme).map { $0.lowercased() }
        let name = words.joined(separator: "_")
        guard let first = name.first, !first.isNumber, !NameStyle.kotlinKeywords.contains(name) else { return "themed.theme_" + name }
        return "themed." + name
    }

    public var file: ExportFile {
        ExportFile(path: "\(prefix)ColorScheme.kt", contents: text, mediaType: "text/x-kotlin; charset=utf-8")
    }

    public var text: String {
        var out = CommentText.header(table, names: names, modes: [.light, .dark]).map { "// \(CommentText.swift($0))\n" }.joined()
        out += "\npackage \(package)\n\nimport androidx.compose.ui.graphics.Color\n"
        for (scheme, mode, other) in [("Light", ColorMode.light, ColorMode.dark), ("Dark", .dark, .light)] {
            out += "\n/** The colours of theme \"\(CommentText.swift(table.theme))\" in \(scheme.lowercased()) mode. */\nobject \(prefix)\(scheme)Colors {\n"
            for row in table.rows {
                guard let entry = row.values[mode] ?? row.values[other] else { continue }
                if names[row.name] != row.name { out += "    // \(CommentText.swift(row.name))\n" }
                out += "    val \(names[row.name]): Color = Color(0x\(Self.argb(entry.value.hex)))\n"
            }
            out += "}\n"
        }
        return out
    }

    /// `#RRGGBBAA` as Compose's `Color(Long)` takes it: `AARRGGBB`.
    static func argb(_ hex: String) -> String {
        let digits = hex.dropFirst()
        return String(digits.suffix(2) + digits.prefix(6))
    }
}
