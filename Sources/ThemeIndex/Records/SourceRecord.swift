import SQLite
import ThemeBundle
import ThemeVocabulary

/// A row of `source`: one catalog, `.xcassets` folder or bundle of a theme, with what change
/// detection and localization need.
struct SourceRecord: TableRecord {
    static let tableName = "source"
    static let insertion = Insertion<Self>()
    static let constraints = ["UNIQUE (theme_id, path)"]

    enum Columns: String, ColumnDefinition {
        case id, themeID = "theme_id", path, kind, rank, fingerprint, contentHash = "content_hash", error
        /// What was served though its format does not allow it (one per line).
        case warning
        /// A catalog's distinct locales; a bundle's CFBundleLocalizations (one per line).
        case localizations
        /// A bundle's `.lproj` folders (one per line).
        case localizationFolders = "localization_folders"
        case developmentRegion = "development_region", identifier, allowMixed = "allow_mixed"
        /// Catalogs: the bundle they belong to (its path), for their localization fallback.
        case owner
        /// Design tokens: the resolver document as served (JSON; '' for other kinds), and the
        /// modifiers requests choose contexts of (JSON: name, contexts, default).
        case resolver, modifiers
        /// 1 when the rows are the last good read's and `error` says why the edit was refused.
        case kept

        var definition: String {
            switch self {
            case .id: "INTEGER PRIMARY KEY"
            case .themeID: "INTEGER NOT NULL REFERENCES theme(id) ON DELETE CASCADE"
            case .path, .kind, .fingerprint, .contentHash: "TEXT NOT NULL"
            case .rank: "INTEGER NOT NULL"
            case .error, .warning, .localizations, .localizationFolders, .resolver, .modifiers: "TEXT NOT NULL DEFAULT ''"
            case .developmentRegion, .identifier, .owner: "TEXT"
            case .allowMixed, .kept: "INTEGER NOT NULL DEFAULT 0"
            }
        }
    }

    var id: Int64 = 0
    var themeID: Int64
    var path: String
    var kind: SourceKind
    /// The source's place in the theme's lookup order (lookup-rules.md 5).
    var rank: Int
    /// Size and modification times of what the source is read from: unchanged means not re-parsed.
    var fingerprint: String
    var contentHash: String
    var error = ""
    var warning = ""
    var localizations: [String] = []
    var localizationFolders: [String] = []
    var developmentRegion: String?
    var identifier: String?
    var allowsMixedLocalizations = false
    var owner: String?
    var resolver = ""
    var modifiers: [TokenModifier] = []
    /// Its rows are the last good read's: the edit that `error` names was refused.
    var kept = false

    init(themeID: Int64, path: String, kind: SourceKind, rank: Int, fingerprint: String, contentHash: String) {
        (self.themeID, self.path, self.kind, self.rank, self.fingerprint, self.contentHash) = (themeID, path, kind, rank, fingerprint, contentHash)
    }

    init(row: Row) throws {
        id = try row.int64(Columns.id)
        themeID = try row.int64(Columns.themeID)
        path = try row.string(Columns.path)
        let kindName = try row.string(Columns.kind)
        guard let kind = SourceKind(rawValue: kindName) else {
            throw RecordError(Self.tableName, "source \(path): unknown kind \(kindName)")
        }
        self.kind = kind
        rank = try row.int(Columns.rank)
        fingerprint = try row.string(Columns.fingerprint)
        contentHash = try row.string(Columns.contentHash)
        error = try row.string(Columns.error)
        warning = try row.string(Columns.warning)
        localizations = try row.lines(Columns.localizations)
        localizationFolders = try row.lines(Columns.localizationFolders)
        developmentRegion = try row.optionalString(Columns.developmentRegion)
        identifier = try row.optionalString(Columns.identifier)
        allowsMixedLocalizations = try row.bool(Columns.allowMixed)
        owner = try row.optionalString(Columns.owner)
        resolver = try row.string(Columns.resolver)
        modifiers = TokenModifier.decode(try row.string(Columns.modifiers))
        kept = try row.bool(Columns.kept)
    }

    func value(of column: Columns) -> SQLiteValue {
        switch column {
        case .id: .integer(id)
        case .themeID: .integer(themeID)
        case .path: .text(path)
        case .kind: .text(kind.rawValue)
        case .rank: .int(rank)
        case .fingerprint: .text(fingerprint)
        case .contentHash: .text(contentHash)
        case .error: .text(error)
        case .warning: .text(warning)
        case .localizations: .lines(localizations)
        case .localizationFolders: .lines(localizationFolders)
        case .developmentRegion: .optionalText(developmentRegion)
        case .identifier: .optionalText(identifier)
        case .allowMixed: .bool(allowsMixedLocalizations)
        case .owner: .optionalText(owner)
        case .resolver: .text(resolver)
        case .modifiers: .text(TokenModifier.encode(modifiers))
        case .kept: .bool(kept)
        }
    }

    /// What lookups need of the source: for a bundle, its Info.plist keys and `.lproj` folders
    /// put together again as the `BundleInfo` its localization choice reads.
    var info: SourceInfo {
        var source = SourceInfo(id: id, path: path, kind: kind, error: error, warning: warning, contentHash: contentHash, localizations: localizations, owner: owner,
                                modifiers: modifiers, kept: kept)
        if kind == .bundle {
            var bundle = BundleInfo(path: path, developmentRegion: developmentRegion, localizationFolders: localizationFolders)
            bundle.declaredLocalizations = localizations
            bundle.identifier = identifier
            bundle.allowsMixedLocalizations = allowsMixedLocalizations
            source.bundle = bundle
            source.localizations = bundle.availableLocalizations
        }
        return source
    }
}
