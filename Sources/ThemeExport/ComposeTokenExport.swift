import JSON
import ThemeIndex
import ThemeVocabulary

/// `<Theme>Tokens.kt`: a token theme's design tokens that are not colours, for Jetpack Compose,
/// in the package of its colours (`ComposeExport`): an object for light and one for dark, each with
/// every name (a token the same in both is the same value):
///
/// - dimensions as `Dp` (a CSS px is a dp, a rem 16 of them); numbers as `Int` or `Float`;
///   durations as `Int` milliseconds (what `tween(durationMillis =)` takes); font weights as
///   `FontWeight`; cubic-béziers as `CubicBezierEasing`;
/// - a font family as its stack's generic `FontFamily` (`SansSerif`; a named family needs a font
///   resource the app bundles: the stack is in a comment);
/// - typography as `TextStyle` (size and letter spacing in sp, a line height that is a number in
///   em, which is what it means);
/// - a shadow of one layer, not inset and without spread, as `Shadow` (what text shadows are);
/// - a gradient as a vertical `Brush` of its stops (CSS's direction when none is given).
///
/// What Compose has no value type for (borders, transitions, stroke styles, layered
/// or inset shadows, units other than px and rem) is named in the leading comment.
public struct ComposeTokenExport: Sendable {
    public let tokens: TokenTable
    public let names: ExportNames
    let colors: ComposeExport

    public init(_ tokens: TokenTable, colors: ComposeExport) {
        self.tokens = tokens
        self.colors = colors
        names = ExportNames(tokens.rows.map(\.path), style: .kotlinIdentifier)
    }

    /// Nothing when the theme has no such tokens.
    public var file: ExportFile? {
        guard !tokens.rows.isEmpty else { return nil }
        return ExportFile(path: "\(colors.prefix)Tokens.kt", contents: text, mediaType: "text/x-kotlin; charset=utf-8")
    }

    public var text: String {
        let (written, unwritten) = tokens.perScheme(Self.kotlin)
        var header = ["Design tokens of theme \"\(colors.table.theme)\" (revision \(colors.table.revision)), exported by themed. Do not edit: export again."]
        header += names.report.map { "Name collision: " + $0 }
        if !unwritten.isEmpty { header.append("No Compose value type, not exported: " + unwritten.map { "\"\($0)\"" }.joined(separator: ", ")) }
        var out = header.map { "// \(CommentText.swift($0))\n" }.joined()
        out += "\npackage \(colors.package)\n\n"
        out += Self.imports.map { "import \($0)\n" }.joined()
        for (scheme, other, title) in [(ColorMode.Scheme.light, ColorMode.Scheme.dark, "Light"), (.dark, .light, "Dark")] {
            out += "\n/** The design tokens of theme \"\(CommentText.swift(colors.table.theme))\" in \(scheme.rawValue) mode. */\n"
            out += "object \(colors.prefix)\(title)Tokens {\n"
            for (path, values) in written {
                guard let value = values[scheme] ?? values[other] else { continue }
                let name = names[path]
                let note = [name != path ? path : nil, value.comment].compactMap { $0 }
                if !note.isEmpty { out += "    // \(CommentText.swift(note.joined(separator: ": ")))\n" }
                out += "    val \(name): \(value.type) = \(value.value)\n"
            }
            out += "}\n"
        }
        return out
    }

    static let imports = [
        "androidx.compose.animation.core.CubicBezierEasing", "androidx.compose.ui.geometry.Offset", "androidx.compose.ui.graphics.Brush",
        "androidx.compose.ui.graphics.Color",
        "androidx.compose.ui.graphics.Shadow", "androidx.compose.ui.text.TextStyle", "androidx.compose.ui.text.font.FontFamily",
        "androidx.compose.ui.text.font.FontWeight", "androidx.compose.ui.unit.Dp", "androidx.compose.ui.unit.dp",
        "androidx.compose.ui.unit.em", "androidx.compose.ui.unit.sp",
    ]

    /// A token's Kotlin type and value (and a note); nil when Compose has no type for it.
    static func kotlin(type: String, value: JSONValue) -> (type: String, value: String, comment: String?)? {
        switch type {
        case "dimension": return AndroidTokenResources.dp(value).map { ("Dp", "\($0).dp", nil) }
        case "number":
            guard let number = value.number else { return nil }
            return number == number.rounded() && abs(number) < 1e9 ? ("Int", String(Int(number)), nil) : ("Float", float(number), nil)
        case "duration":
            guard let milliseconds = AndroidTokenResources.milliseconds(value), milliseconds == milliseconds.rounded() else { return nil }
            return ("Int", String(Int(milliseconds)), "milliseconds")
        case "fontWeight": return CSSTokenValue.fontWeight(value).map { ("FontWeight", "FontWeight(\($0))", nil) }
        case "cubicBezier":
            guard case .array(let members) = value, members.count == 4 else { return nil }
            let points = members.compactMap(\.number)
            return points.count == 4 ? ("CubicBezierEasing", "CubicBezierEasing(" + points.map(float).joined(separator: ", ") + ")", nil) : nil
        case "fontFamily":
            guard let (family, stack) = fontFamily(value) else { return nil }
            return ("FontFamily", family, stack)
        case "typography": return textStyle(value).map { ("TextStyle", $0, nil) }
        case "shadow": return shadow(value).map { ("Shadow", $0, nil) }
        case "gradient": return gradient(value).map { ("Brush", $0, nil) }
        default: return nil
        }
    }

    /// Stops from top to bottom, as CSS draws a gradient without a direction:
    /// `Brush.verticalGradient(0f to Color(0xFF000000), 1f to Color(0xFFFFFFFF))`.
    static func gradient(_ value: JSONValue) -> String? {
        guard case .array(let stops) = value, !stops.isEmpty else { return nil }
        let written = stops.compactMap { stop -> String? in
            guard let color = stop["color"].flatMap(CSSTokenValue.cssColor), let position = stop["position"]?.number else { return nil }
            return "\(float(min(max(position, 0), 1))) to Color(0x\(ComposeExport.argb(color.sRGB.hex)))"
        }
        return written.count == stops.count ? "Brush.verticalGradient(" + written.joined(separator: ", ") + ")" : nil
    }

    /// `1.5f`, `4f`.
    static func float(_ value: Double) -> String {
        value.exportText + "f"
    }

    /// The stack's first generic family as Compose's (`FontFamily.SansSerif`), and the stack.
    static func fontFamily(_ value: JSONValue) -> (String, String)? {
        let names: [String] = switch value {
        case .string(let name): [name]
        case .array(let members): members.compactMap { if case .string(let name) = $0 { name } else { nil } }
        default: []
        }
        let generic: [String: String] = ["sans-serif": "SansSerif", "serif": "Serif", "monospace": "Monospace", "cursive": "Cursive",
                                         "system-ui": "Default", "ui-sans-serif": "SansSerif", "ui-serif": "Serif", "ui-monospace": "Monospace"]
        guard let family = names.lazy.compactMap({ generic[$0] }).first else { return nil }
        return ("FontFamily.\(family)", names.joined(separator: ", "))
    }

    static func textStyle(_ value: JSONValue) -> String? {
        guard case .object = value else { return nil }
        var arguments: [String] = []
        if let (family, _) = value["fontFamily"].flatMap(fontFamily) { arguments.append("fontFamily = \(family)") }
        if let size = value["fontSize"].flatMap(AndroidTokenResources.dp) { arguments.append("fontSize = \(size).sp") }
        if let weight = value["fontWeight"].flatMap(CSSTokenValue.fontWeight) { arguments.append("fontWeight = FontWeight(\(weight))") }
        if let lineHeight = value["lineHeight"] {
            if let multiple = lineHeight.number {
                arguments.append("lineHeight = \(multiple.exportText).em")
            } else if let height = AndroidTokenResources.dp(lineHeight) {
                arguments.append("lineHeight = \(height).sp")
            }
        }
        // A spacing in ems (or %) stays relative to the size, as Compose's em unit keeps it.
        if let spacing = value["letterSpacing"] {
            if case .string(let unit)? = spacing["unit"], unit == "em" || unit == "%",
               let ems = AndroidTokenResources.letterSpacingEms(spacing, fontSizePixels: 0) {
                arguments.append("letterSpacing = \(ems.exportText).em")
            } else if let pixels = AndroidTokenResources.dp(spacing) {
                arguments.append("letterSpacing = \(pixels).sp")
            }
        }
        return arguments.isEmpty ? nil : "TextStyle(" + arguments.joined(separator: ", ") + ")"
    }

    /// One layer, not inset, no spread: `Shadow(color, Offset(x, y), blurRadius)` in dp as pixels
    /// of an mdpi screen (Compose's Shadow is in pixels; the app scales it).
    static func shadow(_ value: JSONValue) -> String? {
        let layer: JSONValue
        switch value {
        case .array(let layers) where layers.count == 1: layer = layers[0]
        case .object: layer = value
        default: return nil
        }
        if case .bool(true)? = layer["inset"] { return nil }
        guard let x = layer["offsetX"].flatMap(AndroidTokenResources.dp), let y = layer["offsetY"].flatMap(AndroidTokenResources.dp),
              let blur = layer["blur"].flatMap(AndroidTokenResources.dp), layer["spread"].flatMap(AndroidTokenResources.dp).flatMap(Double.init) == 0,
              let color = layer["color"].flatMap(CSSTokenValue.cssColor) else { return nil }
        return "Shadow(color = Color(0x\(ComposeExport.argb(color.sRGB.hex))), offset = Offset(\(x)f, \(y)f), blurRadius = \(blur)f)"
    }
}
