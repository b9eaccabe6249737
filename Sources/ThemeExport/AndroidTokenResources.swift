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
/// their own, gradients of more than three stops, units other than px and rem) is named in each
/// file's leading comment. A gradient is a shape drawable, `drawable[-night]/<name>.xml`.
public struct AndroidTokenResources: Sendable {
    public let tokens: TokenTable
    public let names: ExportNames
    let theme: String
    let revision: String

    public init(_ tokens: TokenTable, theme: String, revision: String, prefix: String = "") {
        self.tokens = tokens
        names = ExportNames(tokens.rows.map(\.path), style: .androidResource, prefix: prefix)
        (self.theme, self.revision) = (theme, revision)
    }

    /// One resource: its element and the value per mode.
    struct Resource {
        enum Kind { case dimen, float, integer, style, gradient }
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
            // A gradient is a drawable of its own: a shape filled with it.
            for resource in shown where resource.kind == .gradient {
                guard let gradient = resource.values[mode] else { continue }
                let folder = mode == .light ? "drawable" : "drawable-night"
                var out = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                out += "<!-- \(CommentText.xml("Gradient \"\(resource.path)\" of theme \"\(theme)\" (revision \(revision)), \(mode.name), exported by themed. Do not edit: export again.")) -->\n"
                out += "<shape xmlns:android=\"http://schemas.android.com/apk/res/android\" android:shape=\"rectangle\">\n    \(gradient)\n</shape>\n"
                files.append(ExportFile(path: "\(folder)/\(resource.name).xml", contents: out, mediaType: "application/xml; charset=utf-8"))
            }
        }
        return files
    }

    /// A gradient of two stops at its ends, or three with the middle one anywhere, as a shape's
    /// `<gradient>` drawn top to bottom (CSS's direction when none is given); Android's shapes
    /// hold no more stops than that.
    static func gradient(_ value: JSONValue) -> String? {
        guard case .array(let stops) = value, stops.count == 2 || stops.count == 3 else { return nil }
        let read = stops.compactMap { stop -> (color: String, position: Double)? in
            guard let color = stop["color"].flatMap(CSSTokenValue.cssColor), let position = stop["position"]?.number else { return nil }
            return (AndroidExport.argb(color.sRGB.hex), position)
        }
        guard read.count == stops.count, let first = read.first, let last = read.last, first.position == 0, last.position == 1 else { return nil }
        var attributes = "android:type=\"linear\" android:angle=\"270\" android:startColor=\"\(first.color)\""
        if read.count == 3 { attributes += " android:centerColor=\"\(read[1].color)\" android:centerY=\"\(read[1].position.exportText)\"" }
        return "<gradient \(attributes) android:endColor=\"\(last.color)\" />"
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
            case .gradient: break
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
        case "gradient": return gradient(value).map { ($0, .gradient) }
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

    /// A letter spacing in ems of the font size, whatever unit the token gave it in: `em` as it
    /// is, `%` a hundredth of an em, px and rem over the size in px. Android and Compose measure
    /// it in ems; Swift multiplies back by the size.
    static func letterSpacingEms(_ value: JSONValue, fontSizePixels size: Double) -> Double? {
        guard let amount = value["value"]?.number, case .string(let unit)? = value["unit"] else { return nil }
        switch unit {
        case "em": return amount
        case "%": return amount / 100
        default:
            guard size > 0, let pixels = dp(value).flatMap(Double.init) else { return nil }
            return pixels / size
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
        if let spacing = value["letterSpacing"].flatMap({ letterSpacingEms($0, fontSizePixels: size) }) {
            items.append(("android:letterSpacing", ((spacing * 10000).rounded() / 10000).exportText))
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
