import ThemeIndex

/// A file an export writes: its path inside the export folder and its bytes.
public struct ExportFile: Sendable, Equatable {
    public var path: String
    public var contents: String
    /// The media type the routes serve it as.
    public var mediaType: String
}

/// The formats `themed export` writes and the routes serve. Each is a pure function of the
/// `ColorTable`: the same table gives the same bytes.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// `colors.css`: custom properties for every mode (`CSSExport`).
    case css
    /// `tokens/<mode>.tokens.json`: W3C design tokens, one file per mode (`DesignTokensExport`).
    case dtcg
    /// `values/colors.xml` and `values-night/colors.xml` (`AndroidExport`).
    case android
    /// `<Theme>Colors.swift`: a dynamic colour per name for UIKit, AppKit and SwiftUI (`SwiftExport`).
    case swift
    /// `<Theme>ColorScheme.kt`: light and dark objects of Compose colours (`ComposeExport`).
    case compose
    /// `<theme>.resolver.json` and `theme.json`: the theme as design tokens with a resolver whose
    /// `mode` modifier has a context per mode, and the traits each stands for (`ResolverExport`):
    /// a theme folder of these two files answers every colour as the theme does.
    case resolver
    /// `colors.ts`: the colours and design tokens of every mode as a typed ES module (`TypeScriptExport`).
    case ts
    /// `colors.js` and `colors.d.ts`: the same as an ES module and its types (`TypeScriptExport`).
    case js
    /// `_colors.scss`: Sass maps of every mode and lookup functions (`SCSSExport`).
    case scss
    /// `theme.css`: Tailwind CSS v4's `@theme` with the dark scheme as a custom variant (`TailwindExport`).
    case tailwind

    public init(name: String) throws(ExportError) {
        guard let format = ExportFormat(rawValue: name) else { throw .unknownFormat(name) }
        self = format
    }

    /// The formats whose names `ExportOptions.prefix` can start: those that share a namespace
    /// with other systems' names (a page's custom properties, an app's resources).
    public static let takingPrefix: [ExportFormat] = [.css, .android, .scss, .tailwind]

    /// The files for `table` (and the theme's other design tokens, `tokens`, where the format
    /// writes them; DTCG writes a token theme as its tokens are), written as `options` say
    /// (`ExportOptions.check(for:)` tells which options a format takes).
    public func files(for table: ColorTable, tokens: TokenTable = .empty, options: ExportOptions = ExportOptions.plain) -> [ExportFile] {
        switch self {
        case .css:
            let css = CSSExport(table, tokens: tokens, references: options.references, lightDark: options.lightDark, prefix: options.prefix)
            return [ExportFile(path: "colors.css", contents: css.text, mediaType: "text/css; charset=utf-8")]
        case .dtcg: return ColorMode.all.map { mode in
            ExportFile(path: "tokens/\(mode.name).tokens.json", contents: DesignTokensExport(table, mode: mode, document: tokens.documents[mode]).text,
                       mediaType: "application/design-tokens+json")
        }
        case .android: return AndroidExport(table, tokens: tokens, prefix: options.prefix).files
        case .swift: return [SwiftExport(table).file] + [SwiftTokenExport(tokens, colors: SwiftExport(table)).file].compactMap { $0 }
        case .compose: return [ComposeExport(table).file] + [ComposeTokenExport(tokens, colors: ComposeExport(table)).file].compactMap { $0 }
        case .resolver: return ResolverExport(table).files
        case .ts: return [TypeScriptExport(table, tokens: tokens).typescript]
        case .js: return TypeScriptExport(table, tokens: tokens).javascript
        case .scss: return [SCSSExport(table, tokens: tokens, prefix: options.prefix).file]
        case .tailwind: return [TailwindExport(table, tokens: tokens, prefix: options.prefix).file]
        }
    }

    /// Whether it writes the theme's design tokens beside its colours (all but `resolver`, which
    /// is the colours as tokens).
    public var writesTokens: Bool { self != .resolver }

    /// What an export could not write as asked, one line each, for the CLI to print.
    public func warnings(for table: ColorTable, prefix: String = "") -> [String] {
        let style: NameStyle? = switch self {
        case .css, .tailwind: .cssCustomProperty
        case .dtcg: .designToken
        case .android: .androidResource
        case .swift: .swiftIdentifier
        case .compose: .kotlinIdentifier
        case .resolver: .designToken
        // The theme's names are string keys: nothing to collide.
        case .ts, .js, .scss: nil
        }
        let names = self == .tailwind ? table.rows.map { "color \(prefix) \(NameStyle.words(of: $0.name).isEmpty ? "color" : $0.name)" } : table.rows.map(\.name)
        var lines = style.map { ExportNames(names, style: $0, prefix: self == .tailwind ? "" : prefix).report.map { "name collision: " + $0 } } ?? []
        if !table.systemColors.isEmpty {
            lines.append("not exported (system colours): \(table.systemColors.joined(separator: ", "))")
        }
        return lines
    }
}

/// Text for a comment: control characters (line breaks included) become spaces and each
/// format's comment terminator is broken up, so a colour name cannot end a comment early.
enum CommentText {
    static func css(_ text: String) -> String { plain(text).replacingAll("*/", with: "* /") }
    static func xml(_ text: String) -> String { plain(text).replacingAll("--", with: "- -") }
    static func swift(_ text: String) -> String { plain(text) }

    private static func plain(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0 }))
    }

    /// The lines every export starts with: what it is, and what it left out or renamed.
    static func header(_ table: ColorTable, names: ExportNames, modes: [ColorMode]) -> [String] {
        var lines = ["Colours of theme \"\(table.theme)\" (revision \(table.revision)), exported by themed. Do not edit: export again."]
        lines += names.report.map { "Name collision: " + $0 }
        for mode in modes {
            let missing = table.missing(in: mode)
            if !missing.isEmpty { lines.append("No value in \(mode.name): \(missing.map { "\"\($0)\"" }.joined(separator: ", "))") }
        }
        if !table.systemColors.isEmpty {
            lines.append("System colours, not exported: \(table.systemColors.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        return lines
    }
}

extension String {
    /// Replaces until none is left, so that `*/*/` or `---` cannot survive as a terminator.
    func replacingAll(_ target: String, with replacement: String) -> String {
        var result = self
        while result.contains(target) { result = result.replacing(target, with: replacement) }
        return result
    }
}

extension Double {
    /// As every export writes a number: whole numbers without a fraction (`4`), others as Swift
    /// writes them shortest (`0.25`, `1.618`), which CSS, XML, Kotlin and Swift all read back as
    /// the same value; a value no format can hold (infinite, NaN) as `0`.
    var exportText: String {
        guard isFinite else { return "0" }
        return self == rounded() && abs(self) < 1e15 ? String(Int(self)) : "\(self)"
    }
}
