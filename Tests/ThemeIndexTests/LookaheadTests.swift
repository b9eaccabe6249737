import Foundation
import Synchronization
import Testing
@testable import ThemeIndex

/// The sync's reading stage: themes read on a thread of their own, a few ahead of the writer.
@Suite("reading ahead")
struct LookaheadTests {
    @Test("every output comes, in the inputs' order, then nil")
    func inOrder() {
        let lookahead = Lookahead(Array(0..<500), depth: 4, name: "lookahead-order") { $0 * 2 }
        var taken: [Int] = []
        while let output = lookahead.next() { taken.append(output) }
        #expect(taken == (0..<500).map { $0 * 2 })
        #expect(lookahead.next() == nil)
    }

    @Test("no more than depth outputs are made ahead of those taken")
    func bounded() {
        let started = Atomic(0)
        let lookahead = Lookahead(Array(0..<200), depth: 3, name: "lookahead-bound") { input in
            started.add(1, ordering: .relaxed)
            return input
        }
        var taken = 0
        var mostAhead = 0
        while lookahead.next() != nil {
            taken += 1
            // Time for a producer that ignored the bound to run far ahead.
            if taken < 20 { Thread.sleep(forTimeInterval: 0.002) }
            mostAhead = max(mostAhead, started.load(ordering: .relaxed) - taken)
        }
        #expect(taken == 200)
        #expect(mostAhead <= 3)
        #expect(mostAhead >= 1, "the producer never ran ahead at all")
    }

    @Test("cancelling stops the reading: a write that throws does not read the rest of the folder")
    func cancelStops() {
        let started = Atomic(0)
        let lookahead = Lookahead(Array(0..<10_000), depth: 2, name: "lookahead-cancel") { input in
            started.add(1, ordering: .relaxed)
            return input
        }
        #expect(lookahead.next() == 0)
        lookahead.cancel()
        #expect(lookahead.next() == nil)
        Thread.sleep(forTimeInterval: 0.05)
        let afterCancel = started.load(ordering: .relaxed)
        Thread.sleep(forTimeInterval: 0.05)
        #expect(afterCancel <= 1 + 2 + 1)
        #expect(started.load(ordering: .relaxed) == afterCancel)
    }

    @Test("outputs handed back are freed on the reading thread, not the writer's")
    func recycledFreedAhead() {
        let freed = ThreadNames()
        let lookahead = Lookahead(Array(0..<20), depth: 2, name: "lookahead-free") { _ in Parse(freed) }
        while let parse = lookahead.next() { lookahead.recycle(parse) }
        // Output k is freed when the thread wakes to make output k + depth: all but the last few.
        let names = freed.names.withLock { $0 }
        #expect(names.count >= 20 - 2 - 1)
        #expect(names.prefix(20 - 2 - 1).allSatisfy { $0 == "lookahead-free" }, "\(names)")
    }
}

/// The names of the threads that freed `Parse`s, in order.
private final class ThreadNames: Sendable {
    let names = Mutex<[String?]>([])
}

/// A stand-in for a parsed theme, which says where it was freed.
private final class Parse: Sendable {
    let freed: ThreadNames
    init(_ freed: ThreadNames) { self.freed = freed }
    deinit {
        let name = Thread.current.name
        freed.names.withLock { $0.append(name) }
    }
}
