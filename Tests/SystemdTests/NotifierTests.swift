import Foundation
import Systemd
import Testing

/// A datagram socket standing in for systemd's notify socket.
final class NotifySocket {
    let descriptor: Int32
    let path: String

    init(abstract: Bool = false) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        let name = "themed-notify-\(UUID().uuidString.prefix(8))"
        path = abstract ? "@" + name : NSTemporaryDirectory() + name
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in for (index, byte) in bytes.enumerated() { buffer[index] = byte } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    deinit {
        close(descriptor)
        if !path.hasPrefix("@") { unlink(path) }
    }
}

@Suite("systemd notify")
struct NotifierTests {
    @Test("READY, RELOADING, STOPPING and WATCHDOG arrive as datagrams on the socket systemd names", arguments: [false, true])
    func messages(abstract: Bool) throws {
        let socket = try NotifySocket(abstract: abstract)
        let notifier = Notifier(environment: ["NOTIFY_SOCKET": socket.path])
        #expect(notifier.isEnabled)
        notifier.ready(status: "serving 2 themes")
        #expect(socket.receive() == "READY=1\nSTATUS=serving 2 themes\nMAINPID=\(getpid())")
        notifier.reloading()
        #expect(socket.receive()?.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") == true)
        notifier.stopping()
        #expect(socket.receive() == "STOPPING=1\nSTATUS=draining connections")
        notifier.watchdog()
        #expect(socket.receive() == "WATCHDOG=1")
    }

    @Test("without NOTIFY_SOCKET nothing is sent; the watchdog interval is ours only when WATCHDOG_PID is")
    func environment() {
        let bare = Notifier(environment: [:])
        #expect(!bare.isEnabled && !bare.send("READY=1") && bare.watchdogInterval == nil)
        #expect(Notifier(environment: ["WATCHDOG_USEC": "3000000"]).watchdogInterval == .seconds(3))
        #expect(Notifier(environment: ["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "\(getpid())"]).watchdogInterval == .seconds(3))
        #expect(Notifier(environment: ["WATCHDOG_USEC": "3000000", "WATCHDOG_PID": "1"]).watchdogInterval == nil)
        #expect(Notifier(environment: ["WATCHDOG_USEC": "soon"]).watchdogInterval == nil)
    }
}
