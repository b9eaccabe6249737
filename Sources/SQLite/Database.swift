import CSQLite
import Foundation
import Synchronization

/// An SQLite error with the statement that caused it.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    public var code: Int32
    public var message: String
    public var sql: String?

    public var description: String {
        "SQLite error \(code): \(message)" + (sql.map { " in \($0)" } ?? "")
    }
}

/// One connection to an SQLite database file, through the system libsqlite3.
///
/// A thin wrapper on purpose: themed needs prepared statements, transactions and a handful of
/// column types, and a wrapper this small is easy to audit. A connection is used from one thread
/// at a time: the index's writer holds one behind a lock, and readers borrow theirs from a
/// `DatabasePool`; SQLite's WAL mode lets those connections read while the writer writes.
public final class Database: @unchecked Sendable {
    let handle: OpaquePointer
    public let path: String
    /// Prepared statements kept by `cachedStatement`, by SQL text.
    private var statements: [String: Statement] = [:]
    public static let statementCacheCapacity = 128
    /// Rows stepped through in full table scans by this connection's statements: a lookup that
    /// adds to it grows with the table (`DatabasePool.fullScanSteps`, and the index's tests).
    public let fullScanSteps = Atomic(0)

    /// How SQLite will run `sql`: the `detail` lines of EXPLAIN QUERY PLAN (`SEARCH v USING
    /// INDEX ...`, `SCAN s`).
    public func queryPlan(_ sql: String, _ values: [SQLiteValue] = []) throws -> [String] {
        try prepare("EXPLAIN QUERY PLAN " + sql).rows(values).map { try $0.string("detail") }
    }

    /// Whether a connection's writes wait for the disk.
    public enum Durability: Sendable {
        /// Each transaction is on disk once it commits (WAL at synchronous NORMAL): a server's files.
        case durable
        /// Nothing waits for the disk, from the switch to WAL on: a database a command builds,
        /// reads and deletes (a check's, a diff's), whose syncs would otherwise wait for the
        /// kernel's journal, seconds on a busy host.
        case scratch
    }

    public init(path: String, readOnly: Bool = false, durability: Durability = .durable) throws {
        Self.configureSQLite
        var connection: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let status = sqlite3_open_v2(path, &connection, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let connection else {
            let message = connection.map { Self.explained(String(cString: sqlite3_errmsg($0)), status, on: $0) } ?? "cannot open"
            if let connection { sqlite3_close_v2(connection) }
            throw SQLiteError(code: status, message: "\(path): \(message)")
        }
        handle = connection
        self.path = path
        sqlite3_busy_timeout(handle, 5000)
        do {
            if !readOnly {
                if durability == .scratch { try execute("PRAGMA synchronous = OFF") }
                try execute("PRAGMA journal_mode = WAL")
                if durability == .durable { try execute("PRAGMA synchronous = NORMAL") }
            }
            try execute("PRAGMA foreign_keys = ON")
        } catch var error as SQLiteError {
            // The file is read first here: its failures name it.
            error.message = "\(path): \(error.message)"
            throw error
        }
    }

    /// SQLite's process-wide settings, made before the first connection opens it (a global's
    /// initializer runs once, whichever thread comes first).
    private static let configureSQLite: Void = {
        _ = themed_sqlite3_config_no_memory_statistics()
    }()

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "error"
            sqlite3_free(error)
            throw self.error(status, sql, message: message)
        }
    }

    public func prepare(_ sql: String) throws -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// A prepared statement kept for reuse: lookups build the same few SQL texts again and again,
    /// and compiling them costs more than running them. The cache is emptied when it fills.
    public func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        if statements.count >= Self.statementCacheCapacity { statements.removeAll() }
        let statement = try prepare(sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body`'s statements on one snapshot of the database, in a read transaction (inside
    /// one already open, in that one): each statement alone would take and leave the
    /// write-ahead log's read lock, a reload's 10,000 a quarter of its time.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
    }

    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// An error of this connection, with SQLite's extended code and, for a file that could not
    /// be opened, read or written, the system's reason: "disk I/O error" alone names neither the
    /// call that failed nor why.
    func error(_ status: Int32, _ sql: String?, message: String? = nil) -> SQLiteError {
        SQLiteError(code: status, message: Self.explained(message ?? String(cString: sqlite3_errmsg(handle)), status, on: handle), sql: sql)
    }

    /// `message` with the extended code of `connection`'s last error and, for a file that could
    /// not be opened, read or written, the system's reason.
    private static func explained(_ message: String, _ status: Int32, on connection: OpaquePointer) -> String {
        var text = message
        let extended = sqlite3_extended_errcode(connection)
        if extended != status { text += " (extended code \(extended))" }
        let systemError = sqlite3_system_errno(connection)
        if [SQLITE_IOERR, SQLITE_CANTOPEN].contains(status & 0xff), systemError != 0 {
            text += " (\(String(cString: strerror(systemError))))"
        }
        return text
    }
}

/// One result row, by column name.
///
/// Reading a column the row does not have is an error, never a silent zero: a misspelt name in
/// a record mapping fails the first query that uses it.
public struct Row: Sendable {
    /// A statement's column names and where each is, shared by all its rows.
    public final class Columns: Sendable {
        let names: [String]
        let positions: [String: Int]
        /// Whether each column is the first of its name, which a lookup by that name finds.
        private let isFirstOfName: [Bool]
        /// Where the last lookup found its column. Records read columns in their table's order,
        /// which is `SELECT *`'s, so the next column is tried first: a comparison of two short
        /// names where hashing the name cost a tenth of a palette. Only a hint, checked each
        /// time, so rows read on several threads at once stay correct.
        private let lastFound = Atomic(-1)

        init(names: [String]) {
            self.names = names
            // The first column of a name wins, as SQLite's own lookups by name do.
            let positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            self.positions = positions
            isFirstOfName = names.indices.map { positions[names[$0]] == $0 }
        }

        func position(of name: String) -> Int? {
            let next = lastFound.load(ordering: .relaxed) + 1
            let position = next < names.count && isFirstOfName[next] && names[next] == name ? next : positions[name]
            if let position { lastFound.store(position, ordering: .relaxed) }
            return position
        }
    }

    let columns: Columns
    /// The row's values, in the statement's column order.
    let storage: [SQLiteValue]

    init(columns: Columns, values: [SQLiteValue]) {
        self.columns = columns
        storage = values
    }

    private func value(_ column: String) throws(SQLiteError) -> SQLiteValue {
        guard let position = columns.position(of: column), storage.indices.contains(position) else {
            throw SQLiteError(code: SQLITE_ERROR, message: "no column named \(column) (the row has \(columns.names.sorted().joined(separator: ", ")))")
        }
        return storage[position]
    }

    private func mismatch(_ column: String, _ value: SQLiteValue, _ expected: String) -> SQLiteError {
        SQLiteError(code: SQLITE_MISMATCH, message: "column \(column) holds \(value), not \(expected)")
    }

    public func int(_ column: String) throws(SQLiteError) -> Int {
        switch try value(column) {
        case .integer(let number): return Int(number)
        case .real(let number) where number.isFinite && abs(number) < 9e18: return Int(number)
        case let other: throw mismatch(column, other, "an integer")
        }
    }

    public func int64(_ column: String) throws(SQLiteError) -> Int64 {
        Int64(try int(column))
    }

    public func double(_ column: String) throws(SQLiteError) -> Double {
        switch try value(column) {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        case let other: throw mismatch(column, other, "a number")
        }
    }

    public func bool(_ column: String) throws(SQLiteError) -> Bool {
        try int(column) != 0
    }

    public func string(_ column: String) throws(SQLiteError) -> String {
        switch try value(column) {
        case .text(let text): return text
        case let other: throw mismatch(column, other, "text")
        }
    }

    /// Text, or nil for NULL.
    public func optionalString(_ column: String) throws(SQLiteError) -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        case let other: throw mismatch(column, other, "text or NULL")
        }
    }

    public func blob(_ column: String) throws(SQLiteError) -> [UInt8] {
        switch try value(column) {
        case .blob(let bytes): return bytes
        case let other: throw mismatch(column, other, "a blob")
        }
    }
}
