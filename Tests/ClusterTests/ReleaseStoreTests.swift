@testable import Cluster
import Hashing
import Foundation
import Synchronization
import Testing
import TestSupport

/// What teams' releases keep in PostgreSQL: tokens, history, retention, rollbacks and schedules.
@Suite("release store", .serialized, .needsPostgres)
struct ReleaseStoreTests {
    static func files(_ value: String) -> [(path: String, bytes: [UInt8])] { ClusterTests.files(value) }

    static func count(_ table: String, _ url: String) throws -> Int {
        Int(try PostgresConnection(url: url).execute("SELECT count(*) FROM \(table)").values.first?.first??.description ?? "") ?? -1
    }

    @Test("a token is shown once, kept as its hash, checked against its globs and permissions, and revoked")
    func tokens() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let secret = try store.createToken(name: "brand-team", themes: ["brand-*", "shared"], permissions: [.publish])
        #expect(secret.hasPrefix("themed_") && secret.count == 7 + 64)
        let stored = try PostgresConnection(url: postgres.url).execute("SELECT hash FROM themed_token").values
        #expect(stored.count == 1 && stored[0][0] != secret && stored[0][0]?.count == 64, "only the SHA-256 is kept")

        let token = try #require(try store.token(forSecret: secret))
        #expect(token.name == "brand-team" && token.allows(.publish, theme: "brand-acme") && token.allows(.publish, theme: "shared"))
        #expect(!token.allows(.publish, theme: "other") && !token.allows(.activate, theme: "brand-acme"))
        #expect(try store.token(forSecret: secret + "0") == nil && store.token(forSecret: "") == nil)
        #expect(try store.tokens().map(\.name) == ["brand-team"])
        #expect(throws: ClusterError.self) { try store.createToken(name: "brand-team", themes: ["*"], permissions: [.publish]) }
        #expect(throws: ClusterError.self) { try store.createToken(name: "has space", themes: ["*"], permissions: [.publish]) }
        #expect(throws: ClusterError.self) { try store.createToken(name: "nothing", themes: ["*"], permissions: []) }

        #expect(try store.revokeToken(name: "brand-team"))
        #expect(try store.token(forSecret: secret) == nil)
        #expect(try !store.revokeToken(name: "brand-team"))
        let audit = try PostgresConnection(url: postgres.url).execute("SELECT action, detail FROM themed_audit ORDER BY id").values
        #expect(audit.map { $0[0] ?? "" } == ["token-create", "token-revoke"])
    }

    @Test("the history keeps the newest N releases a theme has; the blobs only dropped releases used go in the same transaction; a rollback is a new release")
    func retentionAndRollback() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        var generations: [Int64] = []
        for number in 1...5 { generations.append(try store.publish(theme: "light", files: Self.files("colour \(number)"), by: "team-\(number)", keep: 3)) }
        try store.publish(theme: "dark", files: Self.files("colour 1"), keep: 3)
        let history = try store.history(of: "light")
        #expect(history.map(\.generation) == Array(generations.suffix(3).reversed()), "newest first, three kept")
        #expect(history.map(\.publisher) == ["team-5", "team-4", "team-3"] && history.allSatisfy { $0.files == 2 && !$0.retired })
        #expect(Set(history.map(\.digest)).count == 3 && history[0].publishedAt.hasSuffix("Z"))
        // Contents.json (shared), colours 3, 4, 5 and colour 1, which dark still uses.
        #expect(try Self.count("themed_blob", postgres.url) == 5)
        #expect(throws: ClusterError.noSuchRelease("light", generations[0])) { try store.rollback(theme: "light", to: generations[0], by: "ops") }

        let rolled = try store.rollback(theme: "light", to: generations[2], by: "ops", keep: 3)
        let newest = try #require(try store.history(of: "light").first)
        #expect(newest.generation == rolled && newest.rollbackOf == generations[2] && newest.digest == history[2].digest && newest.publisher == "ops")
        #expect(try store.latestReleases().first { $0.theme == "light" }?.generation == rolled)
        #expect(try store.history(of: "light").map(\.generation) == [rolled, generations[4], generations[3]])
        #expect(try Self.count("themed_blob", postgres.url) == 5, "generation 3 went, but not its colour's blob: the rollback uses it")
    }

    @Test("a publish asks the store once for the contents it lacks and sends only those, without waiting for each: three round trips whatever its files")
    func publishQuestions() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        func files(_ count: Int, _ prefix: String) -> [(path: String, bytes: [UInt8])] {
            (0..<count).map { ("Theme.xcassets/c\($0).colorset/Contents.json", Array("\(prefix) \($0)".utf8)) }
        }
        func questions(_ theme: String, _ files: [(path: String, bytes: [UInt8])]) throws -> Int {
            let before = store.roundTrips
            try store.publish(theme: theme, files: files)
            return store.roundTrips.since(before).count
        }
        _ = try questions("seed", files(40, "kept"))
        // Which contents it lacks; the release's generation; COMMIT, which waits for the rest.
        #expect(try questions("two", files(2, "kept")) == 3)
        #expect(try questions("forty", files(40, "kept")) == 3, "contents the store has cost nothing per file")
        #expect(try questions("new", files(40, "new")) == 3, "contents the store lacks are sent without waiting for each")
        // What the theme's current release uses, read with the parents, is not asked again.
        let held = try store.currentReleases(publishing: "new").contents
        let before = store.roundTrips
        try store.publish(theme: "new", paths: files(40, "new").map(\.path), by: "team", held: held) { files(40, "new")[$0].bytes }
        #expect(store.roundTrips.since(before).count == 2, "the release's generation, then COMMIT")
        let release = try #require(try store.latestReleases().first { $0.theme == "new" })
        #expect(release.files.count == 40 && Set(release.files.map(\.hash)).count == 40)
        #expect(try Self.count("themed_release_blob WHERE theme = 'new' AND generation = \(release.generation)", postgres.url) == 40)
        let seventh = try #require(release.files.first { $0.path == "Theme.xcassets/c7.colorset/Contents.json" })
        #expect(try store.blob(seventh.hash) == Array("new 7".utf8))
    }

    @Test("a release cannot name a blob the store lacks: a publish told a content is held that is not asks the store, and stores it")
    func heldContentGone() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let bytes = Array("{\"colors\": []}".utf8)
        let hash = ContentHash.of(bytes).hex
        // As a blob another theme's retention dropped after the command read the current releases.
        try store.publish(theme: "light", paths: ["Theme.xcassets/Contents.json"], by: "team", held: [hash]) { _ in bytes }
        #expect(try store.blob(hash) == bytes)
        #expect(try store.latestRelease(of: "light")?.files.map(\.hash) == [hash])

        let connection = try PostgresConnection(url: postgres.url)
        let refused = #expect(throws: PostgresError.self) {
            try connection.execute("INSERT INTO themed_release_blob VALUES ('dark', 1, $1)", [.text(String(repeating: "0", count: 64))])
        }
        #expect(refused?.isForeignKeyViolation == true, "\(refused?.description ?? "")")
    }

    @Test("the current releases come with each theme's parent and the published theme's contents, in one question; a retired theme is not current")
    func currentReleases() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        try store.publish(theme: "base", files: Self.files("base"))
        let settings: [(path: String, bytes: [UInt8])] = [("theme.json", Array("{\"parent\": \"base\"}".utf8)),
                                                           ("x/theme.json", Array("{\"parent\": \"elsewhere\"}".utf8))]
        try store.publish(theme: "brand", files: Self.files("brand") + settings)
        try store.publish(theme: "gone", files: Self.files("gone"))
        try store.retire(theme: "gone")
        let before = store.roundTrips
        let current = try store.currentReleases(publishing: "brand")
        #expect(store.roundTrips.since(before).count == 1)
        #expect(current.parents == ["base": String?.none, "brand": "base"])
        #expect(current.contents == Set(try #require(try store.latestRelease(of: "brand")).files.map(\.hash)), "the published theme's own, no other's")
        #expect(try store.currentReleases(publishing: "new").contents.isEmpty && store.currentReleases().contents.isEmpty)
        #expect(try store.currentReleases(publishing: "gone").contents.isEmpty, "a retired theme uses none")

        // The parent is found by the release's settings column (its theme.json's hash), not in its manifest...
        let connection = try PostgresConnection(url: postgres.url)
        let settingsHash = try #require(try store.latestRelease(of: "brand")).files.first { $0.path == "theme.json" }?.hash
        #expect(try connection.execute("SELECT settings FROM themed_release WHERE theme = 'brand'").values == [[settingsHash]])
        try connection.execute("UPDATE themed_release SET settings = '' WHERE theme = 'brand'")
        #expect(try store.currentReleases().parents["brand"] == String?.none, "the column says it has no theme.json")
        // ...but a row an older themed wrote has none (NULL), and its manifest is searched.
        try connection.execute("UPDATE themed_release SET settings = NULL WHERE theme = 'brand'")
        #expect(try store.currentReleases().parents["brand"] == "base")
        // A store brought up to this schema has the column filled from the manifests, '' where there is no theme.json.
        try connection.execute("UPDATE themed_release SET settings = NULL")
        try connection.execute("UPDATE themed_schema SET version = 5")
        _ = try ClusterStore(url: postgres.url)
        let filled = try connection.execute("SELECT theme, settings FROM themed_release ORDER BY generation").values
        #expect(filled == [["base", ""], ["brand", settingsHash], ["gone", ""], ["gone", ""]])

        // Other themes' manifests are not read: one damaged does not stop a publish of another.
        try connection.execute("INSERT INTO themed_release (theme, generation, manifest, retired) VALUES ('damaged', nextval('themed_generation'), 'not a manifest line', false)")
        #expect(try store.currentReleases(publishing: "brand").parents.keys.sorted() == ["base", "brand", "damaged"])
        #expect(throws: ClusterError.self) { try store.currentReleases(publishing: "damaged") }
    }

    @Test("a file's hash is found in a manifest by its whole path, whatever characters the path has")
    func hashPattern() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let connection = try PostgresConnection(url: postgres.url)
        let hashes = (0..<5).map { String(repeating: String($0), count: 64) }
        let manifest = "\(hashes[0]) 1 a/theme.json\n\(hashes[1]) 2 theme.json.bak\n\(hashes[2]) 3 theme.json\n\(hashes[3]) 4 x(1)+.json\n\(hashes[4]) 5 xtheme.json\n"
        func found(_ path: String) throws -> String? {
            try connection.execute("SELECT substring($1 from $2)", [.text(manifest), .text(Release.hashPattern(ofFile: path))]).values.first?.first ?? nil
        }
        #expect(try found("theme.json") == hashes[2])
        #expect(try found("x(1)+.json") == hashes[3])
        #expect(try found("a/theme.json") == hashes[0])
        #expect(try found("none.json") == nil)
    }

    @Test("a file whose bytes change between their hash and their sending is refused, and nothing of the release is stored")
    func fileChangedWhilePublished() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let reads = Mutex(0)
        #expect(throws: ClusterError.changedWhilePublished("Theme.xcassets/primary.colorset/Contents.json")) {
            try store.publish(theme: "light", paths: ["Theme.xcassets/primary.colorset/Contents.json"], by: "team") { _ in
                Array("read \(reads.withLock { $0 += 1; return $0 })".utf8)
            }
        }
        #expect(try store.latestReleases().isEmpty && Self.count("themed_blob", postgres.url) == 0)
    }

    @Test("two publishes of one theme at once are both kept with distinct generations, the later current")
    func concurrentPublishes() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let url = postgres.url
        let results = Mutex<[Int64]>([])
        let threads = (1...2).map { number in
            Thread {
                if let generation = try? ClusterStore(url: url).publish(theme: "light", files: Self.files("parallel \(number)"), by: "team-\(number)") {
                    results.withLock { $0.append(generation) }
                }
            }
        }
        threads.forEach { $0.start() }
        #expect(waitUntil { results.withLock { $0.count } == 2 })
        let generations = results.withLock { $0 }.sorted()
        let store = try ClusterStore(url: url)
        #expect(generations.count == 2 && generations[0] != generations[1])
        #expect(try store.history(of: "light").map(\.generation) == generations.reversed())
        #expect(try store.latestReleases().first { $0.theme == "light" }?.generation == generations.last)
    }

    @Test("a schedule is applied when its time comes and not before, once, with a new generation; a cancelled one never is")
    func schedules() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let first = try store.publish(theme: "light", files: Self.files("one"))
        try store.setActive("light")
        // The wait below is for the instant written into the schedules (rounded to the
        // millisecond), not for a second clock reading taken a moment apart from it.
        let due = Date().addingTimeInterval(1.5)
        let soon = Self.time(at: due)
        let switchSoon = try store.schedule(activating: "dark", at: soon, by: "ops")
        let release = try store.schedule(theme: "light", paths: ["Theme.xcassets/x.colorset/Contents.json"], at: soon, by: "team") { _ in Array("later".utf8) }
        let cancelled = try store.schedule(activating: "light", at: Self.time(in: 1), by: "ops")
        #expect(try store.pendingSchedules().map(\.id) == [cancelled.id, switchSoon.id, release.id])
        #expect(switchSoon.release == nil && release.release?.files == 1 && (1...1.6).contains(switchSoon.secondsUntilDue))
        #expect(try store.cancelSchedule(cancelled.id, by: "ops") == cancelled)
        #expect(throws: ClusterError.noSuchSchedule(cancelled.id)) { try store.cancelSchedule(cancelled.id, by: "ops") }

        #expect(try store.applyDueSchedules() == 0, "not before its time")
        #expect(try store.active()?.theme == "light" && store.latestReleases().first?.generation == first)
        #expect(waitUntil(3) { Date() > due.addingTimeInterval(0.001) }, "their time comes")
        #expect(try store.applyDueSchedules() == 2)
        #expect(try store.applyDueSchedules() == 0, "once")
        #expect(try store.active()?.theme == "dark")
        let latest = try #require(try store.latestReleases().first { $0.theme == "light" })
        #expect(latest.generation > first && latest.files.map(\.path) == ["Theme.xcassets/x.colorset/Contents.json"])
        #expect(try store.history(of: "light").first?.publisher == "team")
        #expect(try store.pendingSchedules().isEmpty)
        for notRFC3339 in ["tomorrow", "2026-12-01", "2026-12-01 10:00", "2026-12-01T10:00:00"] {
            #expect(throws: ClusterError.badTime(notRFC3339)) { try store.schedule(activating: "dark", at: notRFC3339, by: "ops") }
        }
    }

    @Test("a scheduled release's blobs outlive retention until it is applied or cancelled")
    func scheduledBlobsKept() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        try store.publish(theme: "light", files: Self.files("one"), keep: 1)
        let pending = try store.schedule(theme: "light", paths: ["later.json"], at: Self.time(in: 3600), by: "team") { _ in Array("one".utf8) }
        try store.publish(theme: "light", files: Self.files("two"), keep: 1)
        let hash = ContentHash.of(Array("one".utf8)).hex
        #expect(try (store.blob(hash)) == Array("one".utf8), "the release that used it was dropped; the schedule keeps it")
        try store.cancelSchedule(pending.id, by: "team")
        #expect(throws: ClusterError.missingBlob(hash)) { try store.blob(hash) }
    }

    @Test("a follower between reconnections reads only the themes with a release after the generation it has read")
    func releasesAfter() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let light = try store.publish(theme: "light", files: Self.files("one"))
        let dark = try store.publish(theme: "dark", files: Self.files("two"))
        let lightAgain = try store.publish(theme: "light", files: Self.files("three"))
        #expect(try store.latestReleases().map(\.generation).sorted() == [dark, lightAgain])
        #expect(try store.latestReleases(after: dark).map(\.generation) == [lightAgain])
        #expect(try store.latestReleases(after: light).map(\.theme).sorted() == ["dark", "light"])
        #expect(try store.latestReleases(after: lightAgain).isEmpty)
        let retired = try store.retire(theme: "dark")
        #expect(try store.latestReleases(after: lightAgain).map { [$0.theme: $0.retired] } == [["dark": true]] && retired > lightAgain)
    }

    @Test("a snapshot of every theme's newest sends the manifests only of those wanted, in one more question; one dropped meanwhile is left out")
    func snapshotManifestsWanted() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        for theme in ["held", "new", "dropped"] { try store.publish(theme: theme, files: Self.files(theme)) }
        try store.publish(theme: "gone", files: Self.files("gone"))
        try store.retire(theme: "gone")
        let other = try PostgresConnection(url: postgres.url)

        let before = store.roundTrips
        let snapshot = try store.snapshot(releasesAfter: nil) { release in
            // Between the two questions, retention drops one of the releases asked for.
            if release.theme == "dropped" { _ = try? other.execute("DELETE FROM themed_release WHERE theme = 'dropped'") }
            return release.theme == "new" || release.theme == "dropped"
        }
        #expect(store.roundTrips.since(before).count == 2)
        #expect(snapshot.releases.map(\.theme).sorted() == ["gone", "held", "new"])
        let byTheme = Dictionary(uniqueKeysWithValues: snapshot.releases.map { ($0.theme, $0) })
        #expect(try byTheme["new"]?.release().files.count == 2)
        #expect(try byTheme["gone"]?.release().retired == true, "a retirement needs no manifest")
        #expect(throws: ClusterError.self, "not sent") { try byTheme["held"]?.release() }

        // Between reconnections (a generation given) the manifests come with the rows, in one question.
        let again = store.roundTrips
        let since = try store.snapshot(releasesAfter: 0) { _ in false }
        #expect(store.roundTrips.since(again).count == 1 && since.releases.count == 3)
        #expect(try since.releases.filter { !$0.retired }.allSatisfy { try !$0.release().files.isEmpty })
        // Nothing wanted: no second question.
        let none = store.roundTrips
        _ = try store.snapshot(releasesAfter: nil) { _ in false }
        #expect(store.roundTrips.since(none).count == 1)
    }

    /// An RFC 3339 time `seconds` from now.
    static func time(in seconds: Double) -> String {
        time(at: Date().addingTimeInterval(seconds))
    }

    /// RFC 3339 with milliseconds (rounded: up to half a millisecond after `date`).
    static func time(at date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    @Test("the audit trail: newest first, of one theme, since a time, within a limit")
    func auditTrail() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let light = try store.publish(theme: "light", files: Self.files("one"), by: "team")
        _ = try store.publish(theme: "dark", files: Self.files("two"), by: "team")
        _ = try store.setActive("dark", by: "ops")
        let all = try store.auditTrail(theme: nil, since: nil, limit: 100)
        #expect(all.map(\.action) == ["activate", "publish", "publish"], "\(all)")
        #expect(all.map(\.actor) == ["ops", "team", "team"] && all[2].theme == "light" && all[2].generation == light)
        #expect(all.map(\.id) == all.map(\.id).sorted(by: >))
        #expect(try store.auditTrail(theme: "light", since: nil, limit: 100).map(\.generation) == [light])
        #expect(try store.auditTrail(theme: nil, since: nil, limit: 1).map(\.action) == ["activate"])
        #expect(try store.auditTrail(theme: nil, since: "2999-01-01T00:00:00Z", limit: 100).isEmpty)
        let firstAt = try #require(all.last?.at)
        #expect(try store.auditTrail(theme: nil, since: firstAt, limit: 100).count == 3, "since includes its own time (\(firstAt))")
    }
}
