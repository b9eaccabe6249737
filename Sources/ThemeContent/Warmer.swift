import CLinux
import Dispatch
import Foundation
import Synchronization
import ThemeIndex

/// Encodes a theme's content in the background right after a reload swaps it in, so that the
/// first request after a dropped .car finds its blob instead of waiting for a decode.
///
/// One thread of its own at low priority, one content at a time: the worker pool stays free for
/// requests, and a request for content being warmed joins that load (single flight). Content
/// whose blob is stored already costs a dictionary probe, so a restart decodes nothing.
///
/// Warming leaves memory as it found it: the catalogs a theme's warming opened are closed when
/// it is done (its content is in the blob store now; a later decode opens them again), and when
/// the queue drains the heap's free pages go back to the system. A platform's first start
/// otherwise kept every brand's parsed catalog, up to the whole catalog budget.
///
/// Warming steps aside while clients are answered (`WarmingPace`): a content that must be encoded
/// waits for its turn, one every `busyInterval`, until they go quiet.
final class Warmer: Sendable {
    /// How far warming a theme has got.
    public struct Progress: Sendable, Equatable {
        public var done = 0
        public var total = 0
        public var isComplete: Bool { done >= total }
    }

    private struct Job {
        var theme: String
        var ticket: Int
        var resolution: Resolution
    }

    private struct State {
        var progress: [String: Progress] = [:]
        /// A theme's newest warming; jobs of older ones are skipped.
        var tickets: [String: Int] = [:]
        /// By ticket: the catalogs that warming opened (not open when it was queued), closed when it is done.
        var opened: [Int: Set<CatalogCache.Key>] = [:]
        var nextTicket = 0
    }

    private let state = Mutex(State())
    /// The lowest priority there is: a restart's warming takes what requests leave.
    let pool = WorkerPool(threads: 1, queueLimit: Int.max, niceness: 19)
    /// Work queued and not yet done: contents to warm (skipped ones included until their turn)
    /// and what runs after them.
    private let queued = Atomic<Int>(0)
    let pace: WarmingPace
    /// When the last content that had to be encoded was done (touched on the warming thread).
    private let lastWorkEnded = Mutex<ContinuousClock.Instant?>(nil)

    init(pace: WarmingPace) {
        self.pace = pace
    }

    var pending: Int { queued.load(ordering: .relaxed) }

    func progress(of theme: String) -> Progress? { state.withLock { $0.progress[theme] } }

    /// Forgets themes that are gone.
    func keepOnly(_ themes: Set<String>) {
        state.withLock { state in
            state.progress = state.progress.filter { themes.contains($0.key) }
            state.tickets = state.tickets.filter { themes.contains($0.key) }
            let current = Set(state.tickets.values)
            state.opened = state.opened.filter { current.contains($0.key) }
        }
    }

    /// Queues the contents of `theme`, replacing a warming of it still under way.
    func warm(_ theme: String, _ resolutions: [Resolution], with store: ContentStore) {
        let toClose = Set(resolutions.compactMap { CatalogCache.key(of: $0.source) }).filter { !store.catalogs.cache.contains($0) }
        let ticket = state.withLock { state -> Int in
            state.nextTicket += 1
            // A warming replaced before it finished hands on what it opened.
            let replaced = state.tickets[theme].flatMap { state.opened.removeValue(forKey: $0) } ?? []
            state.tickets[theme] = state.nextTicket
            state.progress[theme] = Progress(done: 0, total: resolutions.count)
            if !resolutions.isEmpty { state.opened[state.nextTicket] = toClose.union(replaced) }
            return state.nextTicket
        }
        for resolution in resolutions {
            let job = Job(theme: theme, ticket: ticket, resolution: resolution)
            queue { [self] in run(job, with: store) }
        }
    }

    /// Runs `work` on the warming thread after what is queued now; false once the warmer stopped.
    @discardableResult
    func then(_ work: @escaping @Sendable () -> Void) -> Bool {
        queue(work)
    }

    /// Ends the warming thread: the content under way finishes, the rest is dropped.
    func shutdown() -> Bool { pool.shutdown() }

    /// When the last work queued is done (and what it held is freed), the heap's free pages go
    /// back to the system.
    @discardableResult
    private func queue(_ work: @escaping @Sendable () -> Void) -> Bool {
        queued.add(1, ordering: .relaxed)
        let accepted = pool.submit { [self] in
            work()
            if queued.subtract(1, ordering: .relaxed).newValue == 0 { _ = themed_trim_heap() }
        }
        if !accepted { queued.subtract(1, ordering: .relaxed) }
        return accepted
    }

    /// Sleeps while the pace says clients are being answered and the last content was too recent,
    /// a `quiet` at a time at most: clients that went silent meanwhile end the wait.
    private func waitForTurn() {
        guard let ended = lastWorkEnded.withLock({ $0 }) else { return }
        while let pause = pace.pause(sinceLastWork: .now - ended) {
            Thread.sleep(forTimeInterval: min(pause, pace.quiet) / .seconds(1))
        }
    }

    private func run(_ job: Job, with store: ContentStore) {
        guard state.withLock({ $0.tickets[job.theme] == job.ticket }) else { return }
        if !store.isStored(job.resolution) {
            waitForTurn()
            let done = DispatchSemaphore(value: 0)
            store.load(job.resolution, onThisThread: true) { _ in done.signal() }
            done.wait()
            lastWorkEnded.withLock { $0 = .now }
        }
        let finished = state.withLock { state -> Set<CatalogCache.Key> in
            guard state.tickets[job.theme] == job.ticket else { return [] }
            state.progress[job.theme]?.done += 1
            guard state.progress[job.theme]?.isComplete == true else { return [] }
            return state.opened.removeValue(forKey: job.ticket) ?? []
        }
        if !finished.isEmpty { store.catalogs.cache.removeAll { finished.contains($0) } }
    }
}
