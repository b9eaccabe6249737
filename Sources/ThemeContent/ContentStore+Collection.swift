import Dispatch
import Synchronization
import ThemeIndex

extension ContentStore {
    /// Once the warming queued now is done: drops the blobs that none of `resolutions` (every
    /// theme's stored content, read then, on the warming thread: a change of one theme among
    /// thousands does not wait for it), their mirrored forms and their compressed encodings use,
    /// once they are older than the grace period. Nothing is dropped when they cannot be read. Asked for again within the pacing's
    /// interval, the collection waits for it (`CollectionPacing`), keeping what the newest asks.
    public func collect(keeping resolutions: @escaping @Sendable () throws -> [Resolution]) {
        let collection: CollectionPacing.Collection = { [weak self] in self?.collectNow(keeping: resolutions) }
        switch collections.ask(collection) {
        case .now:
            warmer.then(collection)
        case .after(let wait):
            DispatchQueue.global().asyncAfter(deadline: .now() + wait / .seconds(1)) { [weak self] in
                guard let self, let waiting = collections.takeWaiting() else { return }
                warmer.then(waiting)
            }
        case .joinsTheWaiting:
            break
        }
    }

    /// Forgets the warming of themes that are gone: their progress, and what is queued of them.
    public func forgetWarming(except themes: Set<String>) {
        warmer.keepOnly(themes)
    }

    private func collectNow(keeping resolutions: () throws -> [Resolution]) {
        guard let resolutions = try? resolutions() else { return }
        var keys = Set<String>()
        for resolution in resolutions {
            for key in [resolution.variant.contentKey, resolution.variant.contentKey + "#mirrored"] {
                guard let digest = blobs.target(ofKey: key) else { continue }
                keys.insert(key)
                for coding in ContentCoding.allCases { keys.insert(Self.key(of: digest, coding)) }
            }
        }
        _ = try? blobs.collect(keeping: keys, grace: collections.grace)
    }
}

/// When the blobs nothing references are collected: after a reload, at most once an interval.
///
/// A collection reads every theme's stored content to learn what to keep (at 10,000 themes, half
/// of the CPU a change costs a replica), and drops only what nobody used for the grace period (an
/// hour by default): run after each change of a burst, each finds what the first found. So a
/// collection asked for within `interval` of the last one's start runs when the interval is up,
/// once, with what the newest request keeps. A blob nothing uses is dropped between `grace` and
/// `grace + interval` after its last use, as long as a reload came after it went unused.
final class CollectionPacing: Sendable {
    typealias Collection = @Sendable () -> Void

    enum Turn: Equatable {
        case now
        /// The collection waits this long (the rest of the interval).
        case after(Duration)
        /// A collection waits already: it will keep what this one asked instead.
        case joinsTheWaiting
    }

    let grace: Duration
    /// A tenth of the grace, at most a minute: with no grace (tests), every reload collects.
    let interval: Duration
    private let state = Mutex<(lastStarted: ContinuousClock.Instant?, waiting: Collection?)>((nil, nil))

    init(grace: Duration) {
        self.grace = grace
        interval = min(grace / 10, .seconds(60))
    }

    /// When `collection` runs; one that waits is handed out by `takeWaiting` when its time comes.
    func ask(_ collection: @escaping Collection, at now: ContinuousClock.Instant = .now) -> Turn {
        state.withLock { state in
            if state.waiting != nil {
                state.waiting = collection
                return .joinsTheWaiting
            }
            if let last = state.lastStarted, now - last < interval {
                state.waiting = collection
                return .after(interval - (now - last))
            }
            state.lastStarted = now
            return .now
        }
    }

    /// The collection that waited, if any; its interval starts now.
    func takeWaiting(at now: ContinuousClock.Instant = .now) -> Collection? {
        state.withLock { state in
            guard let waiting = state.waiting else { return nil }
            (state.lastStarted, state.waiting) = (now, nil)
            return waiting
        }
    }
}
