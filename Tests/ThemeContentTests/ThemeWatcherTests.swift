import Foundation
import Synchronization
import Testing
import TestSupport
import ThemeContent

/// The folder watcher names the themes whose files changed, and only themes: what happens in a
/// hidden folder beside them is nobody's reload.
@Suite("the themes folder watcher")
struct ThemeWatcherTests {
    @Test("a release written and swapped in as a replica does (hidden staging, set aside, deleted) names the theme alone, never the hidden folders")
    func hiddenFoldersAreNoThemes() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let themes = fixtures.path("themes")
        let manager = FileManager.default
        for folder in ["brand", "other"] { try manager.createDirectory(atPath: "\(themes)/\(folder)", withIntermediateDirectories: true) }
        try Data("1".utf8).write(to: URL(fileURLWithPath: "\(themes)/brand/colors.json"))
        let named = Mutex<[String]>([])
        let watcher = try ThemeWatcher(directory: themes, settleTime: .milliseconds(50)) { theme in named.withLock { $0.append(theme) } }
        defer { watcher.stop() }

        // As `Materializer` writes a release: files in a hidden folder, swapped in, the old one
        // set aside and deleted.
        let staging = "\(themes)/.staging-brand-2"
        try manager.createDirectory(atPath: "\(staging)/Assets.xcassets", withIntermediateDirectories: true)
        try Data("2".utf8).write(to: URL(fileURLWithPath: "\(staging)/colors.json"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(staging)/Assets.xcassets/Contents.json"))
        try manager.moveItem(atPath: "\(themes)/brand", toPath: "\(themes)/.previous-brand-2")
        try manager.moveItem(atPath: staging, toPath: "\(themes)/brand")
        try manager.removeItem(atPath: "\(themes)/.previous-brand-2")
        // Written in place last, so due last (in-place writes wait for their quiet time).
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(themes)/other/colors.json"))

        #expect(waitUntil { named.withLock { $0.contains("other") } })
        let reported = Set(named.withLock { $0 })
        #expect(reported == ["brand", "other"], "\(reported)")
    }
}
