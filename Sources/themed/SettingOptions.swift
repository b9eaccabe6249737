import ArgumentParser
import Foundation
import Settings

/// The flags `serve` and `config check` share, and how they combine with the config file.
struct SettingOptions: ParsableArguments {
    @Option(help: "JSON settings file.") var config: String?
    @Option(help: "Folder of themes.") var themes: String?
    @Option(help: "SQLite index file (created if missing).") var db: String?
    @Option(help: "Blob store folder (created if missing).") var blobs: String?
    @Option(help: "Address to listen on.") var host: String?
    @Option(help: "Port to listen on (0 picks a free one).") var port: Int?
    @Option(help: "Log lines as text or json.") var logFormat: String?
    @Option(help: "Access log file, or - for standard output.") var accessLog: String?
    @Option(help: "PostgreSQL URL of a cluster store to follow (docs/DEPLOY.md).") var cluster: String?
    @Option(help: "This replica's shard of the themes, N/COUNT (docs/DEPLOY.md).") var shard: String?

    /// Defaults, then the config file, then flags; an unusable value is exit status 2.
    func resolve(configFile explicit: String? = nil) throws -> ServerSettings {
        var settings = try Self.settings(configFile: explicit ?? config)
        do {
            let flags: [(String, String, Any?)] = [
                ("--themes", "themes", themes), ("--db", "db", db), ("--blobs", "blobs", blobs), ("--host", "host", host),
                ("--port", "port", port), ("--log-format", "logFormat", logFormat), ("--access-log", "accessLog", accessLog),
                ("--cluster", "cluster", cluster), ("--shard", "shard", shard),
            ]
            for case let (flag, key, value?) in flags { try settings.apply(flag: flag, key: key, value) }
        } catch {
            throw Startup.failure("\(error)")
        }
        return settings
    }

    /// Defaults, then the config file (`config/themed.json` when none is named and it exists):
    /// the settings of a command that has no setting flags of its own, such as `sign`. An option
    /// group's properties can be read only once the parser has filled them, so such a command
    /// calls this rather than making a `SettingOptions` itself.
    static func settings(configFile explicit: String?) throws -> ServerSettings {
        var settings = ServerSettings()
        let path = explicit ?? (FileManager.default.fileExists(atPath: "config/themed.json") ? "config/themed.json" : nil)
        do {
            if let path { try settings.apply(configFile: path) }
        } catch {
            throw Startup.failure("\(error)")
        }
        return settings
    }
}
