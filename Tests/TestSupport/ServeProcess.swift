import Foundation

/// `themed serve` started as systemd starts it: ready once it says so on its notify socket, on
/// the port it took (`--port 0`). Stopped with SIGTERM when the test ends.
public final class ServeProcess {
    public struct NotStarted: Error, CustomStringConvertible { public var description: String }

    public let process = Process()
    public let port: Int

    /// `arguments` follow `serve --port 0`; `standardError` gets what it logs (by default nothing).
    public init(executable: String, arguments: [String], in folder: String, standardError: Any = FileHandle.nullDevice) throws {
        let notify = try NotifySocket(in: folder)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--port", "0"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 }
        (process.standardOutput, process.standardError) = (FileHandle.nullDevice, standardError)
        try process.run()
        let ready = notify.receive() ?? ""
        guard let port = ready.split(separator: "\n").first(where: { $0.hasPrefix("STATUS=") })?.split(separator: " ").last.flatMap({ Int($0) }) else {
            process.terminate()
            throw NotStarted(description: "themed serve did not start: \(ready)")
        }
        self.port = port
    }

    /// SIGTERM, as systemd stops it.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}
