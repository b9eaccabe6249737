import Foundation
import JSON
import Logging
import ThemeIndex

/// What a reload tells the event stream and the log: theme-added, -reloaded, -removed and -error.
enum ReloadEvents {
    static func publish(_ report: SyncReport, themes: [ThemeInfo], to events: EventHub, logger: Logger) {
        func generation(_ name: String) -> Int { themes.first { $0.name == name }?.generation ?? 0 }
        for name in report.changedThemes {
            events.publish(report.addedThemes.contains(name) ? "theme-added" : "theme-reloaded", payload(name, generation: generation(name)))
            logger.info("theme loaded", metadata: ["theme": "\(name)"])
        }
        for name in report.removedThemes {
            events.publish("theme-removed", .object([("theme", .string(name)), ("generation", .int(0)), ("etag", .string(""))]))
        }
        for (name, message) in report.problems {
            logger.warning("theme source problem", metadata: ["theme": "\(name)", "problem": "\(message)"])
        }
        for (name, message) in report.themeErrors {
            logger.error("theme source rejected", metadata: ["theme": "\(name)", "error": "\(message)"])
            events.publish("theme-error", payload(name, generation: generation(name),
                                                  extra: [("error", .string(message)), ("time", .string(ISO8601DateFormatter().string(from: Date())))]))
        }
    }

    /// An event's data: the theme, its generation, and an ETag that changes with the generation.
    static func payload(_ theme: String, generation: Int, extra: [(String, JSONValue)] = []) -> JSONValue {
        .object([("theme", .string(theme)), ("generation", .int(generation)), ("etag", .string(themeETag(theme, generation)))] + extra)
    }

    static func themeETag(_ name: String, _ generation: Int) -> String {
        var hash = ContentHash()
        hash.add("\(name)\u{0}\(generation)")
        return hash.hex
    }
}
