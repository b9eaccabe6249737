@testable import Cluster
import Foundation
import Hashing
import Logging
import Sharding
import Synchronization
import Testing
import TestSupport
import ThemeVocabulary

/// A PostgreSQL, its store, and a follower that writes into a scratch themes folder and records
/// what it reports; the follower starts with the fixture (after `prepare` saw the empty folder).
final class FollowerFixture {
    final class Reports: Sendable {
        let changes = Mutex<[String]>([])
        let generations = Mutex<[Int64]>([])
        let active = Mutex<String?>(nil)
        let activeGeneration = Mutex<Int64?>(nil)
        let refused = Mutex<[Int64]>([])
    }

    let postgres: PostgresServer
    let store: ClusterStore
    let themes = NSTemporaryDirectory() + "themed-cluster-\(UUID().uuidString.prefix(8))"
    let materializer: Materializer
    let follower: ClusterFollower
    let reports = Reports()

    init(shard: Shard? = nil, prepare: (String) throws -> Void = { _ in }) throws {
        postgres = try PostgresServer()
        store = try ClusterStore(url: postgres.url)
        materializer = Materializer(themesDirectory: themes)
        let reports = self.reports
        follower = ClusterFollower(url: postgres.url, materializer: materializer, logger: Logger(label: "test"), shard: shard)
        follower.attach(.init(
            themesChanged: { changed in
                reports.changes.withLock { $0 += changed.map(\.theme) }
                reports.generations.withLock { $0 += changed.map(\.generation) }
            },
            activeChanged: { name, generation in
                reports.active.withLock { $0 = name }
                reports.activeGeneration.withLock { $0 = generation }
            },
            releaseRefused: { _, generation, _ in reports.refused.withLock { $0.append(generation) } }))
        try prepare(themes)
        follower.start()
    }

    deinit {
        follower.stop()
        try? FileManager.default.removeItem(atPath: themes)
    }

    /// The text of a file of the materialized theme `light`.
    func light(_ path: String) throws -> String {
        try String(contentsOfFile: "\(themes)/light/\(path)", encoding: .utf8)
    }
}

/// The cluster store on a real PostgreSQL, and a follower keeping a themes folder equal to it.
@Suite("cluster store", .serialized)
struct ClusterTests {
    static func files(_ value: String) -> [(path: String, bytes: [UInt8])] {
        [("Theme.xcassets/Contents.json", Array("{\"info\":{\"version\":1}}".utf8)),
         ("Theme.xcassets/primary.colorset/Contents.json", Array(value.utf8))]
    }

    @Test("publish stores blobs once and a manifest with a new generation; retire is a generation too", .needsPostgres)
    func publishAndRetire() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        let first = try store.publish(theme: "light", files: Self.files("one"))
        let second = try store.publish(theme: "light", files: Self.files("two"))
        #expect(second > first)
        let latest = try #require(try store.latestReleases().first { $0.theme == "light" })
        #expect(latest.generation == second && !latest.retired && latest.files.count == 2)
        let colour = try #require(latest.files.first { $0.path.hasSuffix("primary.colorset/Contents.json") })
        #expect(try store.blob(colour.hash) == Array("two".utf8))
        #expect(try store.retire(theme: "light") > second)
        #expect(try store.latestReleases().first { $0.theme == "light" }?.retired == true)
        #expect(throws: ClusterError.unpublishableName("../etc")) { try store.publish(theme: "../etc", files: []) }
        // A name a URL segment does not carry as it is, or the API's own `current`: refused, nothing stored.
        for name in ["Brand Dark", "brand?x", "brand#1", "100%", "marque-é", "current", ".hidden", String(repeating: "a", count: 256)] {
            #expect(throws: ClusterError.unpublishableName(name)) { try store.publish(theme: name, files: Self.files("x")) }
        }
        #expect(try store.latestReleases().map(\.theme) == ["light"])
        #expect(try store.publish(theme: "Brand_2.dark-v1~b", files: Self.files("x")) > 0)
        #expect(throws: ClusterError.unsafeName("../x")) { try store.publish(theme: "ok", files: [("../x", [1])]) }
        #expect(throws: (any Error).self) { try ClusterStore(url: "postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=1") }
    }

    @Test("a connection opened on a live store does not wait for others' transactions: the schema is made only where it is not current", .needsPostgres)
    func connectingToALiveStore() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        _ = try store.publish(theme: "light", files: Self.files("one"))
        // Another client reads the releases and the active theme inside a transaction it keeps open.
        let reader = try PostgresConnection(url: postgres.url)
        try reader.execute("BEGIN")
        try reader.execute("SELECT count(*) FROM themed_release")
        try reader.execute("SELECT count(*) FROM themed_active")
        let opened = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if (try? ClusterStore(url: postgres.url)) != nil { opened.signal() }
        }
        #expect(opened.wait(timeout: .now() + 5) == .success, "a new connection waited on the open transaction (the schema's ALTER TABLE)")
        try reader.execute("COMMIT")
        _ = opened.wait(timeout: .now() + 5)
        // A store whose schema version row is gone (an older release's) has its schema made again.
        try reader.execute("DROP TABLE themed_schema")
        _ = try ClusterStore(url: postgres.url)
        #expect(try reader.execute("SELECT version FROM themed_schema").values.first?.first == "\(ClusterStore.schemaVersion)")
    }

    @Test("changes commit in the order of their generations: a change waits while another holds the generation lock", .needsPostgres)
    func generationsCommitInOrder() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let store = try ClusterStore(url: postgres.url)
        // Another writer's transaction, open with the lock (as a publish is between its
        // generation and its commit).
        let other = try PostgresConnection(url: postgres.url)
        try other.execute("BEGIN")
        try other.execute("SELECT pg_advisory_xact_lock(\(ClusterStore.generationLock))")
        let url = postgres.url
        let done = Mutex<Int64?>(nil)
        let thread = Thread {
            let generation = try? ClusterStore(url: url).setActive("light")
            done.withLock { $0 = generation }
        }
        thread.start()
        // PostgreSQL says when the switch is waiting for the lock this transaction holds.
        #expect(try waitUntil { try other.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")[0, 0] == "1" })
        #expect(done.withLock { $0 } == nil, "the switch waits for the open transaction")
        try other.execute("COMMIT")
        #expect(waitUntil { done.withLock { $0 } != nil })
        #expect(try store.active()?.generation == done.withLock { $0 })
    }

    @Test("a follower materializes releases, removes retired themes, follows the active theme, and catches up after losing its connection", .needsPostgres)
    func follower() throws {
        // A materialization cut short by a kill leaves a staging folder, and a replaced release
        // not yet removed its own: a start removes both.
        let fixture = try FollowerFixture { themes in
            try FileManager.default.createDirectory(atPath: "\(themes)/.staging-light-9", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: "\(themes)/.previous-light-8", withIntermediateDirectories: true)
        }
        let (store, materializer, follower) = (fixture.store, fixture.materializer, fixture.follower)
        #expect(waitUntil { follower.hasSynced })
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.themes)/.staging-light-9"))
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.themes)/.previous-light-8"))

        let generation = try store.publish(theme: "light", files: Self.files("one"))
        #expect(waitUntil { materializer.generation(of: "light") == generation })
        #expect(try fixture.light("Theme.xcassets/primary.colorset/Contents.json") == "one")
        // The folder is written first; the change is reported when the sync ends.
        #expect(waitUntil { fixture.reports.changes.withLock { $0.contains("light") } })
        #expect(fixture.reports.generations.withLock { $0.last } == generation, "a change comes with its generation")

        // A switch takes the next generation of the same sequence: event ids order releases and switches alike.
        let switched = try store.setActive("light")
        #expect(switched > generation)
        #expect(waitUntil { fixture.reports.active.withLock { $0 } == "light" })
        #expect(fixture.reports.activeGeneration.withLock { $0 } == switched)
        #expect(follower.generation == switched)
        #expect(try store.active()?.generation == switched)

        // The connection is cut, a release published meanwhile: re-reading after the reconnect finds it.
        let pid = try #require(follower.backendPID)
        try store.terminate(backend: pid)
        let missed = try store.publish(theme: "light", files: Self.files("two"))
        #expect(waitUntil(15) { materializer.generation(of: "light") == missed }, "caught up after reconnecting")
        #expect(try fixture.light("Theme.xcassets/primary.colorset/Contents.json") == "two")
        #expect(waitUntil { (try? FileManager.default.contentsOfDirectory(atPath: fixture.themes)) == ["light"] }, "the replaced release's folder goes after the sync")

        try store.retire(theme: "light")
        #expect(waitUntil { !FileManager.default.fileExists(atPath: "\(fixture.themes)/light") })
    }

    @Test("a follower's thread asks for the shortest scheduling slice: a change is bursts between the store's answers", .needsPostgres, .needsSchedulingSlices)
    func followerTakesShortSlices() throws {
        let fixture = try FollowerFixture()
        #expect(waitUntil { fixture.follower.hasSynced })
        let followers = SchedulingSlices.slices(of: getpid(), named: "themed-cluster")
        #expect(!followers.isEmpty && followers.values.allSatisfy { $0 == SchedulingSlices.shortest }, "slices by thread: \(followers)")
        #expect(SchedulingSlices.ofCallingThread != SchedulingSlices.shortest, "the test's own thread keeps the default")
    }

    @Test("a newest release whose manifest does not read is refused for its theme alone: the follower writes the others and reports it", .needsPostgres)
    func damagedManifest() throws {
        let fixture = try FollowerFixture()
        let (store, materializer, follower) = (fixture.store, fixture.materializer, fixture.follower)
        #expect(waitUntil { follower.hasSynced })
        let inserted = try PostgresConnection(url: fixture.postgres.url).execute("""
            INSERT INTO themed_release (theme, generation, manifest, retired) VALUES ('damaged', nextval('themed_generation'), 'not a manifest line', false)
            RETURNING generation
            """)
        let damaged = try #require(inserted.values.first?.first?.flatMap { Int64($0) })
        let generation = try store.publish(theme: "light", files: Self.files("one"))
        #expect(waitUntil { materializer.generation(of: "light") == generation })
        #expect(waitUntil { fixture.reports.refused.withLock { $0 } == [damaged] })
        #expect(materializer.generation(of: "damaged") == nil)
    }

    @Test("a follower of shard 1/2 writes shard 1's themes and their ancestors, never shard 2's; an ancestor no child needs any more goes", .needsPostgres)
    func shardedFollower() throws {
        let shard = try #require(Shard("1/2"))
        let fixture = try FollowerFixture(shard: shard)
        let (store, materializer) = (fixture.store, fixture.materializer)
        let names = (0..<40).map { "tenant-\($0)" }
        let (mine, theirs) = (names.filter(shard.owns), names.filter { !shard.owns($0) })
        // Both parents belong to shard 2: shard 1 holds them only for its children.
        let base = try #require((0..<100).map { "base-\($0)" }.first { !shard.owns($0) })
        let other = try #require((0..<100).map { "other-\($0)" }.first { !shard.owns($0) })
        func child(of parent: String) -> [(path: String, bytes: [UInt8])] {
            Self.files("child") + [("theme.json", Array("{\"parent\": \"\(parent)\"}".utf8))]
        }
        try store.publish(theme: base, files: Self.files("base"))
        try store.publish(theme: other, files: Self.files("other"))
        for name in names { try store.publish(theme: name, files: child(of: base)) }
        #expect(!mine.isEmpty && !theirs.isEmpty)
        #expect(waitUntil(10) { mine.allSatisfy { materializer.generation(of: $0) != nil } && materializer.generation(of: base) != nil })
        #expect(theirs.allSatisfy { materializer.generation(of: $0) == nil }, "another shard's themes are not written here")
        #expect(materializer.generation(of: other) == nil, "a theme no child here needs is not written")

        // Every child of shard 1 moves to the other parent: it comes, the first one goes.
        for name in mine { try store.publish(theme: name, files: child(of: other)) }
        #expect(waitUntil(10) { materializer.generation(of: other) != nil && materializer.generation(of: base) == nil })
        // The parent's own releases follow while it is held.
        let next = try store.publish(theme: other, files: Self.files("other, again"))
        #expect(waitUntil { materializer.generation(of: other) == next })
        #expect(Set(materializer.inventory().themes.keys) == Set(mine + [other]))
    }

    @Test("a release whose blob was damaged in the store is refused and reported once; the one before keeps serving", .needsPostgres)
    func damagedBlobInStore() throws {
        let fixture = try FollowerFixture()
        let (store, materializer, follower, reports) = (fixture.store, fixture.materializer, fixture.follower, fixture.reports)
        let good = try store.publish(theme: "light", files: Self.files("one"))
        #expect(waitUntil { materializer.generation(of: "light") == good })

        // The blob the next release names is already in the store, with other bytes (a disk or
        // a hand went wrong): the publish keeps the stored bytes, and every replica must refuse them.
        try PostgresConnection(url: fixture.postgres.url).execute("INSERT INTO themed_blob (hash, bytes) VALUES ($1, $2)",
                                                                  [.text(ContentHash.of(Array("two".utf8)).hex), .bytes(Array("tampered".utf8))])
        let bad = try store.publish(theme: "light", files: Self.files("two"))
        #expect(waitUntil { reports.refused.withLock { $0 } == [bad] })
        try store.setActive("light") // another notification, another sync: not reported again
        #expect(waitUntil { follower.active == "light" })
        #expect(reports.refused.withLock { $0 } == [bad])
        #expect(follower.failures["light"]?.hasPrefix("generation \(bad):") == true)
        #expect(materializer.generation(of: "light") == good)
        #expect(try fixture.light("Theme.xcassets/primary.colorset/Contents.json") == "one")
    }

    @Test("a manifest read from the store is taken only when every line is sound", arguments: [
        "short 1 a.json", "\(String(repeating: "z", count: 64)) 1 a.json", "\(String(repeating: "a", count: 64)) -1 a.json", "\(String(repeating: "a", count: 64)) 1073741825 a.json",
        "\(String(repeating: "a", count: 64)) 1 ../a.json", "\(String(repeating: "a", count: 64)) 1 /etc/passwd",
        "\(String(repeating: "a", count: 64)) 1", "\(String(repeating: "a", count: 64)) one a.json",
    ])
    func unsoundManifest(_ line: String) {
        #expect(throws: ClusterError.self) { try Release.files(fromManifest: line + "\n") }
    }

    @Test("statements sent together answer their rows in order, in one round trip; one that fails fails them all and the connection goes on", .needsPostgres)
    func statementsTogether() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let connection = try PostgresConnection(url: postgres.url)
        let before = connection.roundTrips
        let answers = try connection.executeAll("SELECT 1; SELECT x FROM generate_series(1, 3) AS x; SELECT NULL WHERE false")
        #expect(answers.map(\.values) == [[["1"]], [["1"], ["2"], ["3"]], []])
        #expect(connection.roundTrips.since(before).count == 1)
        #expect(throws: PostgresError.self) { try connection.executeAll("CREATE TABLE kept (x int); SELECT nope; SELECT 3") }
        #expect(try connection.execute("SELECT count(*) FROM pg_tables WHERE tablename = 'kept'").values == [["0"]], "one transaction: the table is not kept")
    }

    @Test("statements sent without waiting are answered with the next one executed, in one round trip; the first failure is thrown, and a transaction rolled back keeps nothing", .needsPostgres)
    func statementsSentAhead() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        let connection = try PostgresConnection(url: postgres.url)
        try connection.execute("CREATE TABLE sent (x int PRIMARY KEY, payload bytea)")
        func kept() throws -> String? { try connection.execute("SELECT array_agg(x ORDER BY x) FROM sent").values.first?.first ?? nil }
        // Past libpq's 64 KB output buffer: the bytes go out while more are sent.
        let large = [UInt8](repeating: 7, count: 300_000)
        let before = connection.roundTrips
        try connection.send("BEGIN")
        for x in Int64(1)...3 { try connection.send("INSERT INTO sent VALUES ($1, $2)", [.int(x), .bytes(large)]) }
        #expect(try connection.execute("SELECT count(*), sum(length(payload)) FROM sent").values == [["3", "900000"]])
        try connection.execute("COMMIT")
        #expect(connection.roundTrips.since(before).count == 2)

        try connection.send("BEGIN")
        try connection.send("INSERT INTO sent VALUES (4, NULL)")
        try connection.send("INSERT INTO sent VALUES (1, NULL)")
        try connection.send("INSERT INTO sent VALUES (5, NULL)")
        let error = #expect(throws: PostgresError.self) { try connection.execute("SELECT 1") }
        #expect(error?.description.contains("duplicate key") == true, "the failure, not the statements skipped after it: \(error?.description ?? "")")
        connection.rollBack()
        #expect(try kept() == "{1,2,3}")

        // A transaction given up between statements (its caller threw) is rolled back as well.
        try connection.send("BEGIN")
        try connection.send("INSERT INTO sent VALUES (6, NULL)")
        connection.rollBack()
        #expect(try kept() == "{1,2,3}")
        #expect(try connection.executeAll("SELECT 1; SELECT 2").map(\.values) == [[["1"]], [["2"]]], "the connection goes on")
    }

    @Test("a LISTEN sent as a transaction of its own is in effect before the question sent after it, in one round trip: a notification committed while the question runs arrives (in the question's transaction it would not)", .needsPostgres)
    func listenCommittedFirst() throws {
        let postgres = try PostgresServer()
        defer { withExtendedLifetime(postgres) {} }
        /// Holds an advisory lock that `listener`'s question then waits for, notifies `channel`
        /// while it waits, and lets it go: the notification commits while the question runs.
        func notifying(_ channel: String, whileAsking listener: PostgresConnection, lock: Int) throws -> DispatchSemaphore {
            let pid = try #require(try listener.execute("SELECT pg_backend_pid()").values.first?.first ?? nil)
            let notifier = try PostgresConnection(url: postgres.url)
            try notifier.execute("SELECT pg_advisory_lock(\(lock))")
            let done = DispatchSemaphore(value: 0)
            Thread {
                let waiting = waitUntil {
                    (try? notifier.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = \(pid) AND wait_event = 'advisory'"))?.values == [["1"]]
                }
                if waiting { _ = try? notifier.execute("NOTIFY \(channel), 'during the question'") }
                _ = try? notifier.execute("SELECT pg_advisory_unlock(\(lock))")
                done.signal()
            }.start()
            return done
        }

        let listener = try PostgresConnection(url: postgres.url)
        let notified = try notifying("served", whileAsking: listener, lock: 1)
        let before = listener.roundTrips
        try listener.sendCommitted("LISTEN served")
        #expect(try listener.execute("SELECT pg_advisory_lock(1), 'asked'").values.first?.last == "asked")
        notified.wait()
        #expect(listener.roundTrips.since(before).count == 1)
        #expect(try listener.notifications(waitingUpTo: .seconds(5)) == ["during the question"])

        // What a LISTEN in the question's own transaction misses: it takes effect at the commit.
        let late = try PostgresConnection(url: postgres.url)
        let missed = try notifying("late", whileAsking: late, lock: 2)
        try late.send("LISTEN late")
        _ = try late.execute("SELECT pg_advisory_lock(2)")
        missed.wait()
        #expect(try late.notifications(waitingUpTo: .milliseconds(300)).isEmpty)
    }

    @Test("bytea comes back from its hex text; anything else is refused")
    func byteaText() {
        #expect(PostgresConnection.bytes(fromHex: "\\x0aFF00") == [10, 255, 0])
        #expect(PostgresConnection.bytes(fromHex: "\\x") == [])
        for bad in ["0aff", "\\x0af", "\\x0g", "\\x 0a"] { #expect(PostgresConnection.bytes(fromHex: bad) == nil, "\(bad)") }
    }

    @Test("a store that cannot be reached is one line naming the address, as logs and commands print it")
    func unreachableStore() {
        let port = Loopback.freePort()
        let error = #expect(throws: PostgresError.self) { try PostgresConnection(url: "postgresql://nobody@127.0.0.1:\(port)/x?connect_timeout=2") }
        let message = error?.description ?? ""
        #expect(message.hasPrefix("cannot connect to the cluster store: "))
        #expect(message.contains("\(port)") && !message.contains("\n"), "\(message)")
    }

    @Test("a manifest lists files in path order and reads back the same")
    func manifestRoundTrip() throws {
        let files = [Release.File(path: "b/Theme.car", hash: String(repeating: "b", count: 64), size: 9),
                     Release.File(path: "a b/Contents.json", hash: String(repeating: "a", count: 64), size: 0)]
        let release = Release(theme: "light", generation: 3, files: files, retired: false)
        #expect(try Release.files(fromManifest: release.manifest) == files.reversed())
    }

    @Test("a release whose bytes do not match its hash is refused; the previous one keeps serving")
    func corruptRelease() throws {
        let themes = NSTemporaryDirectory() + "themed-cluster-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: themes) }
        let materializer = Materializer(themesDirectory: themes)
        let good = Array("good".utf8)
        let goodHash = ContentHash.of(good).hex
        try materializer.materialize(Release(theme: "light", generation: 1, files: [Release.File(path: "a.json", hash: goodHash, size: good.count)], retired: false)) { _ in good }
        let lying = String(repeating: "0", count: 64)
        let corrupt = Release(theme: "light", generation: 2, files: [Release.File(path: "a.json", hash: lying, size: 1)], retired: false)
        #expect(throws: ClusterError.corruptBlob(lying)) { try materializer.materialize(corrupt) { _ in [1] } }
        #expect(materializer.generation(of: "light") == 1)
        #expect(try String(contentsOfFile: "\(themes)/light/a.json", encoding: .utf8) == "good")
        let names = try FileManager.default.contentsOfDirectory(atPath: themes)
        #expect(names == ["light"], "nothing half-written is left beside it")
    }

    @Test("a release asks the store only for the files the theme's folder does not hold as they are; one edited on disk is fetched again")
    func materializeReusesTheFolder() throws {
        let themes = NSTemporaryDirectory() + "themed-cluster-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: themes) }
        let materializer = Materializer(themesDirectory: themes)
        let blobs = Dictionary(uniqueKeysWithValues: ["one", "two", "three", "TWO", "four"].map { (ContentHash.of(Array($0.utf8)).hex, Array($0.utf8)) })
        func release(_ generation: Int64, _ contents: [String: String]) -> Release {
            Release(theme: "light", generation: generation, files: contents.map { path, text in
                Release.File(path: path, hash: ContentHash.of(Array(text.utf8)).hex, size: text.utf8.count)
            }, retired: false)
        }
        func asked(for release: Release) throws -> [String] {
            var asked: [String] = []
            try materializer.materialize(release) { hash in
                asked.append(hash)
                return try #require(blobs[hash])
            }
            return asked.compactMap { hash in blobs[hash].map { String(decoding: $0, as: UTF8.self) } }.sorted()
        }
        #expect(try asked(for: release(1, ["a.json": "one", "b/b.json": "two", "c.json": "three"])) == ["one", "three", "two"])
        #expect(try asked(for: release(2, ["a.json": "one", "b/b.json": "TWO", "c.json": "three"])) == ["TWO"], "only the changed file")
        try Data("ONE".utf8).write(to: URL(fileURLWithPath: "\(themes)/light/a.json"))
        #expect(try asked(for: release(3, ["a.json": "one", "b/b.json": "TWO", "d.json": "four"])) == ["four", "one"],
                "a file edited on disk (same size, other bytes) comes from the store")
        #expect(try String(contentsOfFile: "\(themes)/light/a.json", encoding: .utf8) == "one")
        #expect(!FileManager.default.fileExists(atPath: "\(themes)/light/c.json") && materializer.generation(of: "light") == 3)
        // Each replaced release waits, hidden from the index, until the replica has reported the change.
        #expect(try FileManager.default.contentsOfDirectory(atPath: themes).sorted() == [".previous-light-2", ".previous-light-3", "light"])
        #expect(try String(contentsOfFile: "\(themes)/.previous-light-3/b/b.json", encoding: .utf8) == "TWO")
        materializer.removeReplaced()
        #expect(try FileManager.default.contentsOfDirectory(atPath: themes) == ["light"])
    }
}

extension ClusterStore {
    /// The active theme and the generation of the switch that made it so, as the store holds them
    /// (a replica reads them with the rest of its sync: `StoreSnapshot`).
    func active() throws -> (theme: String, generation: Generation)? {
        Self.active(from: try connection.execute(Self.activeQuery))
    }
}
