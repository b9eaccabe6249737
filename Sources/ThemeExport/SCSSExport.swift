import JSON
import ThemeIndex

/// `_colors.scss`: the theme's colours and design tokens of every mode as Sass maps, for a
/// stylesheet built with Sass (`@import "colors"`):
///
/// - `$themed-modes` (`$<prefix>-modes` with a prefix, as every name below): the modes, in export order;
/// - `$themed-colors` and `$themed-tokens`: mode -> (name -> value), each value the text the CSS
///   export writes, as `unquote("...")` so that every Sass compiler passes CSS Color 4's syntax
///   through as written;
/// - `themed-color($name, $mode: "light")` and `themed-token(...)`: one value, an error naming
///   what is missing.
///
/// Names are the theme's own, as quoted map keys: none can collide. A mode a colour has no value
/// for has no key.
public struct SCSSExport: Sendable {
    public let table: ColorTable
    public let tokens: TokenTable
    /// What the variables and functions are named by: `themed`, or the export's prefix.
    public let namespace: String

    public init(_ table: ColorTable, tokens: TokenTable = .empty, prefix: String = "") {
        (self.table, self.tokens, namespace) = (table, tokens, prefix.isEmpty ? "themed" : prefix)
    }

    public var file: ExportFile {
        let web = TypeScriptExport(table, tokens: tokens)
        var text = web.headerLines.map { "// " + $0 + "\n" }.joined()
        text += "\n$\(namespace)-modes: (" + ColorMode.all.map { Self.quoted($0.name) }.joined(separator: ", ") + ");\n"
        text += "\n" + map("\(namespace)-colors", web.colorValues) + "\n" + map("\(namespace)-tokens", web.tokenValues)
        text += """

        @function \(namespace)-color($name, $mode: "light") {
          $values: map-get($\(namespace)-colors, $mode);
          @if $values == null { @error "\(namespace): no mode #{$mode}"; }
          @if not map-has-key($values, $name) { @error "\(namespace): no colour #{$name} in #{$mode}"; }
          @return map-get($values, $name);
        }

        @function \(namespace)-token($name, $mode: "light") {
          $values: map-get($\(namespace)-tokens, $mode);
          @if $values == null { @error "\(namespace): no mode #{$mode}"; }
          @if not map-has-key($values, $name) { @error "\(namespace): no token #{$name} in #{$mode}"; }
          @return map-get($values, $name);
        }

        """
        return ExportFile(path: "_colors.scss", contents: text, mediaType: "text/x-scss; charset=utf-8")
    }

    /// `$NAME: ("light": ("a": unquote("..."), ...), ...);`; an empty mode is `()`.
    private func map(_ name: String, _ entries: [(path: String, values: [ColorMode: String])]) -> String {
        let sorted = entries.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        var text = "$\(name): (\n"
        for mode in ColorMode.all {
            let members = sorted.compactMap { entry in entry.values[mode].map { "    \(Self.quoted(entry.path)): unquote(\(Self.quoted($0)))" } }
            text += "  \(Self.quoted(mode.name)): " + (members.isEmpty ? "()" : "(\n" + members.joined(separator: ",\n") + ",\n  )") + ",\n"
        }
        return text + ");\n"
    }

    /// A Sass string in double quotes: a quote, a backslash and `#{` escaped; control characters
    /// as CSS escapes (a name with a line break stays one string).
    static func quoted(_ text: String) -> String {
        var result = "\""
        var previous: Character?
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "{" where previous == "#": result += "\\{"
            default:
                if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
                    result += character.unicodeScalars.map { "\\" + String($0.value, radix: 16) + " " }.joined()
                } else {
                    result.append(character)
                }
            }
            previous = character
        }
        return result + "\""
    }
}
