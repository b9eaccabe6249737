import Foundation
import Synchronization

/// State that each event loop keeps for itself: one slot per loop, and one more for requests made
/// in-process (tests, tools), each behind its own lock.
///
/// Why: a value that every request updates (a counter, a cache's bookkeeping, the reference count
/// of a shared answer) moves its cache line between the cores at every request when the loops
/// share it, and a shared lock can keep one loop waiting for a thread the kernel has paused. A loop
/// takes only its own slot's lock, which no other thread takes but a reader of the totals now and
/// then (`forEach`), so the lock is never contended on the request path.
///
/// Inlinable, so that it is specialised for each State where it is used: a generic call on the
/// request path would look up type metadata at every request.
public final class PerLoop<State: Sendable>: Sendable {
    @usableFromInline
    final class Slot: Sendable {
        @usableFromInline let state: Mutex<State>
        /// Keeps the next slot's lock off this slot's cache lines.
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

        @usableFromInline init(_ state: State) { self.state = Mutex(state) }
    }

    @usableFromInline let slots: [Slot]

    /// `make(slot)` gives each slot's first state (slot `count - 1` is the in-process one).
    public init(_ make: (_ slot: Int) -> State) {
        slots = (0...HTTPServer.loopCount).map { Slot(make($0)) }
    }

    /// How many slots there are: one per event loop, and the in-process one.
    @inlinable public var count: Int { slots.count }

    /// Runs `body` on the state of event loop `loop` (`Request.loop`, `RequestHead.loop`): the
    /// in-process slot for nil, or a number no loop has; `slot` is that slot's number.
    @inlinable
    public func withState<Result>(forLoop loop: Int?, _ body: (_ slot: Int, inout State) -> Result) -> Result {
        let slot = loop.map { $0 >= 0 && $0 < slots.count - 1 ? $0 : slots.count - 1 } ?? slots.count - 1
        return slots[slot].state.withLock { body(slot, &$0) }
    }

    /// Runs `body` on every slot's state in turn (for totals: each slot is locked only while read).
    @inlinable
    public func forEach(_ body: (inout State) -> Void) {
        for slot in slots { slot.state.withLock { body(&$0) } }
    }
}
