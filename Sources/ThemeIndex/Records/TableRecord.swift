import SQLite

/// A column of an index table: its name (the raw value) and its SQL type and constraints.
protocol ColumnDefinition: RawRepresentable<String>, CaseIterable, Hashable, Sendable {
    var definition: String { get }
}

/// One row of an index table as a value (GRDB's record idea): the table's columns are the cases
/// of `Columns`, named once; the DDL and the INSERT are derived from them, `value(of:)` writes
/// each one (an exhaustive switch, so none is forgotten) and `init(row:)` reads them back by the
/// same cases (a column the row does not have is an error).
protocol TableRecord {
    associatedtype Columns: ColumnDefinition
    static var tableName: String { get }
    /// Table constraints after the columns (`UNIQUE (...)`).
    static var constraints: [String] { get }
    /// The record's INSERT, made once: each type declares `static let insertion = Insertion<Self>()`
    /// (indexing inserts a row per variant; building the SQL text each time cost a third of it).
    static var insertion: Insertion<Self> { get }
    init(row: Row) throws
    func value(of column: Columns) -> SQLiteValue
}

extension TableRecord {
    static var constraints: [String] { [] }

    static var createStatement: String {
        let lines = Columns.allCases.map { "  \($0.rawValue) \($0.definition)" } + constraints.map { "  \($0)" }
        return "CREATE TABLE IF NOT EXISTS \(tableName) (\n\(lines.joined(separator: ",\n"))\n);"
    }

    /// Inserts the record and returns its row id.
    @discardableResult
    func insert(into database: Database) throws -> Int64 {
        try database.cachedStatement(Self.insertion.sql).run(Self.insertion.columns.map(value(of:)))
        return database.lastInsertedRowID
    }
}

/// A record's INSERT values made before the transaction that stores them (on a sync's reading
/// thread: formatting a variant's columns was half of its write), but for the row ids only the
/// writer knows, which it fills in.
struct PreparedInsert<Record: TableRecord>: Sendable {
    private let values: [SQLiteValue]

    init(_ record: Record) {
        values = Record.insertion.columns.map(record.value(of:))
    }

    /// Inserts the record with `ids` in place of what it was prepared with; returns its row id.
    @discardableResult
    func insert(into database: Database, setting ids: KeyValuePairs<Record.Columns, Int64>) throws -> Int64 {
        let statement = try database.cachedStatement(Record.insertion.sql).bind(values)
        for (column, id) in ids {
            guard let offset = Record.insertion.columns.firstIndex(of: column) else { continue }
            try statement.bind(.integer(id), at: offset + 1)
        }
        try statement.runBound()
        return database.lastInsertedRowID
    }
}

/// A record type's INSERT: the columns it writes (all but an `INTEGER PRIMARY KEY`, which SQLite
/// assigns) and the statement's text.
struct Insertion<Record: TableRecord>: Sendable {
    let columns: [Record.Columns]
    let sql: String

    init() {
        columns = Record.Columns.allCases.filter { !$0.definition.hasPrefix("INTEGER PRIMARY KEY") }
        let placeholders = columns.indices.map { "?\($0 + 1)" }
        sql = "INSERT INTO \(Record.tableName) (\(columns.map(\.rawValue).joined(separator: ", "))) VALUES (\(placeholders.joined(separator: ", ")))"
    }
}

extension Row {
    func int<C: ColumnDefinition>(_ column: C) throws -> Int { try int(column.rawValue) }
    func int64<C: ColumnDefinition>(_ column: C) throws -> Int64 { try int64(column.rawValue) }
    func bool<C: ColumnDefinition>(_ column: C) throws -> Bool { try bool(column.rawValue) }
    func string<C: ColumnDefinition>(_ column: C) throws -> String { try string(column.rawValue) }
    func optionalString<C: ColumnDefinition>(_ column: C) throws -> String? { try optionalString(column.rawValue) }
    func blob<C: ColumnDefinition>(_ column: C) throws -> [UInt8] { try blob(column.rawValue) }
    /// A column holding one value per line.
    func lines<C: ColumnDefinition>(_ column: C) throws -> [String] {
        try string(column.rawValue).split(separator: "\n").map(String.init)
    }
}

extension SQLiteValue {
    static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
    static func optionalText(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
    static func lines(_ values: [String]) -> SQLiteValue { .text(values.joined(separator: "\n")) }
}

/// A stored value a record cannot read back (an unknown kind or colour space): the index was
/// written by something else, or by a version with other names.
struct RecordError: Error, CustomStringConvertible {
    var description: String
    init(_ table: String, _ message: String) { description = "\(table): \(message)" }
}
