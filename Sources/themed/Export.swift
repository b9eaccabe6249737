import AndroidResources
import ArgumentParser
import BlobStore
import Foundation
import ThemeContent
import ThemeExport
import ThemeIndex
import ThemeVocabulary

/// `themed export`: a theme's colours as CSS, design tokens, Swift or Compose, the same bytes the
/// server's export routes answer; with `--format android`, a whole resource folder (the colours
/// the route answers, drawables at every density, strings with plurals: `AndroidResourceFolder`).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a theme's colours and design tokens as CSS custom properties, W3C design tokens, Android resources, Swift, Compose, TypeScript, JavaScript, Sass or Tailwind files.",
        discussion: "Names are made safe for each format by the rule in docs/EXPORTS.md; collisions are printed, never merged.")

    @Argument(help: "The theme to export.") var theme: String
    @Option(help: "css, dtcg, android (colours, drawables and strings), swift, compose, resolver, ts (a typed ES module), js (an ES module and its .d.ts), scss (Sass maps), tailwind (Tailwind CSS v4's @theme), or bootstrap (the palettes a client fetches first, for an app to ship).") var format: String
    @Option(name: [.customShort("o"), .long], help: "Folder to write into (created if missing).") var output: String
    @Option(help: "Folder of themes.") var themes = "themes"
    @Option(help: "An SQLite index to use and update (default: a temporary one, removed afterwards).") var db: String?
    @Flag(help: "Keep design tokens' aliases as references where the format can (CSS: var(--...)).") var references = false
    @Flag(name: .customLong("light-dark"), help: "CSS: one :root block whose colours are light-dark(light, dark), chosen by color-scheme.") var lightDark = false
    @Option(help: "Words before every name (css, tailwind, scss, android): ds gives --ds-primary, ds_primary, $ds-colors.") var prefix = ""
    @Option(name: .customLong("context"), help: "MODIFIER=CONTEXT: a token theme's modifier chosen by name, as ?MODIFIER=CONTEXT on the export routes (repeatable).")
    var contexts: [String] = []

    func run() throws {
        // `bootstrap` is not a format of the colours but the server's first answers (`Bootstrap`).
        let format: ExportFormat?
        if self.format == "bootstrap" {
            format = nil
        } else {
            do { format = try ExportFormat(name: self.format) } catch { throw ValidationError(error.description) }
        }
        let options: ExportOptions
        do {
            options = try ExportOptions(references: references, lightDark: lightDark, prefix: prefix)
            if let format { try options.check(for: format) }
        } catch { throw ValidationError(error.description) }
        let themesDirectory = URL(fileURLWithPath: themes).standardizedFileURL.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: themesDirectory, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("themes folder \(themesDirectory) does not exist")
        }

        let temporary = db == nil ? FileManager.default.temporaryDirectory.appendingPathComponent("themed-export-\(UUID().uuidString)").path : nil
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        let databasePath = db ?? "\(temporary ?? "")/index.sqlite"
        let folder = FilePaths.folder(of: databasePath)
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }

        let index = try ThemeIndex(databasePath: databasePath)
        // A temporary index holds the theme and its parents alone: the rest of the folder is not read.
        _ = try index.writer.sync(themesDirectory: themesDirectory, lineOf: db == nil ? theme : nil)
        let loaded = try index.reader.themes()
        guard loaded.contains(where: { $0.name == theme }) else {
            let names = ThemeFolder.discover(in: themesDirectory).map(\.name)
            throw ValidationError("no theme named \(theme) in \(themesDirectory) (themes: \(names.joined(separator: ", ")))")
        }
        guard let format else {
            let url = URL(fileURLWithPath: output).appendingPathComponent("themed-bootstrap.json")
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(try Bootstrap.file(theme: theme, index: index, themesDirectory: themesDirectory)).write(to: url, options: .atomic)
            print(url.path)
            return
        }
        let chain = try ThemeInfo.chain(of: theme, in: loaded)
        let chosen = try Self.contexts(contexts, of: index.reader.tokenOwner(in: chain)?.source.modifiers ?? [])
        let table = try ColorTable(reading: index.reader, chain: chain, contexts: chosen) { path in
            path.hasPrefix(themesDirectory + "/") ? String(path.dropFirst(themesDirectory.count + 1)) : path
        }

        let tokens = try TokenTable(reading: index.reader, chain: chain, contexts: chosen)
        var files = format.files(for: table, tokens: tokens, options: options).map { (path: $0.path, bytes: Array($0.contents.utf8)) }
        var warnings = format.warnings(for: table, prefix: options.prefix)
        if format == .android {
            // Images are made by the coders of the image routes, kept in a blob store beside the index.
            let content = ContentStore(blobs: try BlobStore(directory: FilePaths.directory(of: databasePath) + "/blobs"))
            let resources = try AndroidResourceFolder(chain: chain, colors: table, tokens: tokens, reader: index.reader, content: content, prefix: options.prefix)
            files = resources.files.map { ($0.path, $0.bytes) }
            warnings = resources.problems
        }
        for file in files {
            let url = URL(fileURLWithPath: output).appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url, options: .atomic)
            print(url.path)
        }
        for warning in warnings {
            FileHandle.standardError.write(Data("themed export: \(warning)\n".utf8))
        }
    }

    /// The contexts `--context MODIFIER=CONTEXT` choose, as the export routes read them from the
    /// query; an unknown modifier or context is refused naming the valid ones.
    static func contexts(_ given: [String], of modifiers: [TokenModifier]) throws -> String {
        guard !given.isEmpty else { return "" }
        var pairs: [(String, String)] = []
        for entry in given {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else { throw ValidationError("--context \(entry): give MODIFIER=CONTEXT") }
            pairs.append((String(entry[..<equals]), String(entry[entry.index(after: equals)...])))
        }
        for (name, _) in pairs where !modifiers.contains(where: { $0.name == name }) {
            throw ValidationError(modifiers.isEmpty ? "--context \(name): this theme's tokens have no modifiers"
                : "--context \(name): no such modifier; the modifiers are \(modifiers.map(\.name).joined(separator: ", "))")
        }
        switch TokenModifier.requested(pairs, of: modifiers) {
        case .success(let contexts): return contexts
        case .failure(let error): throw ValidationError("--context: \(error.message)")
        }
    }
}
