import ArgumentParser
import Foundation
import ThemeIndex

/// `themed index`: build or update the SQLite index offline.
struct Index: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Index a themes folder into an SQLite file without serving it.")

    @Option(help: "Folder of themes.") var themes = "themes"
    @Option(help: "SQLite index file (created if missing).") var db = "var/themed.sqlite"

    func run() throws {
        let folder = (db as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let index = try ThemeIndex(databasePath: db)
        let report = try index.writer.sync(themesDirectory: URL(fileURLWithPath: themes).standardizedFileURL.path)
        for theme in try index.reader.themes() {
            print("\(theme.name): generation \(theme.generation), \(theme.colorCount) colors, \(theme.imageCount) images\(theme.error.isEmpty ? "" : "\n  errors: \(theme.error)")")
        }
        print("\(report.reindexedSources.count) sources indexed, \(report.unchangedSources) unchanged")
        if !report.errors.isEmpty { throw ExitCode(1) }
    }
}
