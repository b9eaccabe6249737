import Foundation
import Synchronization

/// A one-time event that threads wait for, each with a limit: once opened, every wait (and every
/// later one) returns at once. The follower's first sync, its first report and its stop are such.
final class Latch: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let opened = Atomic<Bool>(false)

    func open() {
        guard !opened.exchange(true, ordering: .sequentiallyConsistent) else { return }
        semaphore.signal()
    }

    var isOpen: Bool { opened.load(ordering: .sequentiallyConsistent) }

    /// Whether it is open, waiting up to `timeout` for it.
    func wait(timeout: Duration) -> Bool {
        if isOpen { return true }
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return false }
        semaphore.signal()  // for the next waiter
        return true
    }
}
