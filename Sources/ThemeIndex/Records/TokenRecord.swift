import SQLite

/// A row of `token`: one design token of one resolution, as `/tokens/{path}` answers it.
struct TokenRecord: TableRecord {
    static let tableName = "token"
    static let insertion = Insertion<Self>()

    enum Columns: String, ColumnDefinition {
        case themeID = "theme_id", sourceID = "source_id"
        /// The resolution's key: `modifier=context` joined by `&` ('' without modifiers).
        case resolution
        case path
        /// The token as served: `$type`, `$value` and the rest, as JSON.
        case body

        var definition: String {
            switch self {
            case .themeID: "INTEGER NOT NULL REFERENCES theme(id) ON DELETE CASCADE"
            case .sourceID: "INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE"
            case .resolution, .path, .body: "TEXT NOT NULL"
            }
        }
    }

    var themeID: Int64
    var sourceID: Int64
    var resolution: String
    var path: String
    var body: String

    init(themeID: Int64, sourceID: Int64, resolution: String, path: String, body: String) {
        (self.themeID, self.sourceID, self.resolution, self.path, self.body) = (themeID, sourceID, resolution, path, body)
    }

    init(row: Row) throws {
        themeID = try row.int64(Columns.themeID)
        sourceID = try row.int64(Columns.sourceID)
        resolution = try row.string(Columns.resolution)
        path = try row.string(Columns.path)
        body = try row.string(Columns.body)
    }

    func value(of column: Columns) -> SQLiteValue {
        switch column {
        case .themeID: .integer(themeID)
        case .sourceID: .integer(sourceID)
        case .resolution: .text(resolution)
        case .path: .text(path)
        case .body: .text(body)
        }
    }
}

/// A row of `token_set`: one resolution of a theme's tokens, as `/tokens` answers it.
struct TokenSetRecord: TableRecord {
    static let tableName = "token_set"
    static let insertion = Insertion<Self>()
    static let constraints = ["UNIQUE (source_id, resolution)"]

    enum Columns: String, ColumnDefinition {
        case themeID = "theme_id", sourceID = "source_id", resolution
        /// The DTCG document of the resolution.
        case body

        var definition: String {
            switch self {
            case .themeID: "INTEGER NOT NULL REFERENCES theme(id) ON DELETE CASCADE"
            case .sourceID: "INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE"
            case .resolution, .body: "TEXT NOT NULL"
            }
        }
    }

    var themeID: Int64
    var sourceID: Int64
    var resolution: String
    var body: String

    init(themeID: Int64, sourceID: Int64, resolution: String, body: String) {
        (self.themeID, self.sourceID, self.resolution, self.body) = (themeID, sourceID, resolution, body)
    }

    init(row: Row) throws {
        themeID = try row.int64(Columns.themeID)
        sourceID = try row.int64(Columns.sourceID)
        resolution = try row.string(Columns.resolution)
        body = try row.string(Columns.body)
    }

    func value(of column: Columns) -> SQLiteValue {
        switch column {
        case .themeID: .integer(themeID)
        case .sourceID: .integer(sourceID)
        case .resolution: .text(resolution)
        case .body: .text(body)
        }
    }
}
