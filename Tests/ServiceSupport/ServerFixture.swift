import BlobStore
import Foundation
import Settings
import HTTPServer
import Logging
import Synchronization
import TestSupport
import ThemeContent
import ThemeIndex
import ThemeServer

/// A real themed server on an ephemeral port, serving themes the test builds.
public final class ServerFixture {
    public let fixtures = ThemeFixtures()
    public var service: ThemeService!
    public var server: HTTPServer!
    public var watcher: ThemeWatcher?
    public var port: Int { server.port }

    public init(configure: (inout HTTPServer.Configuration) -> Void = { _ in }, watch: Bool = false, activeToken: String? = nil,
         logger: Logger = Logger(label: "themed"), workers: WorkerPool? = nil,
         themes build: (ThemeFixtures) -> Void = ServerFixture.standardThemes) throws {
        build(fixtures)
        try FileManager.default.createDirectory(atPath: fixtures.path("themes"), withIntermediateDirectories: true)
        let index = try ThemeIndex(databasePath: fixtures.path("index.sqlite"))
        // With its own workers, a test watches cold loads: nothing is warmed behind its back.
        let content = try workers.map { ContentStore(blobs: try BlobStore(directory: fixtures.path("blobs")), configuration: .init(workers: $0, warmsAfterReload: false)) }
        var settings = ServerSettings()
        settings.activeToken = activeToken
        var made = ThemeServiceConfiguration(themesDirectory: fixtures.path("themes"))
        (made.activeToken, made.loopbackIsOperator) = (activeToken, settings.loopbackIsOperator)
        (made.logger, made.content) = (logger, content)
        service = try ThemeService(index: index, configuration: made)
        try service.reload()
        if watch {
            let service = self.service!
            watcher = try ThemeWatcher(directory: service.themesDirectory, settleTime: .milliseconds(200)) { _ = try? service.reload(only: $0) }
        }
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        configure(&configuration)
        let service = self.service!
        // As `themed serve` makes it: kept answers from the request's head, the rest from its Request.
        server = HTTPServer(configuration: configuration, headResponder: service) { service.answerRouted($0) }
        try server.start()
    }

    deinit {
        watcher?.stop()
        server?.shutdown(timeout: .seconds(2))
        fixtures.remove()
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
