import Foundation
import JSON
import Logging
import ThemeContent
import ThemeIndex

/// What changes tell the event stream and the log: theme-added, -reloaded, -removed and -error
/// after a reload, active-changed after a switch.
enum ReloadEvents {
    static func publish(_ report: SyncReport, themes: [ThemeInfo], to events: EventHub, generation: Int? = nil, logger: Logger) {
        func theme(_ name: String) -> ThemeInfo? { themes.first { $0.name == name } }
        for name in report.changedThemes {
            events.publish(report.addedThemes.contains(name) ? "theme-added" : "theme-reloaded", payload(name, theme(name), generation: generation), generation: generation)
            logger.info("theme loaded", metadata: ["theme": "\(name)"])
        }
        for name in report.removedThemes {
            events.publish("theme-removed", payload(name, nil, generation: generation), generation: generation)
        }
        for (name, message) in report.problems {
            logger.warning("theme source problem", metadata: ["theme": "\(name)", "problem": "\(message)"])
        }
        for (name, message) in report.themeErrors {
            logger.error("theme source rejected", metadata: ["theme": "\(name)", "error": "\(message)"])
            publishError(message, theme: name, theme(name), to: events, generation: generation)
        }
    }

    /// A `theme-error` event: what was rejected and why, and when; the theme keeps serving what
    /// it served before.
    static func publishError(_ message: String, theme name: String, _ theme: ThemeInfo?, to events: EventHub, generation: Int? = nil) {
        events.publish("theme-error", payload(name, theme, generation: generation, extra: [("error", .string(message)), ("time", .string(ISO8601DateFormatter().string(from: Date())))]),
                       generation: generation)
    }

    /// Makes `name` the active theme and announces it; throws what the index says when it cannot.
    static func makeActive(_ name: String, library: ThemeLibrary, events: EventHub, generation: Int? = nil) throws {
        try library.setActive(name)
        if let theme = library.theme(named: name) {
            events.publish("active-changed", payload(theme.name, theme, generation: generation), generation: generation)
        } else if library.isElsewhere(name) {
            // Another shard's theme: its revision is that shard's to tell; `current` leads there.
            events.publish("active-changed", payload(name, nil, generation: generation), generation: generation)
        }
    }

    /// An event's data: the theme, its generation and revision (its content's name, the same on
    /// every replica; empty once removed). With a cluster store the generation is the store's,
    /// the one in the event's id, the release history and rollbacks; in folder mode, the theme's
    /// own count of its index's changes.
    static func payload(_ name: String, _ theme: ThemeInfo?, generation: Int?, extra: [(String, JSONValue)] = []) -> JSONValue {
        .object([("theme", .string(name)), ("generation", .int(generation ?? theme?.generation ?? 0)), ("revision", .string(theme?.revision ?? ""))]
            + extra)
    }
}
