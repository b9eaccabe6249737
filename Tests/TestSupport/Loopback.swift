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

/// Polls `condition` every 20 ms until it holds or `seconds` have passed; true when it held.
public func waitUntil(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}
