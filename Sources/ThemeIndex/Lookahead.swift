import CLinux
import Foundation
import Synchronization

/// Makes `produce(input)` for each input, in order, on a thread of its own, at most `depth`
/// outputs ahead of the one who takes them with `next()`: a sync reads the next themes from disk
/// while the writer stores the one before, and no more than `depth` themes' parses wait in memory.
///
/// `cancel()` (or releasing the lookahead) stops the thread after the output it is making: a sync
/// whose write throws does not go on reading the rest of the folder.
///
/// One input has nothing to be read ahead of: `next()` makes it on the taker's thread, and no
/// thread starts (nor for none). A thread started for it cost a start and two wake-ups (the
/// reader's, then the taker's), each a wait for a CPU on a saturated machine, in every check of
/// one theme (`themed publish`, `check`) and every replica's change of one.
final class Lookahead<Output: Sendable>: Sendable {
    private final class Buffer: Sendable {
        let state = Mutex<(outputs: [Output], used: [Output], cancelled: Bool)>(([], [], false))
        /// Outputs made and not yet taken.
        let made = DispatchSemaphore(value: 0)
        /// Places left in the buffer.
        let free = DispatchSemaphore(value: 0)

        init(depth: Int) {
            // Signalled rather than made with `depth`: libdispatch stops a process that frees a
            // semaphore below the value it was made with (a lookahead cancelled while full).
            for _ in 0..<depth { free.signal() }
        }

        var isCancelled: Bool { state.withLock { $0.cancelled } }
    }

    private let buffer: Buffer
    private let remaining = Mutex(0)
    /// Makes the one output, when there is one input.
    private let onTakersThread: (@Sendable () -> Output)?

    init<Input: Sendable>(_ inputs: [Input], depth: Int, name: String, produce: @escaping @Sendable (Input) -> Output) {
        let buffer = Buffer(depth: max(1, depth))
        self.buffer = buffer
        remaining.withLock { $0 = inputs.count }
        guard inputs.count > 1 else {
            if let input = inputs.first {
                onTakersThread = { produce(input) }
            } else {
                onTakersThread = nil
            }
            return
        }
        onTakersThread = nil
        let thread = Thread {
            themed_name_this_thread(name)
            for input in inputs {
                buffer.free.wait()
                var used: [Output] = []
                let isCancelled = buffer.state.withLock { state in
                    swap(&used, &state.used)
                    return state.cancelled
                }
                // Freed here, outside the lock, rather than on the taker's thread.
                used.removeAll()
                if isCancelled { return }
                let output = produce(input)
                buffer.state.withLock { $0.outputs.append(output) }
                buffer.made.signal()
            }
        }
        thread.start()
    }

    deinit { cancel() }

    /// The next output, waiting for it to be made; nil after the last (or once cancelled). One
    /// taker only: the outputs come in the inputs' order.
    func next() -> Output? {
        let isLeft = remaining.withLock { remaining -> Bool in
            guard remaining > 0, !buffer.isCancelled else { return false }
            remaining -= 1
            return true
        }
        guard isLeft else { return nil }
        if let onTakersThread { return onTakersThread() }
        buffer.made.wait()
        // At most `depth` wait, so taking the first moves a few at most.
        let output = buffer.state.withLock { $0.outputs.removeFirst() }
        buffer.free.signal()
        return output
    }

    /// Hands back an output taken and used, to be freed on the lookahead's thread before it makes
    /// the next (freeing a parsed catalog's renditions was 7% of the writer's time).
    func recycle(_ output: Output) {
        guard onTakersThread == nil else { return }
        buffer.state.withLock { $0.used.append(output) }
    }

    /// Stops making outputs; those made and not taken are dropped with the lookahead.
    func cancel() {
        let wasCancelled = buffer.state.withLock { state -> Bool in
            defer { state.cancelled = true }
            return state.cancelled
        }
        // Wakes the thread if it waits for a free place, so that it sees the flag and ends.
        if !wasCancelled { buffer.free.signal() }
    }
}
