import CLinux
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One thread waiting on epoll for the connections it owns.
///
/// Why not Dispatch read sources: each event then costs a hop from Dispatch's kevent thread to a
/// worker thread, and under load the server spent most of its time switching threads (37k req/s
/// against nginx's 75k on the same machine). A loop per core reads, answers and writes on the
/// thread that was woken. Everything a connection owns is touched only on its loop's thread;
/// other threads hand work over with `execute`. Each wake reads and answers every ready request
/// first and writes the answers after (`Connection.writeAfterThisWake`); a loop busy for a
/// millisecond (`HTTPServer.YieldPolicy`) then hands its core to the readers it woke (see `run`).
final class EventLoop: @unchecked Sendable {
    /// Which of the server's loops this is (0 accepts); requests it reads carry it (`Request.loop`).
    let number: Int
    let epoll: Int32
    private let wakeup: Int32
    /// Scratch space for reads, used only on the loop thread.
    let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    @exclusivity(unchecked) private var connections: [Int32: Connection] = [:]
    /// Connections with answers to write once this wake's events are handled.
    @exclusivity(unchecked) private var writesQueued: [Connection] = []
    @exclusivity(unchecked) private var listeners: [Int32: () -> Void] = [:]
    private let tasks = Mutex<[@Sendable () -> Void]>([])
    private let running = Mutex(true)
    private let finished = DispatchSemaphore(value: 0)
    static let tick: Duration = .milliseconds(100)
    @exclusivity(unchecked) private var date = HTTPDate()
    /// The loop's thread, once it runs: what `assertOnLoop` compares with.
    private let thread = Atomic<UInt>(0)
    /// The time the loop last woke: what its connections read as "now" while handling that
    /// wake's events (one clock read per wake, not several per request).
    @exclusivity(unchecked) private(set) var now = Moment.now
    /// The wake in which the loop last received bytes from a client (its `now`, in nanoseconds;
    /// 0: never), for background work that steps aside while clients are answered
    /// (`HTTPServer.lastRead`). A plain store on x86, to memory only this loop writes.
    let lastRead = Atomic<Int64>(0)

    init(number: Int, yield: HTTPServer.YieldPolicy = HTTPServer.YieldPolicy()) {
        self.yield = yield
        self.number = number
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeup = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeup
        epoll_ctl(epoll, EPOLL_CTL_ADD, wakeup, &event)
        let thread = Thread { [self] in
            themed_name_this_thread("themed-loop-\(number)")
            run()
        }
        thread.start()
    }

    deinit {
        scratch.deallocate()
        close(epoll)
        close(wakeup)
    }

    /// Runs `task` on the loop thread, soon.
    func execute(_ task: @escaping @Sendable () -> Void) {
        tasks.withLock { $0.append(task) }
        var one: UInt64 = 1
        _ = write(wakeup, &one, 8)
    }

    private let stopRequested = Mutex(false)

    /// Ends the loop thread once its queued tasks ran; waits for it. Safe to call twice.
    func stop() {
        let first = stopRequested.withLock { requested -> Bool in
            defer { requested = true }
            return !requested
        }
        guard first else { return }
        execute { [self] in running.withLock { $0 = false } }
        finished.wait()
    }

    /// Whether this build checks that loop-confined state is touched only on its loop's thread:
    /// debug builds, and the test build (`make test` defines CHECK_INVARIANTS).
    static var checksConfinement: Bool {
        #if DEBUG || CHECK_INVARIANTS
        true
        #else
        false
        #endif
    }

    /// Stops the process when called off the loop's thread, in builds that check confinement.
    ///
    /// Why only there: a connection's and a loop's state is `@exclusivity(unchecked)` and
    /// unlocked, which is measured to matter on the kept-answer path (docs/PERFORMANCE.md); a
    /// wrong-thread access would be a data race that no check finds in a release build, so the
    /// test build makes each loop-only entry point say where it runs.
    @inline(__always)
    func assertOnLoop(_ function: StaticString = #function) {
        #if DEBUG || CHECK_INVARIANTS
        precondition(pthread_self() == thread.load(ordering: .relaxed), "\(function) ran off event loop \(number)'s thread")
        #endif
    }

    // Called on the loop thread only (each checks it: `assertOnLoop`):

    /// The `Date` line for an answer sent now.
    var dateLine: [UInt8] {
        assertOnLoop()
        return date.headerLine(at: time(nil))
    }

    /// Writes `connection`'s queued answers at the end of this wake (see `Connection.writeAfterThisWake`).
    func queueWrite(_ connection: Connection) {
        assertOnLoop()
        writesQueued.append(connection)
    }

    func register(_ connection: Connection) {
        assertOnLoop()
        connections[connection.fd] = connection
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        event.data.fd = connection.fd
        epoll_ctl(epoll, EPOLL_CTL_ADD, connection.fd, &event)
    }

    /// Which readiness wakes the loop for `connection`: reading pauses under back-pressure,
    /// writing is watched while answers wait for room in the socket.
    func setInterest(_ connection: Connection, read: Bool, write: Bool) {
        assertOnLoop()
        var event = epoll_event()
        event.events = (read ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0) | (write ? EPOLLOUT.rawValue : 0)
        event.data.fd = connection.fd
        epoll_ctl(epoll, EPOLL_CTL_MOD, connection.fd, &event)
    }

    /// Calls `onReadable` when `fd` (a listening socket) has connections to accept.
    func watchListener(_ fd: Int32, _ onReadable: @escaping () -> Void) {
        assertOnLoop()
        listeners[fd] = onReadable
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
    }

    func unwatchListener(_ fd: Int32) {
        assertOnLoop()
        epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
        listeners.removeValue(forKey: fd)
    }

    func unregister(_ connection: Connection) {
        assertOnLoop()
        epoll_ctl(epoll, EPOLL_CTL_DEL, connection.fd, nil)
        connections.removeValue(forKey: connection.fd)
    }

    /// When the loop hands its core over. Why the idle threshold is not shorter: a loop that is
    /// quick to answer often waits a few dozen microseconds for the next requests of clients that
    /// share its core and never get a whole turn; counted as idle, those waits kept it from handing
    /// its core over in a third to a half of wrk's runs, whose 99th percentile then doubled
    /// (docs/PERFORMANCE.md).
    let yield: HTTPServer.YieldPolicy

    private func run() {
        thread.store(pthread_self(), ordering: .relaxed)
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var due: [Connection] = []
        var lastTick = Moment.now
        // Since when the loop has had events at every wake without waiting for them (nil: it has
        // just handed its core over).
        var busySince: Moment?
        while running.withLock({ $0 }) {
            let waitStarted = Moment.now
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), 100) }
            now = .now
            if now - waitStarted > yield.idle || busySince == nil { busySince = now }
            for index in 0..<max(0, Int(count)) {
                let fd = events[index].data.fd
                let flags = events[index].events
                if fd == wakeup {
                    var value: UInt64 = 0
                    _ = read(wakeup, &value, 8)
                    let pending = tasks.withLock { tasks -> [@Sendable () -> Void] in
                        defer { tasks.removeAll() }
                        return tasks
                    }
                    for task in pending { task() }
                    continue
                }
                if let accept = listeners[fd] {
                    accept()
                    continue
                }
                guard let connection = connections[fd] else { continue }
                // Hung up both ways (reported even while reading is paused): nothing more to say.
                if flags & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 && flags & EPOLLIN.rawValue == 0 {
                    connection.close()
                    continue
                }
                if flags & EPOLLOUT.rawValue != 0 { connection.writable() }
                if flags & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue) != 0 { connection.readable() }
            }
            if now - lastTick >= Self.tick {
                lastTick = now
                for connection in Array(connections.values) { connection.checkTimeouts(now: now) }
            }
            // Writing can queue more (a pipelined request read after its answer went out).
            let answered = !writesQueued.isEmpty
            while !writesQueued.isEmpty {
                // The two lists trade places: each keeps its storage from wake to wake.
                swap(&due, &writesQueued)
                for connection in due { connection.writeQueuedAnswers() }
                due.removeAll(keepingCapacity: true)
            }
            // A loop that has had work at every wake for a millisecond hands its core over once its
            // answers are written. Why: the answers woke their readers, and where those share the
            // cores with the loops (a proxy or clients on the same host) the kernel lets them run
            // only when the loop's time slice ends; their next requests wait as long (under wrk
            // -c64 on two cores, 1% of answers waited over 7 ms, most under 0.4 ms; with this,
            // 2 ms). Not at every wake: beside a busy neighbour (a build, a batch job) each yield
            // would give it a whole slice, and a loop that waits for events between wakes is not
            // holding anyone up.
            if answered, let after = yield.after, let since = busySince, now - since >= after {
                sched_yield()
                busySince = nil
            }
        }
        for connection in Array(connections.values) { connection.close() }
        finished.signal()
    }
}
