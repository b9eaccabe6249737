/// What a sync says of one theme of a themes folder (its errors and warnings, `ThemeInfo.error`
/// and `.warning`), from the same reading, with nothing stored: its parent chain settled and its
/// sources parsed as a sync parses them, but no index written, no token document and no colour
/// variant made. What `themed check` reports of a theme with no contrast pairs to look up; at a
/// large design system's size the index a sync writes is most of a check's time.
public struct ThemeProblems: Sendable, Equatable {
    public var errors: [String]
    public var warnings: [String]

    /// The theme `name` of `themesDirectory` (its parents read from there too); nil when the
    /// folder has no such theme.
    public init?(theme name: String, themesDirectory: String) {
        let discovered = ThemeFolder.discover(in: themesDirectory, lineOf: name)
        let settled = ParentChains.settle(discovered, stored: [:], scope: .folder)
        guard var folder = discovered.first(where: { $0.name == name }) else { return nil }
        (folder.parent, folder.error) = (settled[name]?.parent, settled[name]?.problem)
        // As `IndexWriter.write` composes them for a theme read the first time: the folder's
        // problems, then each source's, in the folder's order; a source that cannot be read at
        // all is an error, and nothing of a last good read is kept, for there is none.
        var errors = (folder.error.map { [$0] } ?? []) + folder.warnings
        var warnings: [String] = []
        for source in folder.sources {
            do {
                let parsed = try ParsedSource(source, for: .problems)
                errors += parsed.problems
                warnings += parsed.warnings
            } catch {
                errors.append("\(error)")
            }
        }
        // One line each, as a theme's `error` and `warning` are read back.
        func lines(_ said: [String]) -> [String] { said.joined(separator: "\n").split(separator: "\n").map(String.init) }
        (self.errors, self.warnings) = (lines(errors), lines(warnings))
    }
}
