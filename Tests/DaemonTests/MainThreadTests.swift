import Foundation
import Testing
import TestSupport

/// A command runs on the process's main thread, as a plain program: on a host its load
/// saturates, each hand-off to another thread is one more turn to wait for.
@Suite("commands on the main thread")
struct MainThreadTests {
    /// A TCP port that takes connections (the kernel completes them into the backlog) and never
    /// answers: a store that hangs.
    final class SilentPort {
        let descriptor: Int32
        let port: Int

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
            }
            guard descriptor >= 0, bound, listen(descriptor, 4) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        /// Whether a connection waits in the backlog.
        var hasCaller: Bool {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&waiting, 1, 0) == 1
        }

        deinit { close(descriptor) }
    }

    /// `themed publish --cluster` against a store that never answers, in `folder`: `body` is given
    /// its process once it connected and waits for the first answer; it is killed after (the test
    /// runner's blocked signals reach the child, and a SIGTERM would wait for the connect timeout).
    static func publishWaitingOnSilentStore(in folder: String, _ body: (Process) throws -> Void) throws {
        let store = try SilentPort()
        let publish = try Running(["publish", "--no-wait", "--cluster", "postgresql://themed@127.0.0.1:\(store.port)/themed?connect_timeout=60",
                                   "dark", DaemonTests.themes + "/dark"], in: folder)
        defer {
            kill(publish.process.processIdentifier, SIGKILL)
            publish.process.waitUntilExit()
        }
        // The command connects to the store (on a thread of its own, while it checks the theme) and waits for its first answer.
        #expect(waitUntil { store.hasCaller }, "the command never reached the store")
        try body(publish.process)
    }

    @Test("themed publish --cluster, waiting for a store that never answers, has two threads: its own and the store connection's (the async root had three more)")
    func publishWaitsOnTheMainThread() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.publishWaitingOnSilentStore(in: folder) { publish in
            let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(publish.processIdentifier)/task")
            #expect(threads.count == 2, "threads: \(threads.sorted())")
        }
    }

    @Test("a change command (publish) asks for the shortest scheduling slice on every thread; serve keeps the kernel's default", .needsSchedulingSlices)
    func changeCommandsTakeShortSlices() throws {
        let folder = try DaemonTests.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.publishWaitingOnSilentStore(in: folder) { publish in
            let slices = SchedulingSlices.slices(of: publish.processIdentifier)
            #expect(slices.count == 2 && slices.values.allSatisfy { $0 == SchedulingSlices.shortest }, "slices by thread: \(slices)")
        }
        let server = try ServeProcess(executable: DaemonTests.executable, arguments: ["--themes", DaemonTests.themes, "--db", "index.sqlite", "--blobs", "blobs"],
                                      in: folder)
        let served = SchedulingSlices.slices(of: server.process.processIdentifier)
        #expect(!served.isEmpty && !served.values.contains(SchedulingSlices.shortest), "slices by thread: \(served)")
    }
}
