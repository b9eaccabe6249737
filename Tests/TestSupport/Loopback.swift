import Foundation

/// Sockets on 127.0.0.1 for tests that need a port of their own.
public enum Loopback {
    /// A TCP socket bound to a free port (listening when `listening`), and the port.
    public static func boundSocket(listening: Bool) -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        if listening { listen(descriptor, 8) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nothing listens on right now (the kernel may hand it out again later).
    public static func freePort() -> Int {
        let (descriptor, port) = boundSocket(listening: false)
        close(descriptor)
        return port
    }
}

/// The one polling helper: asks `condition` until it holds or `seconds` have passed, and says
/// whether it held. Tests wait for what they can observe (a file, a count, a state), never for a
/// guessed time. Polls every millisecond at first, then less often, up to every 20 ms.
public func waitUntil(_ seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    var interval = 0.001
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
        interval = min(interval * 2, 0.02)
    }
    return try condition()
}

/// `waitUntil` for async tests: the same polling, sleeping the task instead of the thread (a
/// test that blocked a thread of the cooperative pool could hold up the work it waits for).
public func waitUntil(within seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    var interval = Duration.milliseconds(1)
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
        interval = min(interval * 2, .milliseconds(20))
    }
    return try await condition()
}
