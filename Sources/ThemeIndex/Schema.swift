import SQLite

/// The index's tables (lookup-rules.md 6). One row per variant, with every trait a column, so
/// that a lookup is one query over `variant_by_name`. Loose files of bundles are variants of
/// kind `file`; `.strings` entries have a table of their own.
///
/// The index is derived from the themes folder, so a new schema version simply rebuilds it: the
/// tables are dropped and every theme is read again (the settings in `meta` are kept).
enum Schema {
    static let version = 5

    static let statements = """
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS theme (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      path TEXT NOT NULL,
      parent TEXT,
      generation INTEGER NOT NULL DEFAULT 0,
      error TEXT NOT NULL DEFAULT '',
      updated_at REAL NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS source (
      id INTEGER PRIMARY KEY,
      theme_id INTEGER NOT NULL REFERENCES theme(id) ON DELETE CASCADE,
      path TEXT NOT NULL,
      kind TEXT NOT NULL,
      rank INTEGER NOT NULL,
      size INTEGER NOT NULL,
      mtime REAL NOT NULL,
      fingerprint TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      generation INTEGER NOT NULL,
      error TEXT NOT NULL DEFAULT '',
      -- Localizations: a catalog's distinct locales; a bundle's CFBundleLocalizations and
      -- .lproj folders (one per line), with what its localization choice needs.
      localizations TEXT NOT NULL DEFAULT '',
      localization_folders TEXT NOT NULL DEFAULT '',
      development_region TEXT,
      identifier TEXT,
      allow_mixed INTEGER NOT NULL DEFAULT 0,
      -- Catalogs: the bundle they belong to (its path), for their localization fallback.
      owner TEXT,
      UNIQUE (theme_id, path)
    );
    CREATE TABLE IF NOT EXISTS variant (
      id INTEGER PRIMARY KEY,
      theme_id INTEGER NOT NULL REFERENCES theme(id) ON DELETE CASCADE,
      source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
      source_rank INTEGER NOT NULL,
      kind TEXT NOT NULL,
      name TEXT NOT NULL,
      idiom INTEGER NOT NULL DEFAULT 0,
      scale INTEGER NOT NULL DEFAULT 0,
      subtype INTEGER NOT NULL DEFAULT 0,
      size_h INTEGER NOT NULL DEFAULT 0,
      size_v INTEGER NOT NULL DEFAULT 0,
      memory_gb INTEGER NOT NULL DEFAULT 0,
      graphics INTEGER NOT NULL DEFAULT 0,
      gamut INTEGER NOT NULL DEFAULT 0,
      direction INTEGER NOT NULL DEFAULT 0,
      dt INTEGER NOT NULL DEFAULT 0,
      luminosity INTEGER NOT NULL DEFAULT 0,
      contrast INTEGER NOT NULL DEFAULT 0,
      appearance_name TEXT NOT NULL DEFAULT '',
      locale TEXT NOT NULL DEFAULT '',
      ext TEXT NOT NULL DEFAULT '',
      platform TEXT NOT NULL DEFAULT '',
      color_space TEXT NOT NULL DEFAULT '',
      components TEXT NOT NULL DEFAULT '',
      pixel_width INTEGER NOT NULL DEFAULT 0,
      pixel_height INTEGER NOT NULL DEFAULT 0,
      format TEXT NOT NULL DEFAULT '',
      location TEXT NOT NULL,
      etag TEXT NOT NULL,
      flippable INTEGER NOT NULL DEFAULT 0,
      sort_key TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS variant_by_name ON variant (name, kind, theme_id);
    CREATE INDEX IF NOT EXISTS variant_by_source ON variant (source_id);
    CREATE TABLE IF NOT EXISTS string (
      theme_id INTEGER NOT NULL REFERENCES theme(id) ON DELETE CASCADE,
      source_id INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
      source_rank INTEGER NOT NULL,
      tbl TEXT NOT NULL,
      key TEXT NOT NULL,
      locale TEXT NOT NULL,
      value TEXT NOT NULL,
      -- Plural forms by category as a JSON object ('' when the key has none).
      forms TEXT NOT NULL DEFAULT '',
      file TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS string_by_key ON string (tbl, key, theme_id);
    CREATE INDEX IF NOT EXISTS string_by_source ON string (source_id);
    """

    static func create(in database: Database) throws {
        try database.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        let stored = try database.prepare("SELECT value FROM meta WHERE key = 'schema'").rows().first?.string("value")
        if let stored, stored != String(version) {
            try database.execute("DROP TABLE IF EXISTS string; DROP TABLE IF EXISTS variant; DROP TABLE IF EXISTS source; DROP TABLE IF EXISTS theme;")
            try database.prepare("DELETE FROM meta WHERE key = 'schema'").run()
        }
        try database.execute(statements)
        try database.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?1)").run([.text(String(version))])
    }
}
