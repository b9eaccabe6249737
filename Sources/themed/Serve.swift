import ArgumentParser
import AssetCatalog
import BlobStore
import CLinux
import Dispatch
import Foundation
import HTTPServer
import Logging
import ThemeContent
import ThemeIndex
import ThemeServer

/// `themed serve`: index the themes and answer lookups over HTTP until SIGTERM or SIGINT.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the themes folder over HTTP/JSON.",
        discussion: "Settings come from defaults, then --config (default config/themed.json when present), then flags.")

    @Option(help: "JSON settings file.") var config: String?
    @Option(help: "Folder of themes.") var themes: String?
    @Option(help: "SQLite index file (created if missing).") var db: String?
    @Option(help: "Blob store folder (created if missing).") var blobs: String?
    @Option(help: "Address to listen on.") var host: String?
    @Option(help: "Port to listen on (0 picks a free one).") var port: Int?

    func run() throws {
        var settings = ServerSettings()
        let configPath = config ?? (FileManager.default.fileExists(atPath: "config/themed.json") ? "config/themed.json" : nil)
        do {
            if let configPath { try settings.apply(configFile: configPath) }
        } catch {
            FileHandle.standardError.write(Data("themed: \(error)\n".utf8))
            throw ExitCode(2)
        }
        if let themes { settings.themes = themes }
        if let db { settings.db = db }
        if let blobs { settings.blobs = blobs }
        if let host { settings.host = host }
        if let port { settings.port = port }

        // Freed bitmaps go back to the system rather than staying in the heap (see the shim).
        _ = themed_fix_mmap_threshold(128 << 10)
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let logger = Logger(label: "themed")
        let themesPath = URL(fileURLWithPath: settings.themes).standardizedFileURL.path
        let databaseFolder = (settings.db as NSString).deletingLastPathComponent
        if !databaseFolder.isEmpty { try FileManager.default.createDirectory(atPath: databaseFolder, withIntermediateDirectories: true) }
        let index = try ThemeIndex(databasePath: settings.db)
        let workers = settings.decodeThreads > 0 ? WorkerPool(threads: settings.decodeThreads) : WorkerPool()
        AssetCatalog.decodedAtlases.setCapacity(settings.atlasCacheBytes)
        let blobs: BlobStore
        do {
            blobs = try BlobStore(directory: settings.blobs)
        } catch {
            FileHandle.standardError.write(Data("themed: blobs: \(error)\n".utf8))
            throw ExitCode(2)
        }
        for problem in blobs.problems { logger.warning("blob store damaged", metadata: ["problem": "\(problem)"]) }
        let content = ContentStore(blobs: blobs, catalogBytes: settings.catalogCacheBytes, decodeBytes: settings.decodeMemoryBytes, workers: workers,
                                   collectionGrace: .milliseconds(Int(settings.blobGraceSeconds * 1000)))
        let policy = CachePolicy(maxAgeSeconds: settings.maxAgeSeconds, sharedMaxAgeSeconds: settings.sharedMaxAgeSeconds,
                                 staleWhileRevalidateSeconds: settings.staleWhileRevalidateSeconds)
        let service = try ThemeService(index: index, themesDirectory: themesPath, activeToken: settings.activeToken, logger: logger,
                                       content: content, responseCacheBytes: settings.responseCacheBytes, cachePolicy: policy)
        let report = try service.reload()
        let names = service.library.themes.map(\.name)
        logger.info("indexed themes", metadata: ["reindexed": "\(report.reindexedSources.count)", "unchanged": "\(report.unchangedSources)",
                                                 "themes": "\(names)"])

        var serverConfiguration = HTTPServer.Configuration()
        serverConfiguration.host = settings.host
        serverConfiguration.port = settings.port
        serverConfiguration.maxConnections = settings.maxConnections
        serverConfiguration.headerTimeout = .milliseconds(Int(settings.headerTimeoutSeconds * 1000))
        serverConfiguration.idleTimeout = .milliseconds(Int(settings.idleTimeoutSeconds * 1000))
        serverConfiguration.bodyTimeout = .milliseconds(Int(settings.bodyTimeoutSeconds * 1000))
        serverConfiguration.minimumSendRate = settings.minimumSendRate
        serverConfiguration.sendGrace = .milliseconds(Int(settings.sendGraceSeconds * 1000))
        let server = HTTPServer(configuration: serverConfiguration, logger: logger) { service.handle($0) }
        try server.start()
        print("themed: serving \(themesPath) on http://\(settings.host):\(server.port)")

        let watcher = settings.watch ? try ThemeWatcher(service: service, logger: logger) : nil
        let heartbeat = DispatchSource.makeTimerSource(queue: .global())
        heartbeat.schedule(deadline: .now() + settings.heartbeatSeconds, repeating: settings.heartbeatSeconds)
        heartbeat.setEventHandler { service.events.heartbeat() }
        heartbeat.resume()

        let stop = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard number == SIGHUP else { stop.signal(); return }
                logger.info("SIGHUP: rescanning every theme")
                do { try service.reload() } catch { logger.error("rescan failed", metadata: ["error": "\(error)"]) }
            }
            source.resume()
            sources.append(source)
        }
        stop.wait()
        logger.info("shutting down")
        heartbeat.cancel()
        watcher?.stop()
        server.shutdown()
        sources.forEach { $0.cancel() }
    }
}
