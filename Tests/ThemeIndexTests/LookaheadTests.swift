import Foundation
import Synchronization
import Testing
import TestSupport
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

    @Test("one input is made on the taker's thread when taken: no thread is started for it")
    func oneInputInline() {
        let makers = Mutex<[pthread_t]>([])
        let lookahead = Lookahead([7], depth: 4, name: "lookahead-one") { input in
            makers.withLock { $0.append(pthread_self()) }
            return input * 2
        }
        #expect(makers.withLock { $0.isEmpty }, "nothing is made before it is taken")
        #expect(!Self.threadRuns(named: "lookahead-one"))
        #expect(lookahead.next() == 14)
        #expect(lookahead.next() == nil)
        #expect(makers.withLock { $0 } == [pthread_self()])
    }

    @Test("no inputs: nil at once, and no thread")
    func noInputs() {
        let lookahead = Lookahead([Int](), depth: 4, name: "lookahead-none") { $0 }
        #expect(!Self.threadRuns(named: "lookahead-none"))
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
            // The producer fills the bound (one that ignored it would run far ahead meanwhile).
            if taken < 20 { #expect(waitUntil(5) { started.load(ordering: .relaxed) >= min(taken + 3, 200) }) }
            mostAhead = max(mostAhead, started.load(ordering: .relaxed) - taken)
        }
        #expect(taken == 200)
        #expect(mostAhead <= 3)
        #expect(mostAhead == 3, "the producer ran ahead as far as the bound")
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
        #expect(waitUntil(5) { !Self.threadRuns(named: "lookahead-cancel") }, "the reading thread ends")
        #expect(started.load(ordering: .relaxed) <= 1 + 2 + 1, "the one taken, the two ahead, and the one under way")
    }

    /// Whether a thread of this process has that name (Linux keeps its first 15 bytes).
    static func threadRuns(named name: String) -> Bool {
        let wanted = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.contains { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) == wanted
        }
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
