import Dispatch
import Synchronization
import ThemeIndex

/// Encodes a theme's content in the background right after a reload swaps it in, so that the
/// first request after a dropped .car finds its blob instead of waiting for a decode.
///
/// One thread of its own at low priority, one content at a time: the worker pool stays free for
/// requests, and a request for content being warmed joins that load (single flight). Content
/// whose blob is stored already costs a dictionary probe, so a restart decodes nothing.
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
        var nextTicket = 0
    }

    private let state = Mutex(State())
    let pool = WorkerPool(threads: 1, queueLimit: Int.max)

    func progress(of theme: String) -> Progress? { state.withLock { $0.progress[theme] } }

    /// Forgets themes that are gone.
    func keepOnly(_ themes: Set<String>) {
        state.withLock { state in
            state.progress = state.progress.filter { themes.contains($0.key) }
            state.tickets = state.tickets.filter { themes.contains($0.key) }
        }
    }

    /// Queues the contents of `theme`, replacing a warming of it still under way.
    func warm(_ theme: String, _ resolutions: [Resolution], with store: ContentStore) {
        let ticket = state.withLock { state -> Int in
            state.nextTicket += 1
            state.tickets[theme] = state.nextTicket
            state.progress[theme] = Progress(done: 0, total: resolutions.count)
            return state.nextTicket
        }
        for resolution in resolutions {
            let job = Job(theme: theme, ticket: ticket, resolution: resolution)
            pool.submit { [self] in run(job, with: store) }
        }
    }

    /// Runs `work` on the warming thread after what is queued now.
    func then(_ work: @escaping @Sendable () -> Void) {
        pool.submit(work)
    }

    private func run(_ job: Job, with store: ContentStore) {
        guard state.withLock({ $0.tickets[job.theme] == job.ticket }) else { return }
        if !store.isStored(job.resolution) {
            let done = DispatchSemaphore(value: 0)
            store.load(job.resolution, onThisThread: true) { _ in done.signal() }
            done.wait()
        }
        state.withLock { state in
            guard state.tickets[job.theme] == job.ticket else { return }
            state.progress[job.theme]?.done += 1
        }
    }
}
