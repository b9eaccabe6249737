@testable import HTTPServer
import Dispatch
import Testing

/// A loop's and its connections' state is unlocked and touched only on the loop's thread; builds
/// that check confinement (debug, and `make test`'s) stop a process that breaks the rule.
@Suite("Event loop confinement", .enabled(if: EventLoop.checksConfinement, "this build does not check confinement (make test's does: -DCHECK_INVARIANTS)"))
struct ConfinementTests {
    @Test("work handed to the loop with execute runs on its thread and passes the check")
    func onTheLoop() {
        let loop = EventLoop(number: 0)
        defer { loop.stop() }
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            loop.assertOnLoop()
            _ = loop.dateLine
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
    }

    @Test("a loop-only call from another thread stops the process")
    func offTheLoop() async {
        await #expect(processExitsWith: .failure) {
            let loop = EventLoop(number: 0)
            let running = DispatchSemaphore(value: 0)
            loop.execute { running.signal() }
            running.wait() // the loop's thread is known: the check compares with it, not with none
            _ = loop.dateLine // the Date line's cache is the loop's
        }
    }
}
