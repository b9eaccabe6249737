import Foundation

/// A datagram socket standing in for systemd's notify socket: a file in the temporary folder,
/// or a name in the abstract namespace (`@name`), as `NOTIFY_SOCKET` may give either.
public final class NotifySocket {
    let descriptor: Int32
    public let path: String

    public init(abstract: Bool = false, in folder: String = NSTemporaryDirectory(), timeoutSeconds: Int = 10) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let name = "themed-notify-\(UUID().uuidString.prefix(8))"
        path = abstract ? "@" + name : (folder as NSString).appendingPathComponent(name)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in for (index, byte) in bytes.enumerated() { buffer[index] = byte } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next datagram, or nil after the timeout.
    public func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    deinit {
        close(descriptor)
        if !path.hasPrefix("@") { unlink(path) }
    }
}
