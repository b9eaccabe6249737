import Foundation
import Synchronization
import Testing
import TestSupport
@testable import ThemeContent

/// The folder watcher names the themes whose files changed, and only themes: what happens in a
/// hidden folder beside them is nobody's reload.
@Suite("the themes folder watcher")
struct ThemeWatcherTests {
    @Test("a release written and swapped in as a replica does (hidden staging, set aside, deleted) names the theme alone, once, as swapped in; never the hidden folders")
    func hiddenFoldersAreNoThemes() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let themes = fixtures.path("themes")
        let manager = FileManager.default
        for folder in ["brand", "other"] { try manager.createDirectory(atPath: "\(themes)/\(folder)", withIntermediateDirectories: true) }
        try Data("1".utf8).write(to: URL(fileURLWithPath: "\(themes)/brand/colors.json"))
        let named = Mutex<[ThemeWatcher.Change]>([])
        let watcher = try ThemeWatcher(directory: themes, settleTime: .milliseconds(50)) { change in named.withLock { $0.append(change) } }
        defer { watcher.stop() }

        // As `Materializer` writes a release: files in a hidden folder, swapped in, the old one
        // set aside, and deleted once the swap was told.
        let staging = "\(themes)/.staging-brand-2"
        try manager.createDirectory(atPath: "\(staging)/Assets.xcassets", withIntermediateDirectories: true)
        try Data("2".utf8).write(to: URL(fileURLWithPath: "\(staging)/colors.json"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: "\(staging)/Assets.xcassets/Contents.json"))
        try manager.moveItem(atPath: "\(themes)/brand", toPath: "\(themes)/.previous-brand-2")
        try manager.moveItem(atPath: staging, toPath: "\(themes)/brand")
        #expect(waitUntil { !named.withLock { $0 }.isEmpty })
        try manager.removeItem(atPath: "\(themes)/.previous-brand-2")
        // Written in place last, so due last (in-place writes wait for their quiet time).
        try Data("x".utf8).write(to: URL(fileURLWithPath: "\(themes)/other/colors.json"))

        #expect(waitUntil { named.withLock { $0.contains { $0.theme == "other" } } })
        // The folder set aside is watched no more under the theme's name: its deletion names nothing.
        #expect(named.withLock { $0 } == [ThemeWatcher.Change(theme: "brand", isSwappedIn: true), ThemeWatcher.Change(theme: "other", isSwappedIn: false)])

        // A file written in the folder swapped in is a change in it, watched under its name.
        try Data("3".utf8).write(to: URL(fileURLWithPath: "\(themes)/brand/colors.json"))
        #expect(waitUntil { named.withLock { $0.count == 3 } })
        #expect(named.withLock { $0.last } == ThemeWatcher.Change(theme: "brand", isSwappedIn: false))
    }

    @Test("an idle watcher sleeps until a file changes; stopped, it ends at once")
    func idleWatcherSleeps() throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        let themes = fixtures.path("themes")
        try FileManager.default.createDirectory(atPath: "\(themes)/brand", withIntermediateDirectories: true)
        let named = Mutex<[String]>([])
        let watcher = try ThemeWatcher(directory: themes, settleTime: .milliseconds(50)) { change in named.withLock { $0.append(change.theme) } }
        let started = ContinuousClock.now
        // Watched for a while with nothing changing: the old loop woke every 20 ms, 15 times here.
        #expect(waitUntil { ContinuousClock.now - started > .milliseconds(300) })
        #expect(watcher.wakeups.load(ordering: .relaxed) <= 1, "woke \(watcher.wakeups.load(ordering: .relaxed)) times with nothing to do")

        try Data("1".utf8).write(to: URL(fileURLWithPath: "\(themes)/brand/colors.json"))
        #expect(waitUntil { named.withLock { $0 } == ["brand"] }, "an event wakes it, and the change falls due")
        let stopping = ContinuousClock.now
        watcher.stop()
        #expect(ContinuousClock.now - stopping < .seconds(1), "stop wakes the thread: no timeout to wait out")
    }
}
