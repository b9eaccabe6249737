import ThemeIndex
import ThemeVocabulary

/// Every colour of a theme resolved for every mode, read from the index the same way the colour
/// route reads it (`IndexReader.resolve` with the mode's traits): what each export writes.
public struct ColorTable: Sendable {
    /// One colour's value in one mode, with where it came from.
    public struct Entry: Sendable, Hashable {
        public var value: ColorValue
        /// The theme and the source file that answered (relative to the themes folder).
        public var theme: String
        public var source: String
        /// For a colour token that is an alias of another: that token's name.
        public var aliasOf: String?

        public init(value: ColorValue, theme: String, source: String, aliasOf: String? = nil) {
            (self.value, self.theme, self.source, self.aliasOf) = (value, theme, source, aliasOf)
        }
    }

    public struct Row: Sendable {
        public var name: String
        public var values: [ColorMode: Entry]

        public init(name: String, values: [ColorMode: Entry]) {
            (self.name, self.values) = (name, values)
        }
    }

    public var theme: String
    /// Names what the theme holds (`ThemeInfo.revision`), so an export says which files made it.
    public var revision: String
    /// In the index's name order, which every export keeps.
    public var rows: [Row]
    /// Colours an export cannot write as values: those that name a system colour
    /// (`labelColor`), whose value depends on the device.
    public var systemColors: [String]

    public init(theme: String, revision: String, rows: [Row], systemColors: [String] = []) {
        self.theme = theme
        self.revision = revision
        self.rows = rows
        self.systemColors = systemColors
    }

    /// Resolves every colour name of `chain` (the theme and its parents) in every mode; for a
    /// token theme at the `contexts` of its modifiers chosen by name (`TraitRequest.contexts`).
    /// `relativePath` turns a source's path into the one exports show.
    public init(reading reader: IndexReader, chain: [ThemeInfo], contexts: String = "", relativePath: (String) -> String = { $0 }) throws {
        guard let theme = chain.first else { throw ExportError.noTheme }
        // One query per mode for the whole palette, not one per name and mode.
        var resolved: [ColorMode: [String: Resolution]] = [:]
        for mode in ColorMode.all {
            var traits = mode.traits
            traits.contexts = contexts
            resolved[mode] = Self.byName(try reader.resolveAll(.color, in: chain, for: traits))
        }
        self.init(theme: theme, names: try reader.names(.color, in: chain), resolved: resolved, relativePath: relativePath)
    }

    /// The table at each of `contexts` ("" for the defaults), the defaults read once: at a
    /// combination, only the names with variants of their own there are read again
    /// (`IndexReader.resolveOwnAtContexts`); every other answers as at the defaults. What a
    /// review of a token theme's combinations reads, most of which share most colours.
    public static func tables(reading reader: IndexReader, chain: [ThemeInfo], contexts: [String]) throws -> [String: ColorTable] {
        guard let theme = chain.first else { throw ExportError.noTheme }
        let names = try reader.names(.color, in: chain)
        var defaults: [ColorMode: [String: Resolution]] = [:]
        for mode in ColorMode.all {
            defaults[mode] = byName(try reader.resolveAll(.color, in: chain, for: mode.traits))
        }
        var tables: [String: ColorTable] = [:]
        for contexts in contexts {
            var resolved = defaults
            for mode in ColorMode.all where !contexts.isEmpty {
                var traits = mode.traits
                traits.contexts = contexts
                for own in try reader.resolveOwnAtContexts(.color, in: chain, for: traits) { resolved[mode]?[own.variant.name] = own }
            }
            tables[contexts] = ColorTable(theme: theme, names: names, resolved: resolved, relativePath: { $0 })
        }
        return tables
    }

    private static func byName(_ resolutions: [Resolution]) -> [String: Resolution] {
        Dictionary(resolutions.map { ($0.variant.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The rows of `names` (the index's order) from each mode's resolutions.
    private init(theme: ThemeInfo, names: [String], resolved: [ColorMode: [String: Resolution]], relativePath: (String) -> String) {
        var rows: [Row] = []
        var systemColors: [String] = []
        for name in names {
            var values: [ColorMode: Entry] = [:]
            var namesSystemColor = false
            for mode in ColorMode.all {
                guard let resolution = resolved[mode]?[name] else { continue }
                if resolution.variant.systemColor != nil { namesSystemColor = true }
                guard let value = resolution.variant.color, resolution.variant.systemColor == nil else { continue }
                values[mode] = Entry(value: value, theme: resolution.theme, source: relativePath(resolution.source.path),
                                     aliasOf: resolution.variant.aliasOf.isEmpty ? nil : resolution.variant.aliasOf)
            }
            if namesSystemColor {
                systemColors.append(name)
            } else if !values.isEmpty {
                rows.append(Row(name: name, values: values))
            }
        }
        self.init(theme: theme.name, revision: theme.revision, rows: rows, systemColors: systemColors)
    }

    /// Names with no value in `mode` (a theme with only some appearances): exports leave them
    /// out of that mode and say so.
    public func missing(in mode: ColorMode) -> [String] {
        rows.filter { $0.values[mode] == nil }.map(\.name)
    }
}

public enum ExportError: Error, Equatable, CustomStringConvertible {
    case noTheme
    case unknownFormat(String)
    case unknownMode(String)
    case badPrefix(String)
    /// An option (`light-dark`, `prefix`) asked of a format that does not take it, and those that do.
    case optionNotFor(String, ExportFormat, [ExportFormat])

    public var description: String {
        switch self {
        case .noTheme: "no theme to export"
        case .unknownFormat(let name): "unknown export format \(name) (expected \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .unknownMode(let name): "unknown mode \(name) (expected \(ColorMode.all.map(\.name).joined(separator: ", ")))"
        case .badPrefix(let prefix): "prefix \"\(prefix)\" must start with a letter and hold only letters, digits, - and _ (at most 32)"
        case .optionNotFor(let option, let format, let takers):
            "\(option) is not an option of the \(format.rawValue) export (only of \(takers.map(\.rawValue).joined(separator: ", ")))"
        }
    }
}
