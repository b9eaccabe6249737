import Foundation
import SQLite
import Testing
import TestSupport
@testable import ThemeIndex

/// A server's index waits for the disk at each sync; a command's scratch index (a check, a diff)
/// never does, and reads the same.
@Suite("index durability")
struct DurabilityTests {
    @Test("a scratch index's writes do not wait for the disk; a server's do", arguments: [
        (ThemeIndex.Durability.durable, 1 /* NORMAL */), (.scratch, 0 /* OFF */),
    ])
    func synchronousSetting(_ durability: ThemeIndex.Durability, _ expected: Int) throws {
        let fixtures = ThemeFixtures()
        defer { fixtures.remove() }
        fixtures.colorSet("light", "primary", [(nil, ["red": "1", "green": "0", "blue": "0"], [:])])
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"), durability: durability)
        let setting = try index.writer.connection.withLock { try $0.prepare("PRAGMA synchronous").rows().first?.int("synchronous") }
        #expect(setting == expected)
        _ = try index.writer.sync(themesDirectory: fixtures.root)
        #expect(try index.reader.themes().map(\.name) == ["light"])
    }
}
