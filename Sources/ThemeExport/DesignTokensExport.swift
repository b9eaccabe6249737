import DesignTokens
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
///
/// A theme of design tokens is written as its tokens are, not flattened to its colours: the
/// mode's resolution (`/tokens` at the contexts the mode's traits choose) with every type, in its
/// groups, and each token that is an alias of another written as the alias (`"{color.gray.0}"`),
/// so that a tool reading the file resolves what themed resolved.
public struct DesignTokensExport: Sendable {
    public let table: ColorTable
    public let mode: ColorMode
    public let names: ExportNames
    /// The mode's resolution, for a theme of design tokens.
    public let document: JSONValue?

    public init(_ table: ColorTable, mode: ColorMode, document: JSONValue? = nil) {
        self.table = table
        self.mode = mode
        self.document = document
        names = ExportNames(table.rows.map(\.name), style: .designToken)
    }

    public var json: JSONValue {
        if let document {
            let description = "Design tokens of theme \"\(table.theme)\" (revision \(table.revision)), exported by themed. Do not edit: export again. "
                + "Mode: \(mode.name) (\(mode.query))."
            guard case .object(let members) = Self.restoringAliases(document) else { return document }
            return .object([("$description", .string(description))] + members.filter { $0.0 != "$description" })
        }
        var members: [(String, JSONValue)] = [
            ("$description", .string(CommentText.header(table, names: names, modes: [mode]).joined(separator: " ") + " Mode: \(mode.name) (\(mode.query))."))
        ]
        for row in table.rows {
            guard let entry = row.values[mode] else { continue }
            var token: [(String, JSONValue)] = [
                ("$type", "color"),
                ("$value", entry.value.tokenValue),
                ("$description", .string("\(entry.theme): \(entry.source)")),
            ]
            if names[row.name] != row.name { token.append(("$extensions", .object([("org.themed", .object([("name", .string(row.name))]))]))) }
            members.append((names[row.name], .object(token)))
        }
        return .object(members)
    }

    public var text: String { json.serialized(pretty: true) + "\n" }

    /// The document with each token the index noted as an alias of another
    /// (`$extensions["org.themed"].aliasOf`, the token it names first) written as that alias,
    /// and the note itself dropped (an extension left empty goes too).
    static func restoringAliases(_ value: JSONValue) -> JSONValue {
        guard case .object(let members) = value else { return value }
        if members.contains(where: { $0.0 == "$value" }) {
            guard case .array(let targets)? = value["$extensions"]?["org.themed"]?["aliasOf"], case .string(let target)? = targets.first else { return value }
            return .object(members.compactMap { name, member in
                switch name {
                case "$value": return (name, .string("{\(target)}"))
                case "$extensions":
                    guard case .object(let extensions) = member else { return (name, member) }
                    let kept = extensions.compactMap { key, ext -> (String, JSONValue)? in
                        guard key == "org.themed", case .object(let own) = ext else { return (key, ext) }
                        let rest = own.filter { $0.0 != "aliasOf" }
                        return rest.isEmpty ? nil : (key, .object(rest))
                    }
                    return kept.isEmpty ? nil : (name, .object(kept))
                default: return (name, member)
                }
            })
        }
        return .object(members.map { ($0.0, $0.0.hasPrefix("$") ? $0.1 : restoringAliases($0.1)) })
    }
}
