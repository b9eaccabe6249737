import DesignTokens
import JSON
import ThemeIndex
import ThemeVocabulary

/// A theme's colours as design tokens with a resolver (Resolver module 2025.10): one `mode`
/// modifier whose contexts are the export's modes (light, dark, each with high contrast and on
/// P3), each an inline set of the colours in that mode, and the theme.json whose `traits` say
/// which of themed's traits each context is. Dropped into a theme folder, the two files answer
/// every colour as the theme they came from does: a catalog theme becomes a token theme.
public struct ResolverExport: Sendable {
    public let table: ColorTable
    public let names: ExportNames

    public init(_ table: ColorTable) {
        self.table = table
        names = ExportNames(table.rows.map(\.name), style: .designToken)
    }

    public var files: [ExportFile] {
        [ExportFile(path: "\(table.theme).resolver.json", contents: resolver.serialized(pretty: true) + "\n", mediaType: "application/design-tokens+json"),
         ExportFile(path: "theme.json", contents: settings.serialized(pretty: true) + "\n", mediaType: "application/json")]
    }

    /// Each mode's values (modes without their own value fall back as the routes do: the export
    /// holds what a request in that mode gets).
    var resolver: JSONValue {
        let contexts = ColorMode.all.map { mode -> (String, JSONValue) in
            let tokens = table.rows.compactMap { row -> (String, JSONValue)? in
                guard let entry = row.values[mode] ?? row.values[mode.base] else { return nil }
                return (names[row.name], .object([("$type", "color"), ("$value", entry.value.tokenValue)]))
            }
            return (mode.name, .array([.object(tokens)]))
        }
        return .object([
            ("$schema", "https://www.designtokens.org/schemas/2025.10/resolver.json"),
            ("version", "2025.10"),
            ("description", .string("The colours of theme \(table.theme) (revision \(table.revision)), exported by themed.")),
            ("modifiers", .object([("mode", .object([("contexts", .object(contexts)), ("default", .string(ColorMode.light.name))]))])),
            ("resolutionOrder", .array([.object([("$ref", "#/modifiers/mode")])])),
        ])
    }

    /// theme.json: the traits of each context.
    var settings: JSONValue {
        let contexts = ColorMode.all.map { mode -> (String, JSONValue) in
            var traits: [(String, JSONValue)] = [("appearance", .string(mode.scheme.rawValue))]
            if mode.highContrast { traits.append(("contrast", "high")) }
            if mode.gamut == .displayP3 { traits.append(("gamut", "p3")) }
            return (mode.name, .object(traits))
        }
        return .object([("traits", .object([("mode", .object(contexts))]))])
    }
}
