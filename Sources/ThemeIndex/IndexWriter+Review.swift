import SQLite

/// A sync for a review (`themed diff`): two versions of a themes folder, each indexed as a sync
/// indexes it but holding only what differs between them.
extension IndexWriter {
    /// Two versions of a themes folder (a review's before and after), each indexed by its own
    /// writer as a sync indexes it, but holding only what differs between them and the colours
    /// of their contrast pairs (`ReviewDifferences`): what `themed diff` compares. The two are
    /// read side by side, compared, then each written.
    public static func syncDifferences(_ before: (themesDirectory: String, writer: IndexWriter),
                                       _ after: (themesDirectory: String, writer: IndexWriter)) throws {
        let readings = [before, after].concurrentMap { side in Result { try side.writer.readForReview(side.themesDirectory) } }
        let (old, new) = (try readings[0].get(), try readings[1].get())
        let differences = ReviewDifferences(old, new)
        try [(before.writer, old), (after.writer, new)].concurrentMap { writer, reading in
            Result { try writer.write(reading.themes, keeping: differences) }
        }.forEach { try $0.get() }
    }

    /// Every theme of `directory` parsed for a review: a sync's reading, its token documents not
    /// yet written.
    private func readForReview(_ directory: String) throws -> ReviewDifferences.Reading {
        let discovered = ThemeFolder.discover(in: directory)
        let plan = try connection.withLock { try Plan(of: discovered, parents: .folder, tree: try ThemeTree(in: $0), in: $0) }
        return ReviewDifferences.Reading(themesDirectory: directory,
                                         themes: plan.folders.indices.map { Self.parse(plan.changes(at: $0), for: .review) })
    }

    /// Stores what `differences` keeps of each theme, as a sync stores a theme.
    private func write(_ themes: [ParsedChanges], keeping differences: ReviewDifferences) throws {
        try connection.withLock { database in
            var report = SyncReport()
            try database.transaction {
                for theme in themes { try write(theme.keeping(differences), in: database, report: &report, keepingCatalogs: false) }
            }
        }
    }
}

extension IndexWriter.ParsedChanges {
    /// With only what `differences` keeps of each source read (`ParsedSource.keeping`).
    func keeping(_ differences: ReviewDifferences) -> IndexWriter.ParsedChanges {
        IndexWriter.ParsedChanges(changes: changes, parsed: parsed.map { change, result, _ in
            let kept = result.map { $0.keeping(differences) }
            return (change, kept, Self.rows(of: kept, rank: change.rank))
        })
    }
}
