import CSQLite

/// A value SQLite can store.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A prepared statement. Bind values by position (1-based), step through rows, read columns.
public final class Statement {
    /// Unowned: the connection's statement cache holds its statements, which must not keep the
    /// connection alive in turn.
    unowned let database: Database
    let handle: OpaquePointer
    let sql: String

    init(database: Database, sql: String) throws {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(database.handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw database.error(status, sql) }
        self.database = database
        self.handle = statement
        self.sql = sql
    }

    private var readColumns: Row.Columns?

    /// The result's column names, read once and shared by every row (read again should a schema
    /// change re-prepare the statement with another number of columns).
    var columns: Row.Columns {
        let count = Int(sqlite3_column_count(handle))
        if let readColumns, readColumns.names.count == count { return readColumns }
        let columns = Row.Columns(names: (0..<Int32(count)).map { String(cString: sqlite3_column_name(handle, $0)) })
        readColumns = columns
        return columns
    }

    deinit { sqlite3_finalize(handle) }

    /// Clears earlier bindings and binds `values` to ?1, ?2, ...
    @discardableResult
    public func bind(_ values: [SQLiteValue]) throws -> Statement {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() { try bind(value, at: offset + 1) }
        return self
    }

    /// Binds `value` to ?`position` alone, after `bind(_:)` bound the rest.
    @discardableResult
    public func bind(_ value: SQLiteValue, at position: Int) throws -> Statement {
        let index = Int32(position)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let status: Int32 = switch value {
        case .null: sqlite3_bind_null(handle, index)
        case .integer(let number): sqlite3_bind_int64(handle, index, number)
        case .real(let number): sqlite3_bind_double(handle, index, number)
        case .text(let text): Self.bind(text, to: index, of: handle, destructor: transient)
        // An empty array may have no storage, and a blob bound from no address is NULL.
        case .blob(let bytes) where bytes.isEmpty: sqlite3_bind_zeroblob(handle, index, 0)
        case .blob(let bytes): bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transient) }
        }
        guard status == SQLITE_OK else { throw database.error(status, sql) }
        return self
    }

    /// A string's UTF-8 bytes in place, with their length: handing SQLite a `String` as a C
    /// string made a copy of it first (`utf8CString`), for each of the 40 columns of a variant.
    private static func bind(_ text: String, to index: Int32, of handle: OpaquePointer, destructor: sqlite3_destructor_type) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            // No address for an empty string: bound as NULL unless given one.
            guard let base = bytes.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, destructor) }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { sqlite3_bind_text(handle, index, $0, Int32(bytes.count), destructor) }
        }
    }

    /// Adds the rows this run of the statement stepped through in full table scans to the
    /// connection's count (SQLite's own counter, reset as it is read).
    func countFullScanSteps() {
        database.fullScanSteps.add(Int(sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1)), ordering: .relaxed)
    }

    /// Advances to the next row; false when there are no more.
    public func step() throws -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(status, sql)
        }
    }

    /// Runs a statement that returns no rows.
    public func run(_ values: [SQLiteValue] = []) throws {
        try bind(values)
        try runBound()
    }

    /// Runs a statement that returns no rows with the values bound to it now.
    public func runBound() throws {
        while try step() {}
        countFullScanSteps()
        sqlite3_reset(handle)
    }

    /// Every row, each as its column values.
    public func rows(_ values: [SQLiteValue] = []) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(values) { rows.append($0) }
        return rows
    }

    /// Each row in turn, none kept: for a result too large to hold at once.
    public func forEachRow(_ values: [SQLiteValue] = [], _ body: (Row) throws -> Void) throws {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() { try body(row) }
        countFullScanSteps()
    }

    /// The first row of each run of rows with equal text in `column`: for a query ordered by
    /// that column and then by preference, the preferred row of each value. Only those rows are
    /// read whole; the others cost a comparison of the column's bytes.
    public func firstRows(_ values: [SQLiteValue] = [], ofEach column: String) throws -> [Row] {
        try bind(values)
        guard let position = columns.positions[column] else {
            sqlite3_reset(handle)
            throw SQLiteError(code: SQLITE_ERROR, message: "no column named \(column) to group rows by")
        }
        let index = Int32(position)
        var rows: [Row] = []
        // The group's value, in one buffer for every row (a palette steps through hundreds).
        var previous: [UInt8] = []
        while try step() {
            // The text first, then its length (SQLite's documented order: reading the text may convert it).
            let start = sqlite3_column_text(handle, index)
            let text = UnsafeBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_column_bytes(handle, index)))
            if !rows.isEmpty, previous.elementsEqual(text) { continue }
            previous.removeAll(keepingCapacity: true)
            previous.append(contentsOf: text)
            rows.append(row)
        }
        countFullScanSteps()
        sqlite3_reset(handle)
        return rows
    }

    /// The current row.
    public var row: Row {
        let columns = self.columns
        return Row(columns: columns, values: (0..<Int32(columns.names.count)).map { value(at: $0) })
    }

    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            // The text first, then its length (SQLite's documented order); no strlen.
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
