import ArgumentParser
import CLinux
import Dispatch
import Foundation
import Hashing
import Logging
import Logs
import Settings
import ThemedApp

/// `themed serve`: index the themes and answer lookups over HTTP until SIGTERM or SIGINT.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the themes folder over HTTP/JSON.",
        discussion: "Settings come from defaults, then --config (default config/themed.json when present), then flags. "
            + "A setting or path that cannot be used is one line on standard error and exit status 2.")

    @OptionGroup var options: SettingOptions

    func run() throws {
        // Before anything uses libcrypto: its exit-time cleanup would pull it from under the
        // background threads still hashing when the daemon exits (see `LibCrypto`).
        LibCrypto.setUp
        let settings = try options.resolve()
        Self.tuneProcess()
        let openFiles = themed_raise_open_file_limit()
        let format: LineLogHandler.Format = settings.logFormat == .json ? .json : .text
        LoggingSystem.bootstrap { LineLogHandler(label: $0, format: format, level: settings.logLevel) }
        let logger = Logger(label: "themed")
        if openFiles >= 0, openFiles < settings.maxConnections + 64 {
            logger.warning("the open-file limit is below maxConnections: connections past it are refused",
                           metadata: ["limit": "\(openFiles)", "maxConnections": "\(settings.maxConnections)"])
        }
        let app: Application
        do { app = try buildApplication(settings) } catch { throw Startup.failure("\(error)") }

        // Signals are caught from the start: a SIGTERM while the first index is built still
        // drains and exits cleanly.
        let stop = DispatchSemaphore(value: 0)
        let signals = [SIGTERM, SIGINT, SIGHUP].map { (number: Int32) -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { if number == SIGHUP { app.rescan() } else { stop.signal() } }
            source.resume()
            return source
        }
        do {
            try app.start { app in print("themed: serving \(app.service?.themesDirectory ?? app.settings.themes) on \(app.address)") }
        } catch {
            app.shutdown()
            throw Startup.failure("\(error)")
        }
        stop.wait()
        app.shutdown()
        signals.forEach { $0.cancel() }
        let left = Self.threadsLeft(within: .seconds(2))
        logger.info("stopped", metadata: ["threads_left": "\(left.isEmpty ? "none" : left.joined(separator: ","))"])
        // Nothing the daemon built is torn down on the way out: the process ends, and a teardown
        // would run on whichever thread lets go last (a cancelled timer releases its handler on a
        // Dispatch worker, later), racing the exit handlers: OpenSSL's cleanup freed its tables
        // while a worker closed the index, and the heap was found corrupt (once, in CI).
        Self.keptUntilExit = [app, signals]
    }

    /// Freed bitmaps go back to the system rather than staying in the heap, and the heap is split
    /// in four arenas a core (see the shim): with fewer, the event loops waited on arena locks the
    /// warming's and decoders' low-priority threads held; with glibc's eight a core, more memory
    /// for nothing (docs/PERFORMANCE.md has both). A heap keeps 8 MiB free at its top between the
    /// trims, so that requests do not grow and shrink it each time.
    private static func tuneProcess() {
        _ = themed_fix_mmap_threshold(128 << 10)
        _ = themed_fix_trim_threshold(8 << 20)
        _ = themed_limit_arenas(Int32(4 * max(2, ProcessInfo.processInfo.activeProcessorCount)))
    }

    /// The threads the daemon started (each named "themed-...") still running `limit` after a
    /// shutdown: none should be. A thread that said it ended may take a moment to exit (those of
    /// the warming run at the lowest priority), so they are asked again until the limit.
    private static func threadsLeft(within limit: Duration) -> [String] {
        let deadline = ContinuousClock.now + limit
        while true {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            let left = tasks.compactMap { task in
                (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }.filter { $0.hasPrefix("themed-") }.sorted()
            guard !left.isEmpty, ContinuousClock.now < deadline else { return left }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Written once, as `run` ends, and never read.
    nonisolated(unsafe) private static var keptUntilExit: [Any] = []
}
