import Dispatch
import Foundation
import SQLite
import Synchronization
import Testing
import TestSupport

@Suite("SQLite")
struct DatabaseTests {
    /// Each test's databases, with their `-wal` and `-shm` files.
    let scratch = ScratchFolder("sqlite")

    func temporaryPath() -> String { scratch.path("\(UUID().uuidString).sqlite") }

    @Test("a row read by a column it does not have is an error naming the column, never a zero")
    func missingColumn() throws {
        let path = temporaryPath()
        let database = try Database(path: path)
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT)")
        try database.prepare("INSERT INTO t (name) VALUES (?1)").run([.text("first")])
        let row = try #require(try database.prepare("SELECT * FROM t").rows().first)
        #expect(try row.int("id") == 1)
        #expect(try row.string("name") == "first")
        #expect(try row.optionalString("note") == nil)
        let misspelt = #expect(throws: SQLiteError.self) { try row.int("idd") }
        #expect(misspelt?.description.contains("no column named idd") == true)
        #expect(throws: SQLiteError.self) { try row.int("name") }
        #expect(throws: SQLiteError.self) { try row.string("note") }
    }

    @Test("an empty blob is stored as an empty blob: a NOT NULL column takes it, and it reads back empty, not as NULL")
    func emptyBlob() throws {
        let path = temporaryPath()
        let database = try Database(path: path)
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)")
        try database.prepare("INSERT INTO t (bytes) VALUES (?1), (?2)").run([.blob([]), .blob([0, 7])])
        let rows = try database.prepare("SELECT bytes, typeof(bytes) AS type FROM t ORDER BY id").rows()
        #expect(try rows.map { try $0.blob("bytes") } == [[], [0, 7]])
        #expect(try rows.map { try $0.string("type") } == ["blob", "blob"])
    }

    @Test("a column is found by name whatever order a record reads them in; of two columns of one name, the first answers")
    func columnsByName() throws {
        let path = temporaryPath()
        let database = try Database(path: path)
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT NOT NULL, b INTEGER NOT NULL)")
        try database.execute("INSERT INTO t (a, b) VALUES ('x', 1), ('y', 2)")
        // `b` twice: the second (b + 100) follows `a`, where a reader in table order would look
        // after reading `a`; the first `b` must answer all the same.
        let rows = try database.prepare("SELECT id, b, a, b + 100 AS b, 'z' AS text FROM t ORDER BY id").rows()
        #expect(rows.count == 2)
        for (row, expected) in zip(rows, [("x", 1), ("y", 2)]) {
            #expect(try row.string("a") == expected.0)
            #expect(try row.int("b") == expected.1, "the first b, read right after a")
            #expect(try row.int("id") == expected.1)
            #expect(try row.string("text") == "z")
            #expect(try row.string("a") == expected.0, "read again, out of order")
        }
        // Rows of one statement read on several threads at once (their columns are shared).
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 {
                for row in rows where (try? row.int("b")) != (try? row.int("id")) || (try? row.string("text")) != "z" {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test("readAhead asks the kernel to cache the database file and its log, and names how many it could")
    func readAhead() throws {
        let path = temporaryPath()
        #expect(DatabasePool(path: path, capacity: 1).readAhead() == 0, "no file yet")
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1);")
        #expect(DatabasePool(path: path, capacity: 1).readAhead() == 2, "the file and its write-ahead log")
    }

    @Test("a read transaction's statements read one snapshot, whatever is committed meanwhile; inside an open transaction it reads in that one")
    func readTransaction() throws {
        let path = temporaryPath()
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1);")
        let reader = try Database(path: path, readOnly: true)
        let count = { try reader.prepare("SELECT count(*) AS c FROM t").rows().first?.int("c") }
        let seen = try reader.readTransaction {
            let before = try count()
            try writer.execute("INSERT INTO t VALUES (2)")
            return (before, try count())
        }
        #expect(seen.0 == 1 && seen.1 == 1, "one snapshot: \(seen)")
        #expect(try count() == 2, "the transaction ended")

        try reader.execute("BEGIN")
        #expect(try count() == 2)
        try writer.execute("INSERT INTO t VALUES (3)")
        #expect(try reader.readTransaction { try count() } == 2, "in the transaction already open")
        try reader.execute("COMMIT")
        #expect(try count() == 3)
    }

    @Test("a file that cannot be a database is an error naming the path and the system's reason")
    func unopenableFile() throws {
        let folder = temporaryPath()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let error = #expect(throws: SQLiteError.self) { try Database(path: folder) }
        #expect(error?.description.contains(folder) == true, "\(String(describing: error))")
        #expect(error?.description.localizedCaseInsensitiveContains("directory") == true, "\(String(describing: error))")
    }

    @Test("firstRows keeps the first row of each run of a column's values: a query ordered by name, then by preference, gives each name's preferred row")
    func firstRowsOfEach() throws {
        let path = temporaryPath()
        let database = try Database(path: path)
        try database.execute("""
            CREATE TABLE t (name TEXT NOT NULL, rank INTEGER NOT NULL);
            INSERT INTO t VALUES ('b', 2), ('a', 3), ('b', 1), ('a', 1), ('', 5), ('', 4), ('c', 9), ('ab', 0);
            """)
        let statement = try database.prepare("SELECT * FROM t WHERE rank < ?1 ORDER BY name, rank")
        let first = try statement.firstRows([.integer(9)], ofEach: "name")
        #expect(try first.map { try $0.string("name") } == ["", "a", "ab", "b"])
        #expect(try first.map { try $0.int("rank") } == [4, 1, 0, 1])
        // The statement runs again with other values, and an empty result is no rows.
        #expect(try statement.firstRows([.integer(0)], ofEach: "name").isEmpty)
        let unknown = #expect(throws: SQLiteError.self) { try statement.firstRows([.integer(9)], ofEach: "title") }
        #expect(unknown?.description.contains("no column named title") == true)
        #expect(try statement.firstRows([.integer(2)], ofEach: "name").count == 3, "usable after the error")
    }

    @Test("a pinned pool reads the database as it was when pinned, whatever is written after; a new pool reads the writes")
    func pinnedPool() throws {
        let path = temporaryPath()
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1);")
        let pinned = try DatabasePool.pinned(path: path)
        try writer.execute("INSERT INTO t VALUES (2); UPDATE t SET n = 10 WHERE n = 1;")
        func sum(_ pool: DatabasePool) throws -> Int { try pool.read { try $0.prepare("SELECT sum(n) AS s FROM t").rows().first?.int("s") ?? -1 } }
        #expect(try sum(pinned) == 1)
        #expect(try sum(pinned) == 1, "still, on a second read")
        #expect(try sum(DatabasePool(path: path, capacity: 1)) == 12)
    }

    @Test("the pool lends each concurrent reader a connection of its own, up to its capacity")
    func poolReadsConcurrently() throws {
        let path = temporaryPath()
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (42);")
        let pool = DatabasePool(path: path, capacity: 3)
        // Three readers hold their connections at the same time: none waits for another.
        let inside = Mutex(0), most = Mutex(0)
        let group = DispatchGroup()
        let failures = Mutex<[String]>([])
        for _ in 0..<3 {
            group.enter()
            // Threads of their own: the global queue may run blocked work one at a time.
            Thread {
                defer { group.leave() }
                do {
                    let value = try pool.read { database -> Int in
                        let now = inside.withLock { $0 += 1; return $0 }
                        most.withLock { $0 = max($0, now) }
                        // Held until all three are inside (or long enough that they would be).
                        _ = waitUntil(5) { most.withLock { $0 } == 3 }
                        inside.withLock { $0 -= 1 }
                        return try database.prepare("SELECT n FROM t").rows().first?.int("n") ?? 0
                    }
                    if value != 42 { failures.withLock { $0.append("read \(value)") } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        group.wait()
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(most.withLock { $0 } == 3)
        #expect(pool.openedCount == 3)
        // Returned connections are reused; the pool never opens more than its capacity.
        for _ in 0..<10 { _ = try pool.read { try $0.prepare("SELECT n FROM t").rows() } }
        #expect(pool.openedCount == 3)
    }

    @Test("pool connections are read-only")
    func poolIsReadOnly() throws {
        let path = temporaryPath()
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t (n INTEGER)")
        let pool = DatabasePool(path: path, capacity: 1)
        #expect(throws: SQLiteError.self) { try pool.read { try $0.execute("INSERT INTO t VALUES (1)") } }
    }
}
