import Foundation
import Systemd
import Testing
import TestSupport

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
