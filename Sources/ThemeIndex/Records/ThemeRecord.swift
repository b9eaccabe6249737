import SQLite
import ThemeVocabulary

/// A row of `theme`: one theme folder (or lone `.car`) and its generation.
struct ThemeRecord: TableRecord {
    static let tableName = "theme"
    static let insertion = Insertion<Self>()

    enum Columns: String, ColumnDefinition {
        case id, name, path, parent, generation, error, warning
        case servedColors = "served_colors", servedImages = "served_images", servedFiles = "served_files"

        var definition: String {
            switch self {
            case .id: "INTEGER PRIMARY KEY"
            case .name: "TEXT NOT NULL UNIQUE"
            case .path: "TEXT NOT NULL"
            case .parent: "TEXT"
            case .generation, .servedColors, .servedImages, .servedFiles: "INTEGER NOT NULL DEFAULT 0"
            case .error, .warning: "TEXT NOT NULL DEFAULT ''"
            }
        }
    }

    var id: Int64 = 0
    var name: String
    var path: String
    var parent: String?
    /// Bumped by every sync that changes what the theme serves.
    var generation: Generation
    /// The theme's problems, one per line ("" when it has none).
    var error = ""
    /// What its sources served though their format does not allow it, one per line: no reason to
    /// call the theme degraded.
    var warning = ""
    /// How many names it answers, own and inherited: stored by the sync that changed it or a
    /// theme above it (`IndexWriter.storeServedCounts`).
    var served = NameCounts()

    init(name: String, path: String, parent: String?, generation: Generation) {
        (self.name, self.path, self.parent, self.generation) = (name, path, parent, generation)
    }

    init(row: Row) throws {
        id = try row.int64(Columns.id)
        name = try row.string(Columns.name)
        path = try row.string(Columns.path)
        parent = try row.optionalString(Columns.parent)
        generation = try row.int64(Columns.generation)
        error = try row.string(Columns.error)
        warning = try row.string(Columns.warning)
        served = NameCounts(colors: try row.int(Columns.servedColors), images: try row.int(Columns.servedImages),
                            files: try row.int(Columns.servedFiles))
    }

    func value(of column: Columns) -> SQLiteValue {
        switch column {
        case .id: .integer(id)
        case .name: .text(name)
        case .path: .text(path)
        case .parent: .optionalText(parent)
        case .generation: .integer(generation)
        case .error: .text(error)
        case .warning: .text(warning)
        case .servedColors: .int(served.colors)
        case .servedImages: .int(served.images)
        case .servedFiles: .int(served.files)
        }
    }
}
