import Foundation
import Sharding
import SQLite
import Synchronization

/// Brings the index up to date with the themes folder: the only code that writes it.
///
/// A sync runs in stages, each a function of its own, theme by theme: `diff` finds the sources
/// whose fingerprint changed, `parse` reads them from disk (on a thread of its own, a few themes
/// ahead of the writer: `Lookahead`), and `write` stores the theme inside one transaction (a batch
/// of themes), so a lookup sees a theme's old generation or its new one, never a mix (and only a
/// few themes' parsed sources are in memory at a time). The error
/// policy (`keepPrevious`): a source that fails to parse keeps its previous rows and records why,
/// so a broken catalog never replaces a good one. Each change to a theme bumps its generation.
public final class IndexWriter: Sendable {
    let connection: Mutex<Database>

    init(database: Database) {
        connection = Mutex(database)
    }

    /// Themes written per transaction: each theme is whole in one (a lookup sees its old
    /// generation or its new one), and a platform's thousands do not cost a commit each.
    static let themesPerTransaction = 64
    /// Themes read ahead of the one being written, on a thread of their own: reading a catalog
    /// and storing the one before take about as long, and a few are enough to keep the writer busy
    /// without holding many parses in memory.
    static let themesReadAhead = 4
    /// The writer connection's page cache (SQLite's default is 2 MiB).
    static let cacheKibibytes = 32 << 10

    /// Indexes every theme under `directory`; with `only`, just that theme. With
    /// `keepingCatalogs`, the report carries the catalogs it parsed (a running server keeps them
    /// to serve the generation built from them); without, each is released once written, so a
    /// first index of thousands of themes holds a few themes' parses at a time. With a `shard`, the
    /// index holds only the themes it owns and their ancestors. Parent chains are settled first
    /// (`ParentChains`): a theme.json that breaks its theme's chain is not taken; `parents` says
    /// where else a parent may be. With `lineOf`, the index holds that theme and its ancestors
    /// alone (an export reads no other theme).
    @discardableResult
    public func sync(themesDirectory directory: String, only: String? = nil, keepingCatalogs: Bool = false, shard: Shard? = nil,
                     lineOf descendant: String? = nil, parents scope: ParentScope = .folder) throws -> SyncReport {
        guard let only else {
            // A whole folder (thousands of themes on a platform) is read before the writer is taken.
            let discovered = ThemeFolder.discover(in: directory, shard: shard, lineOf: descendant)
            return try connection.withLock { database in
                try write(Plan(of: discovered, parents: scope, tree: try ThemeTree(in: database), in: database),
                          in: database, keepingCatalogs: keepingCatalogs)
            }
        }
        // One theme's neighbourhood is a few folders, read under the writer with the parents its
        // chains are settled against: one reading of them, which no other sync changes meanwhile.
        return try connection.withLock { database in
            let tree = try ThemeTree(in: database)
            let discovered = ThemeFolder.discover(in: directory, shard: shard, lineOf: descendant,
                                                  around: ThemeFolder.Neighbourhood(theme: only, tree: tree))
            return try write(Plan(of: discovered, only: only, parents: scope, tree: tree, in: database),
                             in: database, keepingCatalogs: keepingCatalogs)
        }
    }

    /// Writes what `plan` found changed, theme by theme, and removes the themes whose folders went.
    private func write(_ plan: Plan, in database: Database, keepingCatalogs: Bool) throws -> SyncReport {
        var report = SyncReport()
        report.touchedThemes = plan.touchedThemes
        // By position: an array of diffs made first held a copy of every folder at once.
        let parses = Lookahead(Array(plan.folders.indices), depth: Self.themesReadAhead, name: "themed-reader") { position in
            Self.parse(plan.changes(at: position))
        }
        defer { parses.cancel() }
        var isRead = false
        while !isRead {
            try database.transaction {
                for _ in 0..<Self.themesPerTransaction {
                    guard let changes = parses.next() else { isRead = true; break }
                    try writeGuardingContrast(changes, in: database, report: &report, keepingCatalogs: keepingCatalogs)
                    parses.recycle(changes)
                }
            }
        }
        let known = Set(plan.discovered.map(\.name))
        let removed = plan.stored.filter { !known.contains($0.name) && (plan.only == nil || plan.only == $0.name) }
        // A theme whose folder went while others still inherit from it stays, as it was
        // indexed, until none does: removing it would break every one of them.
        let inherited = Dictionary(grouping: plan.settled.compactMap { name, theme in theme.parent.map { ($0, name) } }, by: \.0)
        try database.transaction {
            for theme in removed {
                if let children = inherited[theme.name]?.map(\.1).sorted() {
                    let problem = "its folder is gone, but \(children.joined(separator: ", ")) \(children.count == 1 ? "inherits" : "inherit") from it: "
                        + "it is kept as it was indexed until no theme does"
                    try noteProblem(problem, of: theme, in: database, report: &report)
                    continue
                }
                try database.prepare("DELETE FROM theme WHERE id = ?1").run([.integer(theme.id)])
                report.removedThemes.append(theme.name)
            }
            // The tree as this sync leaves it: of every theme read again, or of one patched with the rows it wrote.
            var tree = plan.tree
            if plan.only == nil { tree = try ThemeTree(in: database) } else { try tree.reread(Set(plan.folders.map(\.name) + report.removedThemes), in: database) }
            try storeServedCounts(changed: report.changedThemes + report.addedThemes, tree: tree, in: database)
        }
        // The page cache a platform's sync filled (up to cacheKibibytes) is not needed until
        // the next one: a serving process gives it back.
        try database.execute("PRAGMA shrink_memory")
        return report
    }

    /// Persists a setting (the active theme and the aliases survive restarts here, and a rebuild
    /// of the index's tables: `meta` is kept).
    public func setSetting(_ key: String, to value: String) throws {
        try connection.withLock { try $0.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)").run([.text(key), .text(value)]) }
    }

    /// Forgets a setting; returns whether there was one.
    @discardableResult
    public func removeSetting(_ key: String) throws -> Bool {
        try connection.withLock { database in
            let existed = try database.prepare("SELECT 1 FROM meta WHERE key = ?1").rows([.text(key)]).first != nil
            try database.prepare("DELETE FROM meta WHERE key = ?1").run([.text(key)])
            return existed
        }
    }

    // MARK: - Diff

    /// A theme folder against what the index holds for it.
    struct ThemeChanges {
        struct Changed {
            var source: ThemeFolder.Source
            var rank: Int
            var fingerprint: String
            var previous: SourceRecord?
        }

        var folder: ThemeFolder
        var theme: ThemeRecord?
        /// Sources whose fingerprint is the same, with their rank now.
        var unchanged: [(record: SourceRecord, rank: Int)] = []
        var changed: [Changed] = []
        var removed: [SourceRecord] = []
    }

    static func diff(_ folder: ThemeFolder, theme: ThemeRecord?, sources: [SourceRecord], stamps: FileStamps) -> ThemeChanges {
        var changes = ThemeChanges(folder: folder, theme: theme)
        var storedByPath = Dictionary(sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for (rank, source) in folder.sources.enumerated() {
            let previous = storedByPath.removeValue(forKey: source.path)
            let fingerprint = ParsedSource.fingerprint(source, stamps: stamps)
            if let previous, previous.fingerprint == fingerprint {
                changes.unchanged.append((previous, rank))
            } else {
                changes.changed.append(.init(source: source, rank: rank, fingerprint: fingerprint, previous: previous))
            }
        }
        // A theme.json that cannot be read leaves the Material roles made from it as they were:
        // the theme keeps what it served (its parent too, ParentChains).
        let kept = folder.error == nil ? [] : storedByPath.values.filter { $0.kind == .material }
        for record in kept { changes.unchanged.append((record, folder.sources.count)) }
        changes.removed = storedByPath.values.filter { record in !kept.contains { $0.path == record.path } }
        return changes
    }

    // MARK: - Parse

    /// A theme's changes with its changed sources read: what `write` stores.
    struct ParsedChanges {
        var changes: ThemeChanges
        /// Each changed source as read now, or why it could not be read.
        /// With a parsed source's variants as rows to insert (but for the theme's and the
        /// source's ids).
        var parsed: [(change: ThemeChanges.Changed, result: Result<ParsedSource, any Error>, variantRows: [PreparedInsert<VariantRecord>])]

        static func rows(of result: Result<ParsedSource, any Error>, rank: Int) -> [PreparedInsert<VariantRecord>] {
            ((try? result.get())?.variants ?? []).map { PreparedInsert(VariantRecord(themeID: 0, sourceID: 0, sourceRank: rank, variant: $0)) }
        }

    }

    /// Reads every changed source; a failure is kept, to be handled by the error policy.
    static func parse(_ changes: ThemeChanges, for purpose: ParsedSource.Purpose = .sync) -> ParsedChanges {
        ParsedChanges(changes: changes, parsed: changes.changed.map { change in
            let result = Result { try ParsedSource(change.source, for: purpose) }
            // A review stores only what differs: its rows are made once that is known (`keeping`).
            return (change, result, purpose == .sync ? ParsedChanges.rows(of: result, rank: change.rank) : [])
        })
    }

    // MARK: - Write

    /// Stores one theme's changes (inside the sync's transaction) and bumps its generation when
    /// what it serves changed.
    func write(_ parsedChanges: ParsedChanges, in database: Database, report: inout SyncReport, keepingCatalogs: Bool) throws {
        let changes = parsedChanges.changes
        let folder = changes.folder
        var theme = changes.theme ?? ThemeRecord(name: folder.name, path: folder.path, parent: folder.parent, generation: 1)
        if changes.theme == nil {
            theme.id = try theme.insert(into: database)
            report.addedThemes.append(folder.name)
        }
        var errors: [String] = (folder.error.map { [$0] } ?? []) + folder.warnings
        var warnings: [String] = []
        // Told once: the theme's errors keep it while it lasts.
        if let problem = folder.error, !(changes.theme?.error.contains(problem) ?? false) { report.themeErrors.append((folder.name, problem)) }
        for (record, rank) in changes.unchanged {
            // Unchanged: only its place among the theme's sources may have moved.
            if record.rank != rank { try move(record, to: rank, in: database) }
            if !record.error.isEmpty { errors.append(record.error) }
            if !record.warning.isEmpty { warnings.append(record.warning) }
        }
        report.unchangedSources += changes.unchanged.count
        var changed = !changes.removed.isEmpty
        for (change, result, variantRows) in parsedChanges.parsed {
            switch Self.errorPolicy(result, change: change, keepingLastGood: folder.settings.keepsLastGoodOnError) {
            case .success(let parsed):
                try replace(change, with: parsed, variantRows: variantRows, themeID: theme.id, in: database)
                errors += parsed.problems
                warnings += parsed.warnings
                report.problems += (parsed.problems + parsed.warnings).map { (folder.name, $0) }
                report.reindexedSources.append(change.source.path)
                // An edit that refuses tokens the source served before says so as an error event
                // (the theme reloads with what still resolves), naming the root cause.
                if let cause = Self.newlyRefused(parsed, previous: change.previous) {
                    report.themeErrors.append((folder.name, "tokens refused: \(cause)"))
                }
                if keepingCatalogs, let catalog = parsed.catalog { report.parsedCatalogs.append((catalog, parsed.contentHash)) }
                changed = true
            case .failure(let error):
                let message = "\(error)"
                try keepPrevious(change.previous, after: message, in: database)
                errors.append(message)
                if let kept = change.previous?.warning, !kept.isEmpty { warnings.append(kept) }
                // Told once: the same refusal at the next sync (the file is read again) is no news.
                if change.previous?.error != message { report.themeErrors.append((folder.name, message)) }
            }
        }
        for removed in changes.removed {
            try database.prepare("DELETE FROM source WHERE id = ?1").run([.integer(removed.id)])
        }
        if changed { report.problems += folder.warnings.map { (folder.name, $0) } }
        let parentChanged = changes.theme.map { $0.parent != folder.parent } ?? false
        if changed || parentChanged { report.changedThemes.append(folder.name) }
        if let theme = changes.theme, theme.error != errors.joined(separator: "\n") || theme.warning != warnings.joined(separator: "\n") { report.restatedThemes.append(folder.name) }
        try database.prepare("UPDATE theme SET path = ?1, parent = ?2, error = ?3, warning = ?4, generation = generation + ?5 WHERE id = ?6")
            .run([.text(folder.path), .optionalText(folder.parent), .text(errors.joined(separator: "\n")), .text(warnings.joined(separator: "\n")),
                  .bool(changed || parentChanged), .integer(theme.id)])
    }

    /// `write`, unless theme.json's contrast policy is `refuse` and the edit takes a pair of a
    /// theme served before below its minimum where it was not: then nothing of the edit is kept
    /// (a savepoint rolled back), the last good generation serves, and the theme says why, once.
    private func writeGuardingContrast(_ changes: ParsedChanges, in database: Database, report: inout SyncReport, keepingCatalogs: Bool) throws {
        let folder = changes.changes.folder
        let edits = !changes.parsed.isEmpty || !changes.changes.removed.isEmpty
        guard let served = changes.changes.theme, folder.settings.refusesLowContrast, edits else {
            return try write(changes, in: database, report: &report, keepingCatalogs: keepingCatalogs)
        }
        let before = try ContrastGuard.failures(of: folder.name, settings: folder.settings, in: database)
        let reported = report
        try database.execute("SAVEPOINT contrast_guard")
        try write(changes, in: database, report: &report, keepingCatalogs: keepingCatalogs)
        let broken = try ContrastGuard.failures(of: folder.name, settings: folder.settings, in: database)
            .filter { before[$0.key] == nil }.sorted { $0.key < $1.key }
        if let first = broken.first {
            try database.execute("ROLLBACK TO contrast_guard")
            report = reported
            let more = broken.count > 1 ? " (and \(broken.count - 1) more)" : ""
            try noteProblem("\(first.value)\(more): the edit breaks theme.json's contrast policy refuse; the last good generation serves",
                            of: served, in: database, report: &report)
        }
        try database.execute("RELEASE contrast_guard")
    }

    /// Records a theme-level problem on a theme this sync does not otherwise write; told once.
    private func noteProblem(_ problem: String, of theme: ThemeRecord, in database: Database, report: inout SyncReport) throws {
        guard !theme.error.contains(problem) else { return }
        try database.prepare("UPDATE theme SET error = ?1 WHERE id = ?2").run([.text(problem), .integer(theme.id)])
        report.themeErrors.append((theme.name, problem))
    }

    private func move(_ source: SourceRecord, to rank: Int, in database: Database) throws {
        let id = SQLiteValue.integer(source.id)
        try database.prepare("UPDATE source SET rank = ?1 WHERE id = ?2").run([.int(rank), id])
        try database.prepare("UPDATE variant SET source_rank = ?1 WHERE source_id = ?2").run([.int(rank), id])
        try database.prepare("UPDATE string SET source_rank = ?1 WHERE source_id = ?2").run([.int(rank), id])
    }

    /// Replaces a source's rows with what was parsed now.
    private func replace(_ change: ThemeChanges.Changed, with parsed: ParsedSource, variantRows: [PreparedInsert<VariantRecord>],
                         themeID: Int64, in database: Database) throws {
        var strings = parsed.strings
        if let previous = change.previous {
            strings += try keptStrings(of: previous, files: parsed.unreadableStringFiles, in: database)
            try database.prepare("DELETE FROM source WHERE id = ?1").run([.integer(previous.id)])
        }
        var source = SourceRecord(themeID: themeID, path: change.source.path, kind: change.source.kind, rank: change.rank,
                                  fingerprint: change.fingerprint, contentHash: parsed.contentHash)
        source.error = parsed.problems.joined(separator: "\n")
        source.warning = parsed.warnings.joined(separator: "\n")
        source.localizations = parsed.localizations
        source.localizationFolders = parsed.bundle?.localizationFolders ?? []
        source.developmentRegion = parsed.bundle?.developmentRegion
        source.identifier = parsed.bundle?.identifier
        source.allowsMixedLocalizations = parsed.bundle?.allowsMixedLocalizations ?? false
        source.owner = change.source.owner
        (source.resolver, source.modifiers) = (parsed.resolver, parsed.modifiers)
        var sourceID = try source.insert(into: database)
        // A re-read source keeps its row id: a request that took the theme chain just before this
        // commit names the sources by id (its localization plan joins on them) and must find the
        // new rows, not a 404 for the moment between the commit and the next snapshot.
        if let previous = change.previous {
            try database.cachedStatement("UPDATE source SET id = ?1 WHERE id = ?2").run([.integer(previous.id), .integer(sourceID)])
            sourceID = previous.id
        }
        for set in parsed.tokens {
            try TokenSetRecord(themeID: themeID, sourceID: sourceID, resolution: set.resolution, body: set.document).insert(into: database)
            for token in set.tokens {
                try TokenRecord(themeID: themeID, sourceID: sourceID, resolution: set.resolution, path: token.path, body: token.body).insert(into: database)
            }
        }
        for row in variantRows {
            try row.insert(into: database, setting: [.themeID: themeID, .sourceID: sourceID])
        }
        for entry in strings {
            try StringRecord(themeID: themeID, sourceID: sourceID, sourceRank: change.rank, entry: entry).insert(into: database)
        }
    }

    // MARK: - Error policy

    /// With theme.json's `onError: "keep"`, an edit of any source that brings problems its last
    /// read did not have is a failure: the last good read keeps serving whole, as with a catalog
    /// that cannot be read at all. `tokens.onError: "keep"` asks the same of the token source
    /// alone. A first read has nothing to keep: it serves what it could read.
    static func errorPolicy(_ result: Result<ParsedSource, any Error>, change: ThemeChanges.Changed,
                            keepingLastGood: Bool) -> Result<ParsedSource, any Error> {
        guard case .success(let parsed) = result, let previous = change.previous else { return result }
        if keepingLastGood || change.source.tokens?.keepOnError == true, let cause = newlyRefused(parsed, previous: previous) {
            let setting = keepingLastGood ? "onError" : "tokens.onError"
            return .failure(ThemeError("tokens refused, the last good generation kept (\(setting) \"keep\"): \(cause)"))
        }
        let before = Set(previous.error.split(separator: "\n").map(String.init))
        let new = parsed.problems.filter { !before.contains($0) }
        guard keepingLastGood, let first = new.first else { return result }
        let more = new.count > 1 ? " (and \(new.count - 1) more)" : ""
        return .failure(ThemeError("\(first)\(more): the edit is refused, the last good generation kept (onError \"keep\")"))
    }

    /// The root cause of the tokens an edit refuses that the source it replaces did not: nil for
    /// a first read, and when every problem of the new parse was the source's before.
    static func newlyRefused(_ parsed: ParsedSource, previous: SourceRecord?) -> String? {
        guard let previous, let cause = parsed.tokenRootCause else { return nil }
        let before = Set(previous.error.split(separator: "\n").map(String.init))
        return parsed.problems.allSatisfy(before.contains) ? nil : cause
    }

    /// A source that could not be read keeps what was indexed before: the theme goes on serving
    /// its last good content, and the source's row says why.
    private func keepPrevious(_ previous: SourceRecord?, after message: String, in database: Database) throws {
        guard let previous else { return }
        try database.prepare("UPDATE source SET error = ?1, kept = 1 WHERE id = ?2").run([.text(message), .integer(previous.id)])
    }

    /// The entries a `.strings` file had, for a file that no longer parses: it keeps them.
    private func keptStrings(of previous: SourceRecord, files: [String], in database: Database) throws -> [StringEntry] {
        var kept: [StringEntry] = []
        for file in files {
            kept += try database.prepare("SELECT * FROM string WHERE source_id = ?1 AND file = ?2")
                .rows([.integer(previous.id), .text(file)]).map { try StringRecord(row: $0).entry }
        }
        return kept
    }
}
