import DesignTokens
import JSON
import ThemeIndex

/// A token theme's design tokens that are not colours, as Android resources (`AndroidExport`
/// writes the colours):
///
/// - `values/dimens.xml`: dimensions in dp (CSS's px is Android's dp, a rem is 16 of them), and
///   numbers that are not whole as float dimension items;
/// - `values/integers.xml`: whole numbers, durations in milliseconds, font weights;
/// - `values/styles.xml`: each typography style as a text appearance
///   (`TextAppearance.Themed.type_body`, over the framework's `android:TextAppearance`): size in sp, `textFontWeight`, `lineHeight` in sp (a
///   number is a multiple of the size), `letterSpacing` in ems (what Android measures it in), and
///   the first font family.
///
/// `values-night/` holds only what differs in dark (Android takes the rest from `values/`). What
/// Android resources cannot hold (borders, shadows, cubic-béziers, transitions, font families on
/// their own, gradients, units other than px and rem) is named in each file's leading comment.
public struct AndroidTokenResources: Sendable {
    public let tokens: TokenTable
    public let names: ExportNames
    let theme: String
    let revision: String

    public init(_ tokens: TokenTable, theme: String, revision: String) {
        self.tokens = tokens
        names = ExportNames(tokens.rows.map(\.path), style: .androidResource)
        (self.theme, self.revision) = (theme, revision)
    }

    /// One resource: its element and the value per mode.
    struct Resource {
        enum Kind { case dimen, float, integer, style }
        var kind: Kind
        var name: String
        var path: String
        var values: [ColorMode: String]
    }

    public var files: [ExportFile] {
        guard !tokens.rows.isEmpty else { return [] }
        var resources: [Resource] = []
        var unwritten: [String] = []
        for row in tokens.rows {
            var kind: Resource.Kind?
            let values = row.values.compactMapValues { value -> String? in
                guard let (written, writtenKind) = Self.resource(type: row.type, value: value) else { return nil }
                kind = writtenKind
                return written
            }
            guard let kind, !values.isEmpty else {
                unwritten.append(row.path)
                continue
            }
            resources.append(Resource(kind: kind, name: names[row.path], path: row.path, values: values))
        }
        var files: [ExportFile] = []
        for (folder, mode) in [("values", ColorMode.light), ("values-night", ColorMode.dark)] {
            let shown = resources.filter { mode == .light || $0.values[.dark] != $0.values[.light] }
            for (file, kinds) in [("dimens.xml", [Resource.Kind.dimen, .float]), ("integers.xml", [.integer]), ("styles.xml", [.style])] {
                let chosen = shown.filter { kinds.contains($0.kind) && $0.values[mode] != nil }
                guard !chosen.isEmpty else { continue }
                files.append(ExportFile(path: "\(folder)/\(file)", contents: document(chosen, mode: mode, unwritten: unwritten),
                                        mediaType: "application/xml; charset=utf-8"))
            }
        }
        return files
    }

    private func document(_ resources: [Resource], mode: ColorMode, unwritten: [String]) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        var header = ["Design tokens of theme \"\(theme)\" (revision \(revision)), \(mode.name), exported by themed. Do not edit: export again."]
        header += names.report.map { "Name collision: " + $0 }
        if !unwritten.isEmpty { header.append("Not Android resources, not exported: " + unwritten.map { "\"\($0)\"" }.joined(separator: ", ")) }
        for line in header { out += "<!-- \(CommentText.xml(line)) -->\n" }
        out += "<resources>\n"
        for resource in resources {
            guard let value = resource.values[mode] else { continue }
            if resource.name != resource.path { out += "    <!-- \(CommentText.xml(resource.path)) -->\n" }
            switch resource.kind {
            case .dimen: out += "    <dimen name=\"\(resource.name)\">\(value)</dimen>\n"
            case .float: out += "    <item name=\"\(resource.name)\" format=\"float\" type=\"dimen\">\(value)</item>\n"
            case .integer: out += "    <integer name=\"\(resource.name)\">\(value)</integer>\n"
            // The framework's text appearance as the parent: what a style does not say is Android's.
            case .style: out += "    <style name=\"\(Self.stylePrefix)\(resource.name)\" parent=\"android:TextAppearance\">\n\(value)    </style>\n"
            }
        }
        return out + "</resources>\n"
    }

    /// Text appearances are named `TextAppearance.Themed.<resource name>`.
    static let stylePrefix = "TextAppearance.Themed."

    /// A token's value as the text of its resource, and which resource; nil when Android's have
    /// no place for it.
    static func resource(type: String, value: JSONValue) -> (String, Resource.Kind)? {
        switch type {
        case "dimension": return dp(value).map { ($0 + "dp", .dimen) }
        case "number":
            guard let number = value.number else { return nil }
            return number == number.rounded() && abs(number) < 1e9 ? (String(Int(number)), .integer) : (number.exportText, .float)
        case "duration":
            guard let milliseconds = milliseconds(value), milliseconds == milliseconds.rounded() else { return nil }
            return (String(Int(milliseconds)), .integer)
        case "fontWeight": return CSSTokenValue.fontWeight(value).map { ($0, .integer) }
        case "typography": return textAppearance(value).map { ($0, .style) }
        default: return nil
        }
    }

    /// A dimension in dp: px as they are, rem as 16 of them; nil for other units.
    static func dp(_ value: JSONValue) -> String? {
        guard let amount = value["value"]?.number, case .string(let unit)? = value["unit"] else { return nil }
        switch unit {
        case "px": return amount.exportText
        case "rem": return (amount * 16).exportText
        default: return nil
        }
    }

    static func milliseconds(_ value: JSONValue) -> Double? {
        guard let amount = value["value"]?.number, case .string(let unit)? = value["unit"] else { return nil }
        switch unit {
        case "ms": return amount
        case "s": return amount * 1000
        default: return nil
        }
    }

    /// The items of a text appearance; nil without a size (every other item is measured by it).
    static func textAppearance(_ value: JSONValue) -> String? {
        guard let size = value["fontSize"].flatMap(dp).flatMap(Double.init) else { return nil }
        var items = [("android:textSize", size.exportText + "sp")]
        if let weight = value["fontWeight"].flatMap(CSSTokenValue.fontWeight) { items.append(("android:textFontWeight", weight)) }
        if let lineHeight = value["lineHeight"] {
            if let multiple = lineHeight.number {
                items.append(("android:lineHeight", ((multiple * size * 100).rounded() / 100).exportText + "sp"))
            } else if let height = dp(lineHeight) {
                items.append(("android:lineHeight", height + "sp"))
            }
        }
        if let spacing = value["letterSpacing"].flatMap(dp).flatMap(Double.init), size > 0 {
            items.append(("android:letterSpacing", ((spacing / size * 10000).rounded() / 10000).exportText))
        }
        if let family = Self.firstFamily(value["fontFamily"]) { items.append(("android:fontFamily", family)) }
        return items.map { "        <item name=\"\($0.0)\">\(Self.escaped($0.1))</item>\n" }.joined()
    }

    private static func firstFamily(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let name)?: name
        case .array(let names)?: if case .string(let first)? = names.first { first } else { nil }
        default: nil
        }
    }

    /// Text for an XML element (and what aapt reads specially at the start of a value: `@`, `?`).
    static func escaped(_ text: String) -> String {
        var out = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "'", with: "\\'").replacingOccurrences(of: "\"", with: "\\\"")
        if out.hasPrefix("@") || out.hasPrefix("?") { out = "\\" + out }
        return out
    }
}
