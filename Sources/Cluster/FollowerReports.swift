import Synchronization
import ThemeVocabulary

extension ClusterFollower {
    /// What a follower tells whatever serves its folder (a replica's service), once attached.
    public struct Callbacks: Sendable {
        /// Themes whose folder changed (materialized or removed), with the generation each now
        /// has: the index should sync.
        public var themesChanged: @Sendable ([(theme: String, generation: Generation)]) -> Void
        /// The active theme the store holds and the generation of its switch, on start and on every change.
        public var activeChanged: @Sendable (String, Generation) -> Void
        /// A release this replica could not write (theme, generation, why); the one before keeps serving.
        public var releaseRefused: @Sendable (String, Generation, String) -> Void
        /// With a shard: how this replica lists these of its own themes (with the release each
        /// has) now; those it cannot describe yet (not indexed) are left out and asked again.
        public var listings: @Sendable ([(theme: String, generation: Generation)]) -> [ThemeListing]
        /// The aliases, rollouts and generations this replica answers assignments from changed
        /// (after the themes they need were indexed), as of the store's generation given.
        public var audiencesChanged: @Sendable (ReplicaAudiences, Generation) -> Void
        /// Returns once what the reports so far set going has gone out (the caches' purges): then
        /// the replica tells the store it serves them.
        public var settled: @Sendable () -> Void

        public init(themesChanged: @escaping @Sendable ([(theme: String, generation: Generation)]) -> Void,
                    activeChanged: @escaping @Sendable (String, Generation) -> Void,
                    releaseRefused: @escaping @Sendable (String, Generation, String) -> Void = { _, _, _ in },
                    listings: @escaping @Sendable ([(theme: String, generation: Generation)]) -> [ThemeListing] = { _ in [] },
                    audiencesChanged: @escaping @Sendable (ReplicaAudiences, Generation) -> Void = { _, _ in },
                    settled: @escaping @Sendable () -> Void = {}) {
            self.themesChanged = themesChanged
            self.activeChanged = activeChanged
            self.releaseRefused = releaseRefused
            self.listings = listings
            self.audiencesChanged = audiencesChanged
            self.settled = settled
        }
    }
}

/// Where a follower's reports go: held until whatever takes them is ready (`attach`: a replica's
/// service, once it serves), then given to its callbacks as they come, the held ones first.
///
/// Held reports are kept in the order a sync tells them: the themes changed (each at its newest
/// generation), the releases refused, the newest active switch, the newest assignments. Those a
/// replica reads another way are dropped (`dropHeld`: its first index reads the folder as the
/// syncs so far left it, and their state from the follower).
final class FollowerReports: Sendable {
    private struct Held {
        var themes: [String: Generation] = [:]
        var refused: [(theme: String, generation: Generation, reason: String)] = []
        var active: (theme: String, generation: Generation)?
        var audiences: (replica: ReplicaAudiences, generation: Generation)?
    }

    private struct State {
        var callbacks: ClusterFollower.Callbacks?
        var held = Held()
    }

    /// Refusals held at most (each is also in the follower's `failures`).
    static let refusalsHeld = 1000

    private let state = Mutex(State())
    /// Held while reports are given: the held ones go before any later one.
    private let giving = Mutex(())

    /// From now on reports go to `callbacks`; those held are given first.
    func attach(_ callbacks: ClusterFollower.Callbacks) {
        giving.withLock { _ in
            let held = state.withLock { state in
                state.callbacks = callbacks
                defer { state.held = Held() }
                return state.held
            }
            let themes = held.themes.map { (theme: $0.key, generation: $0.value) }.sorted { $0.generation < $1.generation }
            if !themes.isEmpty { callbacks.themesChanged(themes) }
            for refusal in held.refused { callbacks.releaseRefused(refusal.theme, refusal.generation, refusal.reason) }
            if let active = held.active { callbacks.activeChanged(active.theme, active.generation) }
            if let audiences = held.audiences { callbacks.audiencesChanged(audiences.replica, audiences.generation) }
        }
    }

    /// The callbacks, once attached and the held reports given: a replica reports what it
    /// serves only from then on.
    var attached: ClusterFollower.Callbacks? { giving.withLock { _ in state.withLock { $0.callbacks } } }

    /// Forgets what is held.
    func dropHeld() {
        state.withLock { $0.held = Held() }
    }

    /// A sync's report: given to the callbacks, or held until they come.
    private func report(give: (ClusterFollower.Callbacks) -> Void, hold: (inout Held) -> Void) {
        giving.withLock { _ in
            let callbacks = state.withLock { state -> ClusterFollower.Callbacks? in
                if state.callbacks == nil { hold(&state.held) }
                return state.callbacks
            }
            if let callbacks { give(callbacks) }
        }
    }

    func themesChanged(_ themes: [(theme: String, generation: Generation)]) {
        report(give: { $0.themesChanged(themes) }) { held in
            for (theme, generation) in themes { held.themes[theme] = max(held.themes[theme] ?? 0, generation) }
        }
    }

    func activeChanged(_ theme: String, _ generation: Generation) {
        report(give: { $0.activeChanged(theme, generation) }) { $0.active = (theme, generation) }
    }

    func releaseRefused(_ theme: String, _ generation: Generation, _ reason: String) {
        report(give: { $0.releaseRefused(theme, generation, reason) }) { held in
            if held.refused.count < Self.refusalsHeld { held.refused.append((theme, generation, reason)) }
        }
    }

    func audiencesChanged(_ replica: ReplicaAudiences, _ generation: Generation) {
        report(give: { $0.audiencesChanged(replica, generation) }) { $0.audiences = (replica, generation) }
    }

    /// How these themes are listed, by the callbacks; none before they come (asked again).
    func listings(_ themes: [(theme: String, generation: Generation)]) -> [ThemeListing] {
        state.withLock { $0.callbacks }?.listings(themes) ?? []
    }
}
