import ArgumentParser
import Foundation
import ThemeIndex
import ThemeVocabulary

/// `themed index`: build or update the SQLite index offline.
struct Index: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index a themes folder into an SQLite file without serving it.",
        discussion: "Exit status 1 when a theme has errors (what it cannot serve), unless --allow-errors; the index is written either way.")

    @Option(help: "Folder of themes.") var themes = "themes"
    @Option(help: "SQLite index file (created if missing).") var db = "var/themed.sqlite"
    @Flag(help: "Exit 0 though a theme has errors (what it can serve is indexed either way).") var allowErrors = false

    func run() throws {
        let folder = FilePaths.folder(of: db)
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let index = try ThemeIndex(databasePath: db)
        let report = try index.writer.sync(themesDirectory: URL(fileURLWithPath: themes).standardizedFileURL.path)
        let indexed = try index.reader.themes()
        for theme in indexed {
            print("\(theme.name): generation \(theme.generation), \(theme.colorCount) colors, \(theme.imageCount) images\(theme.error.isEmpty ? "" : "\n  errors: \(theme.error)")")
        }
        print("\(report.reindexedSources.count) sources indexed, \(report.unchangedSources) unchanged")
        let degraded = indexed.filter { !$0.error.isEmpty }.map(\.name)
        if !report.errors.isEmpty || (!degraded.isEmpty && !allowErrors) {
            if !degraded.isEmpty { FileHandle.standardError.write(Data("themed index: \(degraded.joined(separator: ", ")) have errors (--allow-errors to exit 0)\n".utf8)) }
            throw ExitCode(1)
        }
    }
}
