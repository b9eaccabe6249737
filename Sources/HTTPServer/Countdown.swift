import Dispatch
import Synchronization

/// A count of things still to happen, counted down from any thread; `wait` returns when none is
/// left or at its deadline.
final class Countdown: Sendable {
    private let left: Mutex<Int>
    private let reachedZero = DispatchSemaphore(value: 0)

    init(_ count: Int) {
        left = Mutex(count)
        if count == 0 { reachedZero.signal() }
    }

    func countDown() {
        if left.withLock({ left in left -= 1; return left }) == 0 { reachedZero.signal() }
    }

    /// Whether the count reached zero within `timeout`.
    func wait(timeout: Duration) -> Bool {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        return reachedZero.wait(timeout: .now() + .nanoseconds(Int(max(0, nanoseconds)))) == .success
    }
}
