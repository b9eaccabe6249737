import AssetCatalog

/// What one sync did, for logs, events and the content layer.
public struct SyncReport: Sendable {
    public var reindexedSources: [String] = []
    public var unchangedSources = 0
    /// Themes whose generation moved: a source was re-read, added or removed, or the parent changed.
    public var changedThemes: [String] = []
    /// Themes seen for the first time (also in `changedThemes`).
    public var addedThemes: [String] = []
    public var removedThemes: [String] = []
    /// Themes whose errors or warnings as stored changed (the theme's record, not what it serves).
    public var restatedThemes: [String] = []
    /// The themes whose records this sync may have changed (a sync of one theme: it, the themes
    /// whose tokens read its, and every theme below them); nil when it read every theme.
    public var touchedThemes: Set<String>?
    /// Sources that could not be read this time, with their theme; each keeps what it had.
    public var themeErrors: [(theme: String, message: String)] = []
    /// Problems inside sources that were indexed anyway (a malformed Info.plist, .strings or
    /// Contents.json, a link leaving the theme), reported when the source is read.
    public var problems: [(theme: String, message: String)] = []
    /// The catalogs this sync parsed, with their content hashes: the content layer keeps them for
    /// serving the generation built from them.
    public var parsedCatalogs: [(catalog: AssetCatalog, contentHash: String)] = []

    public var errors: [String] { themeErrors.map(\.message) }

    /// Nothing was read anew, and no theme came, changed, went or was described otherwise (a
    /// folder watcher seeing a replica's swap that the replica already indexed).
    public var changedNothing: Bool {
        reindexedSources.isEmpty && changedThemes.isEmpty && addedThemes.isEmpty && removedThemes.isEmpty && restatedThemes.isEmpty
            && themeErrors.isEmpty && problems.isEmpty
    }
}
