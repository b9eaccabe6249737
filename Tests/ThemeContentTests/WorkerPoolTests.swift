import Dispatch
import Foundation
import Synchronization
import Testing
import ThemeContent

/// Workers run below the event loops: their wakeups must not take a loop's CPU, and at the lowest
/// niceness any loop's wakeup takes theirs (Linux scheduling policies, read back from /proc).
@Suite("worker pool")
struct WorkerPoolTests {
    /// The calling thread's nice value and scheduling policy (fields 19 and 41 of
    /// /proc/thread-self/stat, counted after the command name, which may hold spaces).
    static func scheduling() -> (nice: Int, policy: Int)? {
        guard let stat = try? String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state).
        guard fields.count > 38, let nice = Int(fields[16]), let policy = Int(fields[38]) else { return nil }
        return (nice, policy)
    }

    static func schedulingOfAWorker(niceness: Int32) throws -> (nice: Int, policy: Int)? {
        let pool = WorkerPool(threads: 1, niceness: niceness)
        let seen = Mutex<(nice: Int, policy: Int)?>(nil)
        let done = DispatchSemaphore(value: 0)
        #expect(pool.submit { seen.withLock { $0 = scheduling() }; done.signal() })
        done.wait()
        return seen.withLock { $0 }
    }

    @Test("a worker's thread carries its name where top -H and perf read it",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/comm"), "reads the name from Linux's /proc"))
    func named() {
        let pool = WorkerPool(threads: 2)
        let names = Mutex<Set<String>>([])
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            #expect(pool.submit {
                let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                names.withLock { _ = $0.insert(name.trimmingCharacters(in: .newlines)) }
                done.signal()
            })
        }
        done.wait()
        done.wait()
        #expect(names.withLock { $0 }.isSubset(of: ["themed-worker-0", "themed-worker-1"]))
        #expect(!names.withLock { $0 }.isEmpty)
    }

    @Test("a worker runs at its niceness under batch scheduling (3), at 19 under idle scheduling (5); the caller is untouched",
          .enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/stat"), "reads the policy from Linux's /proc"))
    func belowTheLoops() throws {
        let caller = try #require(Self.scheduling())
        let decoder = try #require(try Self.schedulingOfAWorker(niceness: 10))
        #expect(decoder.nice == 10 && decoder.policy == 3)
        let warmer = try #require(try Self.schedulingOfAWorker(niceness: 19))
        #expect(warmer.policy == 5)
        #expect(try #require(Self.scheduling()) == caller)
    }
}
