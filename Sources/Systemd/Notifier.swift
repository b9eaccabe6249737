import Foundation

/// systemd's readiness protocol (sd_notify(3)) without libsystemd: a datagram of `KEY=VALUE`
/// lines sent to the Unix socket named by `$NOTIFY_SOCKET` (a path, or `@name` in the abstract
/// namespace). Without that variable (not started by systemd) every call does nothing.
public struct Notifier: Sendable {
    let socketPath: String?
    /// How often systemd expects `WATCHDOG=1` (`$WATCHDOG_USEC`, when `$WATCHDOG_PID` is unset or ours).
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let forUs = environment["WATCHDOG_PID"].map { $0 == String(getpid()) } ?? true
        if forUs, let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 {
            watchdogInterval = .microseconds(microseconds)
        } else {
            watchdogInterval = nil
        }
    }

    public var isEnabled: Bool { socketPath != nil }

    /// The service is up (after the first index is served).
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())") }
    /// The service is re-reading its configuration or themes (SIGHUP); `reloaded` follows.
    public func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())") }
    public func reloaded(status: String) { send("READY=1\nSTATUS=\(status)") }
    /// Shutting down: draining connections.
    public func stopping() { send("STOPPING=1\nSTATUS=draining connections") }
    public func watchdog() { send("WATCHDOG=1") }

    /// Sends one datagram; failures are ignored, as sd_notify's callers do (the service works
    /// the same without a manager listening).
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        // `@name`: an abstract socket, whose name starts with a NUL byte.
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.enumerated() { buffer[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, length) }
            }
        }
        return sent == bytes.count
    }

    static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    }
}
