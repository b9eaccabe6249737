import Caching
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport

@Suite("memory budget")
struct MemoryBudgetTests {
    @Test("a job that would pass the budget waits until the jobs under way give their memory back")
    func waits() throws {
        let budget = MemoryBudget(capacityBytes: 100)
        let firstStarted = DispatchSemaphore(value: 0), firstMayEnd = DispatchSemaphore(value: 0)
        let order = Mutex<[String]>([])
        let done = DispatchGroup()
        func run(_ job: @escaping @Sendable () -> Void) {
            done.enter()
            Thread { job(); done.leave() }.start()
        }
        run {
            budget.withReservation(of: 70) {
                order.withLock { $0.append("first started") }
                firstStarted.signal()
                firstMayEnd.wait()
                order.withLock { $0.append("first ended") }
            }
        }
        firstStarted.wait()
        run { budget.withReservation(of: 70) { order.withLock { $0.append("second started") } } }
        // The second cannot start while 70 of 100 bytes are reserved: it waits.
        #expect(waitUntil { budget.statistics.waiting == 1 })
        #expect(budget.statistics == MemoryBudget.Statistics(reservedBytes: 70, capacityBytes: 100, jobs: 1, waiting: 1, waits: 1))
        firstMayEnd.signal()
        done.wait()
        #expect(order.withLock { $0 } == ["first started", "first ended", "second started"])
        #expect(budget.statistics == MemoryBudget.Statistics(reservedBytes: 0, capacityBytes: 100, jobs: 0, waiting: 0, waits: 1))
    }

    @Test("jobs that fit together run together; one larger than the whole budget still runs, alone")
    func fitting() throws {
        let budget = MemoryBudget(capacityBytes: 100)
        let inner = budget.withReservation(of: 40) {
            #expect(budget.statistics.reservedBytes == 40)
            return 7
        }
        #expect(inner == 7)
        let huge = budget.withReservation(of: 1_000) { budget.statistics }
        #expect(huge.reservedBytes == 1_000 && huge.jobs == 1)
        #expect(budget.statistics.waits == 0)
    }

    @Test("a job that throws gives its memory back")
    func throwing() {
        struct Failure: Error {}
        let budget = MemoryBudget(capacityBytes: 100)
        #expect(throws: Failure.self) { try budget.withReservation(of: 60) { throw Failure() } }
        #expect(budget.statistics.reservedBytes == 0 && budget.statistics.jobs == 0)
    }
}
