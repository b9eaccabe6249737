import ThemeIndex
import ThemeVocabulary

/// `<Theme>Colors.swift`: one dynamic colour per name for apps that do not ship the catalog.
/// Each colour holds its components for every mode and picks them by the trait collection
/// (UIKit), the appearance (AppKit) or through either (SwiftUI's `Color`). A mode the theme has
/// no value for takes its plain scheme's, then the other scheme's, so that every colour draws.
public struct SwiftExport: Sendable {
    public let table: ColorTable
    public let names: ExportNames

    public init(_ table: ColorTable) {
        self.table = table
        names = ExportNames(table.rows.map(\.name), style: .swiftIdentifier)
    }

    /// `LightColors` for theme `light`; `ThemeColors` when the theme name has no words.
    public var typeName: String {
        let words = NameStyle.words(of: table.theme)
        let typeName = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard let first = typeName.first, !first.isNumber else { return "Theme\(typeName)Colors" }
        return typeName + "Colors"
    }

    /// The fields of `DynamicColor`, one per mode, in `ColorMode.all` order.
    static let fields: [(ColorMode, String)] = [
        (.light, "light"), (.dark, "dark"), (.lightHighContrast, "lightHighContrast"), (.darkHighContrast, "darkHighContrast"),
        (.lightP3, "lightP3"), (.darkP3, "darkP3"),
    ]

    /// What a mode without a value of its own shows.
    public static func fallbacks(of mode: ColorMode) -> [ColorMode] {
        let other: ColorMode.Scheme = mode.scheme == .light ? .dark : .light
        return [mode, mode.base, ColorMode(other, highContrast: mode.highContrast, gamut: mode.gamut), ColorMode(other)]
    }

    public var file: ExportFile {
        ExportFile(path: "\(typeName).swift", contents: text, mediaType: "text/x-swift; charset=utf-8")
    }

    public var text: String {
        let type = typeName
        var out = CommentText.header(table, names: names, modes: ColorMode.all).map { "// \(CommentText.swift($0))\n" }.joined()
        out += """

        import SwiftUI
        #if canImport(UIKit)
        import UIKit
        #elseif canImport(AppKit)
        import AppKit
        #endif

        /// The colours of theme "\(CommentText.swift(table.theme))" for light and dark, normal and high contrast, sRGB
        /// and Display P3 screens.
        public enum \(type) {
            /// A colour's components in one mode.
            public struct Components: Sendable {
                public enum Space: Sendable { case sRGB, displayP3, linearSRGB }
                public let space: Space
                public let red: Double, green: Double, blue: Double, alpha: Double

                public init(_ space: Space, _ red: Double, _ green: Double, _ blue: Double, _ alpha: Double) {
                    (self.space, self.red, self.green, self.blue, self.alpha) = (space, red, green, blue, alpha)
                }
            }

            /// One colour in every mode.
            public struct DynamicColor: Sendable {
                public let light: Components, dark: Components
                public let lightHighContrast: Components, darkHighContrast: Components
                public let lightP3: Components, darkP3: Components

                /// High contrast wins over P3, as in the CSS export.
                public func components(dark isDark: Bool, highContrast: Bool, p3: Bool) -> Components {
                    switch (isDark, highContrast, p3) {
                    case (false, true, _): lightHighContrast
                    case (true, true, _): darkHighContrast
                    case (false, false, true): lightP3
                    case (true, false, true): darkP3
                    case (false, false, false): light
                    case (true, false, false): dark
                    }
                }
            }


        """
        for row in table.rows {
            out += "    /// \"\(CommentText.swift(row.name))\" from \(CommentText.swift(sourceSummary(row)))\n"
            let arguments = Self.fields.map { mode, field in
                let value = Self.fallbacks(of: mode).lazy.compactMap { row.values[$0]?.value }.first
                return "\(field): \(value.map(Self.components) ?? ".init(.sRGB, 0, 0, 0, 0)")"
            }
            out += "    public static let \(identifier(row.name)) = DynamicColor(\n"
            out += arguments.map { "        \($0)" }.joined(separator: ",\n") + "\n    )\n"
        }
        out += "}\n"
        out += """

        #if canImport(UIKit)
        extension \(type).Components {
            public var uiColor: UIColor {
                switch space {
                case .sRGB: UIColor(red: red, green: green, blue: blue, alpha: alpha)
                case .displayP3: UIColor(displayP3Red: red, green: green, blue: blue, alpha: alpha)
                case .linearSRGB: UIColor(red: Self.encoded(red), green: Self.encoded(green), blue: Self.encoded(blue), alpha: alpha)
                }
            }
        }

        extension \(type).DynamicColor {
            public var uiColor: UIColor {
                UIColor { traits in
                    components(dark: traits.userInterfaceStyle == .dark, highContrast: traits.accessibilityContrast == .high,
                               p3: traits.displayGamut == .P3).uiColor
                }
            }

            public var color: Color { Color(uiColor: uiColor) }
        }
        #elseif canImport(AppKit)
        extension \(type).Components {
            public var nsColor: NSColor {
                switch space {
                case .sRGB: NSColor(srgbRed: red, green: green, blue: blue, alpha: alpha)
                case .displayP3: NSColor(displayP3Red: red, green: green, blue: blue, alpha: alpha)
                case .linearSRGB: NSColor(srgbRed: Self.encoded(red), green: Self.encoded(green), blue: Self.encoded(blue), alpha: alpha)
                }
            }
        }

        extension \(type).DynamicColor {
            public var nsColor: NSColor {
                NSColor(name: nil) { appearance in
                    let match = appearance.bestMatch(from: [.aqua, .darkAqua, .accessibilityHighContrastAqua, .accessibilityHighContrastDarkAqua])
                    let dark = match == .darkAqua || match == .accessibilityHighContrastDarkAqua
                    let highContrast = match == .accessibilityHighContrastAqua || match == .accessibilityHighContrastDarkAqua
                    return components(dark: dark, highContrast: highContrast, p3: NSScreen.main?.canRepresent(.p3) == true).nsColor
                }
            }

            public var color: Color { Color(nsColor: nsColor) }
        }
        #endif

        extension \(type).Components {
            /// Linear to sRGB's transfer function, mirrored for negative extended values.
            static func encoded(_ linear: Double) -> Double {
                let magnitude = abs(linear)
                let encoded = magnitude <= 0.0031308 ? 12.92 * magnitude : 1.055 * pow(magnitude, 1 / 2.4) - 0.055
                return linear < 0 ? -encoded : encoded
            }
        }

        """
        return out
    }

    private func identifier(_ name: String) -> String {
        let exported = names[name]
        return NameStyle.swiftKeywords.contains(exported) ? "`\(exported)`" : exported
    }

    private func sourceSummary(_ row: ColorTable.Row) -> String {
        let sources = Set(row.values.values.map { "\($0.theme): \($0.source)" }).sorted()
        return sources.joined(separator: ", ")
    }

    static func components(_ color: ColorValue) -> String {
        let rgba = color.unclippedRGBA ?? color.rgba
        let space = switch color.colorSpace {
        case .displayP3: ".displayP3"
        case .extendedLinearSRGB: ".linearSRGB"
        default: ".sRGB"
        }
        return ".init(\(space), \(rgba.map(\.exportText).joined(separator: ", ")))"
    }

}
