import ArgumentParser
import Foundation
import ThemeVocabulary
import ThemedClient

/// `themed watch URL`: the resolved palette, then each change as it happens.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print a theme's resolved palette, then every change to it, from a themed server.",
        discussion: "Built on the ThemedClient library: it follows /events, reconnecting with Last-Event-ID. "
            + "With --json each palette is one JSON line ({\"reason\": ..., \"theme\": ..., \"colors\": {...}}).")

    @Argument(help: "The server, e.g. http://127.0.0.1:8080") var url: String
    @Option(help: "Theme to watch (current follows the active theme).") var theme = "current"
    @Option(help: "Appearance: any, light or dark.") var appearance = "any"
    @Option(help: "Preferred languages, comma-separated.") var lang: String?
    @Flag(help: "One JSON line per palette.") var json = false

    func run() async throws {
        guard let server = URL(string: url), server.scheme == "http" || server.scheme == "https" else {
            throw ValidationError("\(url) is not an http(s) URL")
        }
        let traits = ThemeTraits(appearance: Appearance(name: appearance), languages: lang.map { $0.split(separator: ",").map(String.init) } ?? [])
        let client = ThemedClient(server: server, theme: theme, traits: traits)
        let updates = client.updates
        let following = client.follow()
        defer { following.cancel() }
        if await client.refresh() == nil {
            FileHandle.standardError.write(Data("themed watch: \(client.lastError.map { "\($0)" } ?? "no palette"); waiting for the server\n".utf8))
        }
        for await update in updates {
            // Written at once, not buffered: a script reading the pipe sees each change as it happens.
            FileHandle.standardOutput.write(Data(((json ? Self.jsonLine(update) : Self.text(update)) + "\n").utf8))
        }
    }

    static func reason(_ reason: ThemedClient.Update.Reason) -> String {
        switch reason {
        case .cached: "cached"
        case .defaults: "defaults"
        case .fetched: "fetched"
        case .traitsChanged: "traits-changed"
        case .revalidated: "revalidated"
        case .current: "current"
        case .event(let type): type
        }
    }

    static func jsonLine(_ update: ThemedClient.Update) -> String {
        let colors = update.palette.colors.mapValues { ["hex": $0.hex, "css": $0.css] }
        let object: [String: Any] = ["reason": reason(update.reason), "theme": update.palette.theme, "colors": colors]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func text(_ update: ThemedClient.Update) -> String {
        let lines = update.palette.colors.keys.sorted().map { name in
            "  \(name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(update.palette.colors[name]?.hex ?? "")"
        }
        return (["\(update.palette.theme) (\(reason(update.reason))):"] + lines).joined(separator: "\n")
    }
}
