import Foundation
import SQLite

/// A row of `string`: one entry of a `.strings`, `.stringsdict` or `.xcstrings` table.
struct StringRecord: TableRecord {
    static let tableName = "string"
    static let insertion = Insertion<Self>()

    enum Columns: String, ColumnDefinition {
        case themeID = "theme_id", sourceID = "source_id", sourceRank = "source_rank", table = "tbl", key, locale, value
        /// Plural forms by category as a JSON object ('' when the key has none).
        case forms
        case file

        var definition: String {
            switch self {
            case .themeID: "INTEGER NOT NULL REFERENCES theme(id) ON DELETE CASCADE"
            case .sourceID: "INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE"
            case .sourceRank: "INTEGER NOT NULL"
            case .table, .key, .locale, .value, .file: "TEXT NOT NULL"
            case .forms: "TEXT NOT NULL DEFAULT ''"
            }
        }
    }

    var themeID: Int64
    var sourceID: Int64
    var sourceRank: Int
    var entry: StringEntry

    init(themeID: Int64, sourceID: Int64, sourceRank: Int, entry: StringEntry) {
        (self.themeID, self.sourceID, self.sourceRank, self.entry) = (themeID, sourceID, sourceRank, entry)
    }

    init(row: Row) throws {
        themeID = try row.int64(Columns.themeID)
        sourceID = try row.int64(Columns.sourceID)
        sourceRank = try row.int(Columns.sourceRank)
        entry = StringEntry(table: try row.string(Columns.table), key: try row.string(Columns.key), value: try row.string(Columns.value),
                            locale: try row.string(Columns.locale), file: try row.string(Columns.file),
                            forms: Self.decodeForms(try row.string(Columns.forms)))
    }

    func value(of column: Columns) -> SQLiteValue {
        switch column {
        case .themeID: .integer(themeID)
        case .sourceID: .integer(sourceID)
        case .sourceRank: .int(sourceRank)
        case .table: .text(entry.table)
        case .key: .text(entry.key)
        case .locale: .text(entry.locale)
        case .value: .text(entry.value)
        case .forms: .text(Self.encodeForms(entry.forms))
        case .file: .text(entry.file)
        }
    }

    /// The forms as stored: a JSON object, or "" without forms.
    static func encodeForms(_ forms: [String: String]) -> String {
        guard !forms.isEmpty, let data = try? JSONSerialization.data(withJSONObject: forms, options: [.sortedKeys]) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    static func decodeForms(_ text: String) -> [String: String] {
        guard !text.isEmpty else { return [:] }
        return ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: String]) ?? [:]
    }
}

/// One entry of a strings table, as a bundle's tables give it.
struct StringEntry {
    var table: String
    var key: String
    var value: String
    var locale: String
    var file: String
    /// Plural forms by category (`one`, `few`, `other`, ...), for a request that gives a count.
    var forms: [String: String] = [:]
}
