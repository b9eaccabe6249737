import Dispatch
import Foundation
import Synchronization

/// Read connections to one database, lent out one per caller (GRDB's `DatabasePool` idea).
///
/// In WAL mode readers do not block each other or the writer, so every event loop can run its
/// lookup at once instead of queueing on one connection. Connections are opened on demand up to
/// `capacity`; a caller past that waits for one to come back. Each keeps its own statement cache.
public final class DatabasePool: Sendable {
    public let path: String
    public let capacity: Int
    private let idle = Mutex<[Database]>([])
    /// Every connection opened, for the counters they keep.
    private let all = Mutex<[Database]>([])
    private let opened = Mutex(0)
    private let available: DispatchSemaphore

    public init(path: String, capacity: Int) {
        self.path = path
        self.capacity = max(1, capacity)
        available = DispatchSemaphore(value: self.capacity)
    }

    /// A pool of one connection that reads the database as it is now, whatever is written after
    /// (a WAL read transaction, held until the pool is let go): what a reload's changes are
    /// compared against.
    public static func pinned(path: String) throws -> DatabasePool {
        let database = try Database(path: path, readOnly: true)
        try database.execute("BEGIN")
        // The snapshot is taken at the transaction's first read.
        _ = try database.prepare("SELECT count(*) FROM sqlite_master").rows()
        let pool = DatabasePool(path: path, capacity: 1)
        pool.idle.withLock { $0 = [database] }
        pool.all.withLock { $0 = [database] }
        pool.opened.withLock { $0 = 1 }
        return pool
    }

    /// Runs `body` with a read-only connection of its own.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        available.wait()
        defer { available.signal() }
        let database = try borrow()
        defer { idle.withLock { $0.append(database) } }
        return try body(database)
    }

    /// Asks the kernel to read the database file and its write-ahead log into the page cache
    /// (`posix_fadvise` WILLNEED), and returns how many of the two it took the advice for. The
    /// reads go on in the background: after a restart, or once the system dropped its cache, a
    /// lookup's pages then come from memory instead of each first lookup waiting on the disk.
    @discardableResult
    public func readAhead() -> Int {
        [path, path + "-wal"].count { file in
            let descriptor = open(file, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            return posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_WILLNEED)) == 0
        }
    }

    /// Rows the pool's connections stepped through in full table scans, in all.
    public var fullScanSteps: Int { all.withLock { $0.reduce(0) { $0 + $1.fullScanSteps.load(ordering: .relaxed) } } }

    /// Connections opened so far (at most `capacity`).
    public var openedCount: Int { opened.withLock { $0 } }

    private func borrow() throws -> Database {
        if let database = idle.withLock({ $0.popLast() }) { return database }
        let database = try Database(path: path, readOnly: true)
        opened.withLock { $0 += 1 }
        all.withLock { $0.append(database) }
        return database
    }
}
