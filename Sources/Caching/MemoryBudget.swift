import Foundation
import Synchronization

/// Working memory shared by jobs that need a lot of it for a short time (decoding a bitmap,
/// encoding a PNG): a job reserves its estimated peak before it starts and waits while the
/// reservations under way would pass the budget.
///
/// The caches bound what is kept; this bounds what is being made. A job larger than the whole
/// budget still runs, alone, so no input can wait forever.
public final class MemoryBudget: Sendable {
    public struct Statistics: Sendable, Equatable {
        /// Bytes reserved by the jobs under way.
        public var reservedBytes = 0
        public var capacityBytes = 0
        public var jobs = 0
        /// Jobs waiting for others to finish now.
        public var waiting = 0
        /// Jobs that had to wait, in all.
        public var waits = 0

        public init(reservedBytes: Int = 0, capacityBytes: Int = 0, jobs: Int = 0, waiting: Int = 0, waits: Int = 0) {
            (self.reservedBytes, self.capacityBytes, self.jobs, self.waiting, self.waits) = (reservedBytes, capacityBytes, jobs, waiting, waits)
        }
    }

    private let state: Mutex<Statistics>
    private let released = NSCondition()

    public init(capacityBytes: Int) {
        state = Mutex(Statistics(capacityBytes: max(0, capacityBytes)))
    }

    public var statistics: Statistics { state.withLock { $0 } }

    /// Runs `job` once `bytes` fit in the budget beside the jobs under way, and gives them back
    /// when it ends (also when it throws).
    public func withReservation<Result>(of bytes: Int, _ job: () throws -> Result) rethrows -> Result {
        let bytes = max(0, bytes)
        reserve(bytes)
        defer { release(bytes) }
        return try job()
    }

    private func reserve(_ bytes: Int) {
        var waited = false
        released.lock()
        defer { released.unlock() }
        while true {
            let granted = state.withLock { budget -> Bool in
                guard budget.jobs == 0 || budget.reservedBytes + bytes <= budget.capacityBytes else {
                    if !waited { (budget.waiting, budget.waits) = (budget.waiting + 1, budget.waits + 1) }
                    return false
                }
                budget.reservedBytes += bytes
                budget.jobs += 1
                if waited { budget.waiting -= 1 }
                return true
            }
            if granted { return }
            waited = true
            released.wait()
        }
    }

    private func release(_ bytes: Int) {
        released.lock()
        state.withLock { budget in
            budget.reservedBytes -= bytes
            budget.jobs -= 1
        }
        released.broadcast()
        released.unlock()
    }
}
