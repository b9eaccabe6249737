import Foundation
import HTTPServer
import Logging
import Settings
import Synchronization
import TestSupport
import ThemeContent
import ThemedApp
import ThemeServer

/// A real themed server on an ephemeral port, serving themes the test builds: the daemon as
/// `buildApplication` makes it for `themed serve`.
public final class ServerFixture {
    public let fixtures = ThemeFixtures()
    public let app: Application
    public let service: ThemeService
    public var server: HTTPServer { app.server }
    /// A server a test started on the same port after stopping `server` (a restart), ended with the fixture.
    public var restarted: HTTPServer?
    public let port: Int

    /// `workers`: the decoders' pool, with nothing warmed behind the test's back (it watches cold
    /// loads); `watch`: the folder watcher, with a 200 ms quiet time.
    public init(configure: @escaping (inout HTTPServer.Configuration) -> Void = { _ in }, watch: Bool = false, activeToken: String? = nil,
                logger: Logger = Logger(label: "themed"), workers: WorkerPool? = nil,
                themes build: (ThemeFixtures) -> Void = ServerFixture.standardThemes) throws {
        build(fixtures)
        try FileManager.default.createDirectory(atPath: fixtures.path("themes"), withIntermediateDirectories: true)
        var settings = Self.settings(in: fixtures)
        (settings.activeToken, settings.watch) = (activeToken, watch)
        var overrides = ApplicationOverrides()
        (overrides.logger, overrides.decoders, overrides.watchSettleTime, overrides.server) = (logger, workers, .milliseconds(200), configure)
        app = try buildApplication(settings, overrides: overrides)
        try app.start()
        guard let service = app.service else { throw ServerFixtureError.notServing }
        self.service = service
        port = app.server.port
    }

    deinit {
        restarted?.shutdown(timeout: .seconds(2))
        app.shutdown()
        fixtures.remove()
    }

    struct ServerFixtureError: Error { static let notServing = ServerFixtureError() }

    /// The settings of a daemon serving `fixtures`' themes folder, with its index and blobs beside
    /// it, on an ephemeral loopback port.
    public static func settings(in fixtures: ThemeFixtures) -> ServerSettings {
        var settings = ServerSettings()
        (settings.themes, settings.db, settings.blobs) = (fixtures.path("themes"), fixtures.path("index.sqlite"), fixtures.path("blobs"))
        (settings.host, settings.port, settings.watch) = ("127.0.0.1", 0, false)
        return settings
    }

    public func client(receiveBuffer: Int32? = nil) throws -> TestClient { try TestClient(port: port, receiveBuffer: receiveBuffer) }

    /// `light` and `dark` themes with colours and a logo at 1x/2x/3x with dark variants.
    public static func standardThemes(_ f: ThemeFixtures) {
        for (theme, red) in [("light", "0.1"), ("dark", "0.9")] {
            f.colorSet("themes/\(theme)", "primary", [
                (nil, ["red": red, "green": "0.2", "blue": "0.3", "alpha": "1.000"], [:]),
                ("dark", ["red": "0x10", "green": "0x20", "blue": "0x30", "alpha": "1.000"], [:]),
                ("high", ["red": "255", "green": "0", "blue": "0", "alpha": "1.000"], [:]),
            ])
            f.colorSet("themes/\(theme)", "background", [(nil, ["red": "1", "green": "1", "blue": "1"], [:])])
            f.imageSet("themes/\(theme)", "logo", [["scale": "1x"], ["scale": "2x"], ["scale": "3x"], ["scale": "2x", "appearance": "dark"]])
        }
    }
}

/// A log handler that keeps what is logged, so that tests can read the log.
public struct RecordingLogHandler: LogHandler {
    public final class Records: Sendable {
        public let lines = Mutex<[String]>([])
        public var all: [String] { lines.withLock { $0 } }
        public init() {}
    }

    public let records: Records
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public init(records: Records) { self.records = records }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
        let details = (metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        records.lines.withLock { $0.append("\(level) \(message) \(details)") }
    }

    /// A logger whose lines end up in the returned records.
    public static func logger() -> (Logger, Records) {
        let records = Records()
        return (Logger(label: "test") { _ in RecordingLogHandler(records: records) }, records)
    }
}
