import JSON
import ThemeIndex
import ThemeVocabulary

/// One mode's colours as W3C design tokens (DTCG format and colour module 2025.10).
///
/// Each mode is a file of its own (`light.tokens.json`, `dark.tokens.json`, ...) rather than
/// one file with the Resolver module: Style Dictionary and Tokens Studio read token sets as
/// files and combine them per theme, while the Resolver module is newer and not yet read by
/// them. A token's `$description` names the theme and source that gave the value;
/// `$extensions["org.themed"].name` keeps the catalog's name when the token name had to change.
public struct DesignTokensExport: Sendable {
    public let table: ColorTable
    public let mode: ColorMode
    public let names: ExportNames

    public init(_ table: ColorTable, mode: ColorMode) {
        self.table = table
        self.mode = mode
        names = ExportNames(table.rows.map(\.name), style: .designToken)
    }

    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("$description", .string(CommentText.header(table, names: names, modes: [mode]).joined(separator: " ") + " Mode: \(mode.name) (\(mode.query))."))
        ]
        for row in table.rows {
            guard let entry = row.values[mode] else { continue }
            var token: [(String, JSONValue)] = [
                ("$type", "color"),
                ("$value", Self.value(entry.value)),
                ("$description", .string("\(entry.theme): \(entry.source)")),
            ]
            if names[row.name] != row.name { token.append(("$extensions", .object([("org.themed", .object([("name", .string(row.name))]))]))) }
            members.append((names[row.name], .object(token)))
        }
        return .object(members)
    }

    public var text: String { json.serialized(pretty: true) + "\n" }

    /// The colour module's value: the colour's own space (`srgb`, `display-p3`, `srgb-linear`;
    /// gray as sRGB), its components as stored, alpha, and the clipped 8-bit `hex` fallback.
    static func value(_ color: ColorValue) -> JSONValue {
        let rgba = color.unclippedRGBA ?? color.rgba
        let space = switch color.colorSpace {
        case .displayP3: "display-p3"
        case .extendedLinearSRGB: "srgb-linear"
        default: "srgb"
        }
        return .object([
            ("colorSpace", .string(space)),
            ("components", .array(rgba[0..<3].map(JSONValue.double))),
            ("alpha", .double(min(max(rgba[3], 0), 1))),
            ("hex", .string(String(color.hex.prefix(7)).lowercased())),
        ])
    }
}
