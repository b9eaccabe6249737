import JSON
import ThemeIndex
import ThemeVocabulary

/// `<Theme>Tokens.swift`: a token theme's design tokens that are not colours, for Swift apps,
/// beside `<Theme>Colors.swift` (`SwiftExport`): a `Values` of every token for light and one for
/// dark (a token the same in both is the same value), chosen with `values(dark:)`.
///
/// - dimensions as `CGFloat` points (a CSS px is a point, a rem 16 of them), numbers as `Double`,
///   durations as `TimeInterval` seconds, font weights as their number, font families as the
///   stack, stroke styles as their keyword;
/// - cubic-béziers, borders, shadows (every layer), transitions and typography as small value
///   types of the file's own; a typography style gives a SwiftUI `Font` and a `UIFont` (through
///   a font descriptor with the family and weight).
///
/// The values need only Foundation (`swiftc -typecheck` checks them on Linux); what uses SwiftUI
/// and UIKit is compiled where they exist. Gradients are `[GradientStop]` (SwiftUI's `Gradient`
/// where it exists); units other than px and rem are named in the leading comment, not exported.
public struct SwiftTokenExport: Sendable {
    public let tokens: TokenTable
    public let names: ExportNames
    let colors: SwiftExport

    public init(_ tokens: TokenTable, colors: SwiftExport) {
        self.tokens = tokens
        self.colors = colors
        names = ExportNames(tokens.rows.map(\.path), style: .swiftIdentifier)
    }

    /// `TypedTokens` for theme `typed`.
    var typeName: String { String(colors.typeName.dropLast("Colors".count)) + "Tokens" }

    /// Nothing when the theme has no such tokens.
    public var file: ExportFile? {
        guard !tokens.rows.isEmpty else { return nil }
        return ExportFile(path: "\(typeName).swift", contents: text, mediaType: "text/x-swift; charset=utf-8")
    }

    public var text: String {
        let (written, unwritten) = tokens.perScheme(Self.swift)
        // A keyword is declared in backquotes; as an argument label it needs none.
        let members = written.map { path, values in
            (label: names[path], name: NameStyle.swiftKeywords.contains(names[path]) ? "`\(names[path])`" : names[path], path: path, values: values)
        }
        let theme = CommentText.swift(colors.table.theme)
        var header = ["Design tokens of theme \"\(colors.table.theme)\" (revision \(colors.table.revision)), exported by themed. Do not edit: export again."]
        header += names.report.map { "Name collision: " + $0 }
        if !unwritten.isEmpty { header.append("Not exported (no Swift value here): " + unwritten.map { "\"\($0)\"" }.joined(separator: ", ")) }
        var out = header.map { "// \(CommentText.swift($0))\n" }.joined()
        out += """

        import Foundation
        #if canImport(SwiftUI)
        import SwiftUI
        #endif
        #if canImport(UIKit)
        import UIKit
        #endif

        /// The design tokens of theme "\(theme)" that are not colours, in light and dark mode.
        public enum \(typeName) {
            /// Every token in one mode.
            public struct Values: Sendable {

        """
        for member in members {
            if member.label != member.path { out += "        /// \(CommentText.swift(member.path))\n" }
            out += "        public let \(member.name): \((member.values[.light] ?? member.values[.dark])?.type ?? "")\n"
        }
        out += "    }\n"
        for (scheme, other) in [(ColorMode.Scheme.light, ColorMode.Scheme.dark), (.dark, .light)] {
            out += "\n    public static let \(scheme.rawValue) = Values(\n"
            out += members.map { member in
                "        \(member.label): \((member.values[scheme] ?? member.values[other])?.value ?? "")"
            }.joined(separator: ",\n")
            out += "\n    )\n"
        }
        out += """

            /// The values for a dark or light appearance.
            public static func values(dark: Bool) -> Values { dark ? Self.dark : light }
        \(Self.supportTypes)
        }
        \(Self.platformExtensions(typeName))
        """
        return out
    }

    /// SwiftUI's `Font` and `Animation` and UIKit's `UIFont` from the values, where those exist.
    static func platformExtensions(_ type: String) -> String {
        """

        #if canImport(SwiftUI)
        extension \(type).TextStyle {
            /// The weight as SwiftUI names it (100 ultraLight, 400 regular, 900 black).
            public var fontWeight: Font.Weight {
                switch weight {
                case ..<150: .ultraLight
                case ..<250: .thin
                case ..<350: .light
                case ..<450: .regular
                case ..<550: .medium
                case ..<650: .semibold
                case ..<750: .bold
                case ..<850: .heavy
                default: .black
                }
            }

            /// The stack's first named family at the size and weight (SwiftUI falls back to the
            /// system font when the app lacks it); the system font for a stack of generic families.
            public var font: Font {
                if let family = families.first(where: { !\(type).genericFamilies.contains($0) }) {
                    return Font.custom(family, size: size).weight(fontWeight)
                }
                let design: Font.Design = families.contains("monospace") ? .monospaced : families.contains("serif") ? .serif : .default
                return Font.system(size: size, weight: fontWeight, design: design)
            }
        }

        extension \(type).CubicBezier {
            public func animation(duration: TimeInterval) -> Animation {
                .timingCurve(x1, y1, x2, y2, duration: duration)
            }
        }

        extension \(type).Transition {
            public var animation: Animation { curve.animation(duration: duration).delay(delay) }
        }

        extension \(type).RGBA {
            public var color: Color { Color(.sRGB, red: red, green: green, blue: blue, opacity: alpha) }
        }

        extension Array where Element == \(type).GradientStop {
            /// The stops as SwiftUI's gradient (`LinearGradient(gradient:startPoint:endPoint:)`).
            public var gradient: Gradient { Gradient(stops: map { Gradient.Stop(color: $0.color.color, location: $0.location) }) }
        }
        #endif

        #if canImport(UIKit)
        extension \(type).TextStyle {
            /// A font descriptor with the stack's first named family and the weight's trait.
            public var uiFont: UIFont {
                let weights: [(Int, UIFont.Weight)] = [(100, .ultraLight), (200, .thin), (300, .light), (400, .regular), (500, .medium),
                                                       (600, .semibold), (700, .bold), (800, .heavy), (900, .black)]
                let uiWeight = weights.min { abs($0.0 - weight) < abs($1.0 - weight) }?.1 ?? .regular
                var attributes: [UIFontDescriptor.AttributeName: Any] = [.traits: [UIFontDescriptor.TraitKey.weight: uiWeight]]
                if let family = families.first(where: { !\(type).genericFamilies.contains($0) }) { attributes[.family] = family }
                return UIFont(descriptor: UIFontDescriptor(fontAttributes: attributes), size: size)
            }
        }
        #endif

        """
    }

    /// A token's Swift type and literal; nil when it has none here.
    static func swift(type: String, value: JSONValue) -> (type: String, value: String)? {
        switch type {
        case "dimension": return points(value).map { ("CGFloat", $0) }
        case "number": return value.number.map { ("Double", $0.exportText) }
        case "duration":
            return AndroidTokenResources.milliseconds(value).map { ("TimeInterval", ($0 / 1000).exportText) }
        case "fontWeight": return CSSTokenValue.fontWeight(value).map { ("Int", $0) }
        case "fontFamily": return families(value).map { ("[String]", "[" + $0.map(literal).joined(separator: ", ") + "]") }
        case "strokeStyle": return CSSTokenValue.strokeStyle(value).map { ("String", literal($0)) }
        case "cubicBezier": return bezier(value).map { ("CubicBezier", $0) }
        case "border":
            guard let width = value["width"].flatMap(points), case .string(let style)? = value["style"], CSSTokenValue.strokeStyles.contains(style),
                  let color = value["color"].flatMap(rgba) else { return nil }
            return ("Border", "Border(width: \(width), style: \(literal(style)), color: \(color))")
        case "shadow":
            let layers: [JSONValue] = if case .array(let members) = value { members } else { [value] }
            let written = layers.compactMap(shadowLayer)
            guard !layers.isEmpty, written.count == layers.count else { return nil }
            return ("[Shadow]", "[" + written.joined(separator: ", ") + "]")
        case "transition":
            guard let duration = value["duration"].flatMap(AndroidTokenResources.milliseconds),
                  let delay = value["delay"].flatMap(AndroidTokenResources.milliseconds),
                  let curve = value["timingFunction"].flatMap(bezier) else { return nil }
            return ("Transition", "Transition(duration: \((duration / 1000).exportText), delay: \((delay / 1000).exportText), curve: \(curve))")
        case "typography": return textStyle(value).map { ("TextStyle", $0) }
        case "gradient":
            guard case .array(let stops) = value, !stops.isEmpty else { return nil }
            let written = stops.compactMap { stop -> String? in
                guard let color = stop["color"].flatMap(rgba), let position = stop["position"]?.number else { return nil }
                return "GradientStop(color: \(color), location: \(min(max(position, 0), 1).exportText))"
            }
            return written.count == stops.count ? ("[GradientStop]", "[" + written.joined(separator: ", ") + "]") : nil
        default: return nil
        }
    }

    /// Points: a px as one, a rem as 16; nil for other units.
    static func points(_ value: JSONValue) -> String? {
        AndroidTokenResources.dp(value)
    }

    static func families(_ value: JSONValue) -> [String]? {
        switch value {
        case .string(let name): return [name]
        case .array(let members):
            let names = members.compactMap { if case .string(let name) = $0 { name } else { nil } }
            return names.count == members.count && !names.isEmpty ? names : nil
        default: return nil
        }
    }

    static func bezier(_ value: JSONValue) -> String? {
        guard case .array(let members) = value, members.count == 4 else { return nil }
        let points = members.compactMap(\.number).map(\.exportText)
        return points.count == 4 ? "CubicBezier(x1: \(points[0]), y1: \(points[1]), x2: \(points[2]), y2: \(points[3]))" : nil
    }

    /// A colour inside a composite token as sRGB components (other spaces mapped into sRGB).
    static func rgba(_ value: JSONValue) -> String? {
        guard let color = CSSTokenValue.cssColor(value) else { return nil }
        let components = color.sRGB.rgba.map(\.exportText)
        return "RGBA(\(components[0]), \(components[1]), \(components[2]), \(components[3]))"
    }

    static func shadowLayer(_ layer: JSONValue) -> String? {
        guard let x = layer["offsetX"].flatMap(points), let y = layer["offsetY"].flatMap(points), let blur = layer["blur"].flatMap(points),
              let spread = layer["spread"].flatMap(points), let color = layer["color"].flatMap(rgba) else { return nil }
        let inset = if case .bool(true)? = layer["inset"] { true } else { false }
        return "Shadow(color: \(color), x: \(x), y: \(y), blur: \(blur), spread: \(spread), inset: \(inset))"
    }

    static func textStyle(_ value: JSONValue) -> String? {
        guard case .object = value, let size = value["fontSize"].flatMap(points) else { return nil }
        let families = value["fontFamily"].flatMap(families) ?? []
        let weight = value["fontWeight"].flatMap(CSSTokenValue.fontWeight) ?? "400"
        var lineHeight = "nil"
        if let multiple = value["lineHeight"]?.number, let points = Double(size) {
            lineHeight = ((multiple * points * 100).rounded() / 100).exportText
        } else if let height = value["lineHeight"].flatMap(points) {
            lineHeight = height
        }
        // In points at this size, whatever unit the token gave: an em or % is a share of the size.
        var spacing = "0"
        if let sizePoints = Double(size), let ems = value["letterSpacing"].flatMap({ AndroidTokenResources.letterSpacingEms($0, fontSizePixels: sizePoints) }) {
            spacing = ((ems * sizePoints * 10000).rounded() / 10000).exportText
        }
        return "TextStyle(families: [" + families.map(literal).joined(separator: ", ") + "], size: \(size), weight: \(weight), lineHeight: \(lineHeight), letterSpacing: \(spacing))"
    }

    /// A Swift string literal.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The value types the tokens use, written into the file (it depends on nothing of themed's).
    static let supportTypes = """

        /// An sRGB colour inside a composite token.
        public struct RGBA: Sendable, Equatable {
            public let red: Double, green: Double, blue: Double, alpha: Double
            public init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double) {
                (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
            }
        }

        /// A cubic Bézier timing curve, as CSS's `cubic-bezier()`.
        public struct CubicBezier: Sendable, Equatable {
            public let x1: Double, y1: Double, x2: Double, y2: Double
        }

        public struct Border: Sendable, Equatable {
            public let width: CGFloat
            /// `solid`, `dashed`, `dotted`, ... (CSS's keywords).
            public let style: String
            public let color: RGBA
        }

        /// One layer of a shadow, in points.
        public struct Shadow: Sendable, Equatable {
            public let color: RGBA
            public let x: CGFloat, y: CGFloat, blur: CGFloat, spread: CGFloat
            public let inset: Bool
        }

        /// A stop of a gradient: its colour at a location from 0 (start) to 1 (end).
        public struct GradientStop: Sendable, Equatable {
            public let color: RGBA
            public let location: Double
        }

        /// Seconds.
        public struct Transition: Sendable, Equatable {
            public let duration: TimeInterval, delay: TimeInterval
            public let curve: CubicBezier
        }

        /// CSS's generic families, which name no font of their own.
        public static let genericFamilies: Set<String> = ["serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif",
                                                          "ui-sans-serif", "ui-monospace", "ui-rounded"]

        /// A typography style: the font stack, size and line height in points, the weight as
        /// CSS numbers it (100 to 1000), letter spacing in points.
        public struct TextStyle: Sendable, Equatable {
            public let families: [String]
            public let size: CGFloat
            public let weight: Int
            public let lineHeight: CGFloat?
            public let letterSpacing: CGFloat
        }
        """
}
