import Foundation
import JSON
import Logging
import ThemeContent
import ThemeIndex
import ThemeVocabulary

/// What changes tell the event stream and the log: theme-added, -reloaded, -removed and -error
/// after a reload, active-changed after a switch.
enum ReloadEvents {
    /// A sync logs at most this many problems of a theme (warnings are one per kind and file).
    static let problemsLogged = 5

    /// `announcingChanges` false: the themes' changes are logged but not published (a replica's
    /// first index, whose changes the store's history tells); errors always are.
    static func publish(_ report: SyncReport, themes: [ThemeInfo], to events: EventHub, generation: Generation? = nil, announcingChanges: Bool = true,
                        logger: Logger) {
        func theme(_ name: String) -> ThemeInfo? { themes.first { $0.name == name } }
        // A replica's kept generation (`brand@43`) is no theme of its own to clients: the change
        // that made it keep one is announced as `assignment-changed`.
        func isKept(_ name: String) -> Bool { ThemeName.pin(in: name) != nil }
        for name in report.changedThemes where !isKept(name) {
            if announcingChanges {
                events.publish(.theme(report.addedThemes.contains(name) ? .added : .reloaded, revision(name, theme(name), generation: generation)),
                               generation: generation)
            }
            logger.info("theme loaded", metadata: ["theme": "\(name)"])
        }
        for name in report.removedThemes where announcingChanges && !isKept(name) {
            events.publish(.theme(.removed, revision(name, nil, generation: generation)), generation: generation)
        }
        // A few lines a theme, however many tokens it refuses: the rest is at /themes/{theme}/problems.
        for (name, problems) in Dictionary(grouping: report.problems, by: \.theme).sorted(by: { $0.key < $1.key }) {
            for (_, message) in problems.prefix(Self.problemsLogged) {
                logger.warning("theme source problem", metadata: ["theme": "\(name)", "problem": "\(message)"])
            }
            if problems.count > Self.problemsLogged {
                logger.warning("theme source problems not logged", metadata: [
                    "theme": "\(name)", "more": "\(problems.count - Self.problemsLogged)", "all": "/themes/\(name)/problems"])
            }
        }
        for (name, message) in report.themeErrors {
            logger.error("theme source rejected", metadata: ["theme": "\(name)", "error": "\(message)"])
            guard !isKept(name) else { continue }
            publishError(message, theme: name, theme(name), to: events, generation: generation)
        }
    }

    /// A `theme-error` event: what was rejected and why, and when; the theme keeps serving what
    /// it served before.
    static func publishError(_ message: String, theme name: String, _ theme: ThemeInfo?, to events: EventHub, generation: Generation? = nil) {
        events.publish(.themeError(revision(name, theme, generation: generation), error: message, time: ISO8601DateFormatter().string(from: Date())),
                       generation: generation)
    }

    /// Makes `name` the active theme and announces it (unless `announcing` is false: a replica's
    /// start, whose store history tells the switch); throws what the index says when it cannot.
    static func makeActive(_ name: String, library: ThemeLibrary, events: EventHub, generation: Generation? = nil, announcing: Bool = true) throws {
        try library.setActive(name)
        guard announcing else { return }
        if let theme = library.theme(named: name) {
            events.publish(.theme(.activated, revision(theme.name, theme, generation: generation)), generation: generation)
        } else if library.isElsewhere(name) {
            // Another shard's theme: its revision is that shard's to tell; `current` leads there.
            events.publish(.theme(.activated, revision(name, nil, generation: generation)), generation: generation)
        }
    }

    /// A theme as its event names it: `generation` when the change has one (a cluster store's),
    /// else the theme's own; the revision of what it serves, none once removed.
    static func revision(_ name: String, _ theme: ThemeInfo?, generation: Generation?) -> ThemeRevision {
        ThemeRevision(theme: name, generation: generation ?? theme?.generation ?? 0, revision: theme?.revision ?? "")
    }
}
