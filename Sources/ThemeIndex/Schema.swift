import SQLite

/// The index's tables (lookup-rules.md 6), from the record types that own their columns, and the
/// indexes lookups name: by name (a lookup) and by theme (a theme's listings, palettes and counts),
/// so that no query a request makes scans a table and none grows with the number of themes.
/// The index by theme holds a variant's `contexts`: a palette's query tests them before it reads
/// a row, and a review finds the names a combination has of its own from the index alone.
///
/// The index is derived from the themes folder, so a new schema version simply rebuilds it: the
/// tables are dropped and every theme is read again (the settings in `meta` are kept).
enum Schema {
    static let version = 15

    static let indexes = """
    CREATE INDEX IF NOT EXISTS variant_by_name ON variant (name, kind, theme_id);
    CREATE INDEX IF NOT EXISTS variant_by_theme ON variant (theme_id, kind, name, contexts);
    CREATE INDEX IF NOT EXISTS variant_by_source ON variant (source_id);
    CREATE INDEX IF NOT EXISTS string_by_key ON string (tbl, key, theme_id);
    CREATE INDEX IF NOT EXISTS string_by_theme ON string (theme_id, tbl);
    CREATE INDEX IF NOT EXISTS string_by_source ON string (source_id);
    CREATE INDEX IF NOT EXISTS token_by_path ON token (theme_id, resolution, path);
    CREATE INDEX IF NOT EXISTS token_by_source ON token (source_id);
    """

    static var statements: String {
        [ThemeRecord.createStatement, SourceRecord.createStatement, VariantRecord.createStatement, StringRecord.createStatement,
         TokenRecord.createStatement, TokenSetRecord.createStatement, indexes]
            .joined(separator: "\n")
    }

    static func create(in database: Database) throws {
        try database.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        let stored = try database.prepare("SELECT value FROM meta WHERE key = 'schema'").rows().first?.string("value")
        if let stored, stored != String(version) {
            try database.execute("""
                DROP TABLE IF EXISTS token; DROP TABLE IF EXISTS token_set; DROP TABLE IF EXISTS string; DROP TABLE IF EXISTS variant;
                DROP TABLE IF EXISTS source; DROP TABLE IF EXISTS theme;
                """)
            try database.prepare("DELETE FROM meta WHERE key = 'schema'").run()
        }
        try database.execute(statements)
        try database.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?1)").run([.text(String(version))])
    }
}
