import CLinux
import Foundation
import Synchronization

/// A fixed set of threads for work that must not run on an event loop (decoding a rendition,
/// encoding a PNG). Bounded twice: `threads` jobs run at once, and at most `queueLimit` wait; past
/// that `submit` refuses, so a flood of cold requests cannot pile up without end. The threads end
/// at `shutdown`, or when the pool is released.
public final class WorkerPool: Sendable {
    /// What the threads share; they hold this, not the pool, so that the pool can be released.
    private final class Jobs: Sendable {
        let waiting = Mutex<(jobs: [@Sendable () -> Void], head: Int, stopped: Bool)>(([], 0, false))
        let available = DispatchSemaphore(value: 0)
        /// Left by each thread as it ends.
        let running = DispatchGroup()

        func next() -> (@Sendable () -> Void)? {
            while true {
                available.wait()
                let (job, stopped) = waiting.withLock { state -> ((@Sendable () -> Void)?, Bool) in
                    guard state.head < state.jobs.count else { return (nil, state.stopped) }
                    let job = state.jobs[state.head]
                    state.head += 1
                    if state.head == state.jobs.count { (state.jobs, state.head) = ([], 0) }
                    return (job, false)
                }
                if let job { return job }
                if stopped { return nil }
            }
        }
    }

    public let threads: Int
    public let queueLimit: Int
    private let jobs = Jobs()

    /// `niceness`: how far below the event loops the threads run (Linux nice, 0-19; batch
    /// scheduling, and from 19 idle scheduling: see `themed_lower_thread_priority`).
    public init(threads: Int = max(1, ProcessInfo.processInfo.activeProcessorCount), queueLimit: Int = 10_000, niceness: Int32 = 10) {
        self.threads = max(1, threads)
        self.queueLimit = queueLimit
        for number in 0..<self.threads {
            let jobs = self.jobs
            jobs.running.enter()
            let thread = Thread {
                themed_name_this_thread("themed-worker-\(number)")
                // Below the event loops: when every core is busy decoding, a loop that wakes up
                // to answer a cheap request gets the core first.
                _ = themed_lower_thread_priority(niceness)
                while let job = jobs.next() { job() }
                jobs.running.leave()
            }
            thread.start()
        }
    }

    deinit { stopThreads(droppingQueued: false) }

    /// Ends the threads: the jobs under way finish, those still queued are dropped (nobody waits
    /// for them once the server stopped answering) and later ones are refused. True when every
    /// thread ended within `timeout`.
    @discardableResult
    public func shutdown(timeout: Duration = .seconds(5)) -> Bool {
        stopThreads(droppingQueued: true)
        return jobs.running.wait(timeout: .now() + timeout / .seconds(1)) == .success
    }

    private func stopThreads(droppingQueued: Bool) {
        let wasStopped = jobs.waiting.withLock { state -> Bool in
            defer { state.stopped = true }
            if droppingQueued { (state.jobs, state.head) = ([], 0) }
            return state.stopped
        }
        guard !wasStopped else { return }
        for _ in 0..<threads { jobs.available.signal() }
    }

    /// Queues `job`; false when the queue is full.
    @discardableResult
    public func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = jobs.waiting.withLock { state -> Bool in
            guard !state.stopped, state.jobs.count - state.head < queueLimit else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { jobs.available.signal() }
        return accepted
    }

    /// Jobs waiting for a thread.
    public var queued: Int { jobs.waiting.withLock { $0.jobs.count - $0.head } }
}
