import ArgumentParser
import Foundation
import JSON
import ThemeBundle
import ThemeExport
import ThemeIndex
import ThemeVocabulary

/// `themed check THEME_FOLDER`: a design team's CI step. The theme is read exactly as the server
/// reads it (indexed, with the themes its theme.json names as parents, from the folder beside
/// it), and what the server would report is printed: its errors (what cannot be served) and its
/// warnings (what was served though its format does not allow it).
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a theme folder as the server reads it: print its errors and warnings.",
        discussion: """
            Exit status 0 when the theme has no errors, 1 when it has (every token, image or file that \
            cannot be served is one, with its file and JSON pointer where it has them), and with --strict \
            2 when it has only warnings. Parent themes (theme.json "parent") are read from the folder \
            beside it. Example: themed check design/brand --strict
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Argument(help: "The theme folder (or a lone .car file).") var theme: String
    @Flag(help: "Fail (exit status 2) on warnings too.") var strict = false
    @Option(help: "text, or json (one object: theme, status, errors, warnings).") var format: Format = .text

    func run() throws {
        let path = URL(fileURLWithPath: theme).standardizedFileURL.path
        let (info, table, settings) = try Self.read(path)
        let contrast = ContrastReport(table: table, settings: settings)
        var errors = info.error.split(separator: "\n").map(String.init)
        var warnings = info.warning.split(separator: "\n").map(String.init)
        // Contrast pairs below their minimum: errors with policy "refuse", else warnings.
        let lines = contrast.failures.map(ContrastReport.describe)
        if contrast.refuses { errors += lines } else { warnings += lines }
        switch format {
        case .json:
            print(JSONValue.object([
                ("theme", .string(info.name)), ("status", .string(errors.isEmpty ? "ok" : "degraded")),
                ("errors", .array(errors.map(JSONValue.string))), ("warnings", .array(warnings.map(JSONValue.string))),
            ]).serialized(pretty: true))
        case .text:
            for error in errors { print("error: \(error)") }
            for warning in warnings { print("warning: \(warning)") }
            print("\(info.name): \(Self.count(errors.count, "error")), \(Self.count(warnings.count, "warning"))")
        }
        if !errors.isEmpty { throw ExitCode(1) }
        if strict, !warnings.isEmpty { throw ExitCode(2) }
    }

    /// The theme at `path` as a sync indexes it: in a scratch themes folder that links it and
    /// its ancestors (never the rest of the folder beside it, which may hold anything).
    /// The theme at `path` as a sync indexes it, its colours in every mode, and its settings.
    static func read(_ path: String) throws -> (info: ThemeInfo, colors: ColorTable, settings: ThemeSettings) {
        let read = try readWhole(path)
        return (read.info, read.colors, read.settings)
    }

    /// A theme as `read` reads it, with its other design tokens and its strings too (`themed diff`).
    static func readWhole(_ path: String) throws -> (info: ThemeInfo, colors: ColorTable, settings: ThemeSettings, tokens: TokenTable, strings: StringTable) {
        let fileName = (path as NSString).lastPathComponent
        let isCatalog = fileName.hasSuffix(".car")
        let name = isCatalog ? String(fileName.dropLast(4)) : fileName
        guard isCatalog ? FileSystem.isRegularFile(path) : FileSystem.isDirectory(path) else {
            throw Startup.failure("\(path): no such theme folder or .car file")
        }
        guard ThemeName.isValid(name) else { throw Startup.failure("\(fileName): not a theme name (\(ThemeName.rule))") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("themed-check-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let themes = scratch + "/themes"
        try FileManager.default.createDirectory(atPath: themes, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: "\(themes)/\(fileName)", withDestinationPath: path)
        // The parents theme.json names, from the folder beside it, as the server would find them.
        let beside = (path as NSString).deletingLastPathComponent
        var next = isCatalog ? nil : (try? ThemeSettings(folder: path))?.parent
        var linked: Set<String> = [name]
        while let parent = next, ThemeName.isValid(parent), linked.insert(parent).inserted, linked.count <= 16 {
            let folder = "\(beside)/\(parent)"
            if FileSystem.isDirectory(folder) {
                try FileManager.default.createSymbolicLink(atPath: "\(themes)/\(parent)", withDestinationPath: folder)
                next = (try? ThemeSettings(folder: folder))?.parent
            } else if FileSystem.isRegularFile(folder + ".car") {
                try FileManager.default.createSymbolicLink(atPath: "\(themes)/\(parent).car", withDestinationPath: folder + ".car")
                next = nil
            } else {
                next = nil
            }
        }
        let index = try ThemeIndex(databasePath: scratch + "/index.sqlite")
        _ = try index.writer.sync(themesDirectory: themes)
        let all = try index.reader.themes()
        guard let info = all.first(where: { $0.name == name }) else {
            throw Startup.failure("\(path): not read as a theme")
        }
        let settings = isCatalog ? ThemeSettings() : ((try? ThemeSettings(folder: path)) ?? ThemeSettings())
        let chain = (try? ThemeInfo.chain(of: name, in: all)) ?? [info]
        let bundles = chain.flatMap(\.sources).compactMap(\.bundle)
        let localizations = Set(bundles.flatMap(\.availableLocalizations) + bundles.compactMap(\.developmentRegion)).sorted()
        return (info, try ColorTable(reading: index.reader, chain: chain), settings, try TokenTable(reading: index.reader, chain: chain),
                try StringTable(reading: index.reader, chain: chain, localizations: localizations))
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
