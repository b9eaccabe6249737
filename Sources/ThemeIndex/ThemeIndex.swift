import SQLite

/// The SQLite index of every theme's variants and strings: one writer that syncs it with the
/// themes folder, and a reader whose lookups borrow connections from a pool.
public final class ThemeIndex: Sendable {
    public let databasePath: String
    public let writer: IndexWriter
    public let reader: IndexReader

    /// Whether the index's writes wait for the disk: a server's do, a check's or a diff's scratch
    /// index's do not.
    public typealias Durability = Database.Durability

    /// Opens (or creates, or rebuilds after a schema change) the index at `databasePath`.
    /// `readers` is the most lookups that run at once; more wait for a connection.
    public init(databasePath: String, readers: Int = 8, durability: Durability = .durable) throws {
        self.databasePath = databasePath
        let database = try Database(path: databasePath, durability: durability)
        // The writer's page cache: inserting a platform's variants touches the index B-trees all
        // over, and SQLite's default 2 MB made each batch read back pages it had just written.
        try database.execute("PRAGMA cache_size = -\(IndexWriter.cacheKibibytes)")
        try Schema.create(in: database)
        writer = IndexWriter(database: database)
        reader = IndexReader(pool: DatabasePool(path: databasePath, capacity: readers))
    }

    /// Asks the kernel to read the index file into its page cache in the background; the
    /// number of files (the index and its log) it took the advice for.
    @discardableResult
    public func readAhead() -> Int {
        reader.pool.readAhead()
    }

    /// A reader that sees the index as it is now until it is let go, whatever the writer does
    /// meanwhile (one connection in a read transaction).
    public func pinnedReader() throws -> IndexReader {
        IndexReader(pool: try .pinned(path: databasePath))
    }
}
