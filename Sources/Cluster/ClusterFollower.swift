import CLinux
import Foundation
import Logging
import Sharding
import Synchronization
import ThemeVocabulary

/// Keeps the local themes folder equal to the cluster store's latest releases and follows the
/// active theme: LISTEN for notifications and, after every (re)connection, re-read the latest
/// generations, so a notification lost while disconnected costs nothing.
public final class ClusterFollower: Sendable {
    private struct State {
        var lastContact: ContinuousClock.Instant?
        var active: String?
        /// The newest generation applied: of the releases written and of the active switch.
        var generation: Generation = 0
        /// The newest release generation read: each sync reads the releases after it. (Not
        /// `generation`: a switch read after the releases may be newer than a release committed
        /// between the two reads.)
        var releasesRead: Generation?
        /// Releases this replica could not write, by theme: it keeps serving the one before.
        var failures: [String: String] = [:]
        var backendPID: Int?
        /// Pending schedules, soonest first, and when the first is due by this replica's clock.
        var schedules: [Schedule] = []
        var nextDue: ContinuousClock.Instant?
        /// With a shard: every theme's listing in the store, and whether some of this replica's
        /// own themes were not yet listed there (asked again at the next ping).
        var listings: [String: ThemeListing] = [:]
        var listingsPending = false
        /// What assignments are answered from, as of the last sync.
        var audiences = ReplicaAudiences()
        /// The generation this replica last told the store it serves, on this connection.
        var reportedServing: Generation?
    }

    let url: String
    public let materializer: Materializer
    /// Held until `attach` gives them somewhere to go.
    let reports = FollowerReports()
    let logger: Logger
    /// Releases kept per theme when this replica applies a scheduled release.
    let retention: Int
    /// With a shard, only its themes and their ancestors are written here.
    let shard: Shard?
    /// The name this replica tells the store what it serves under (`host:port`, asked once it
    /// listens); nil: it does not.
    let replicaName: (@Sendable () -> String)?
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)
    private let synced = Latch()
    /// Open once this replica has told the store what it serves.
    private let reported = Latch()
    private let stopping = Latch()
    /// Readable when another thread wants the loop to look again at once (an `attach`), instead
    /// of at the end of its wait for notifications.
    private let wakeup = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))

    /// A follower of the store at `url`, writing into `materializer`'s folder. Its reports wait for
    /// `attach`; then it tells the store under `replicaName` which generation it serves
    /// (`ClusterStore.reportServing`), so that changes can wait for every replica.
    public init(url: String, materializer: Materializer, logger: Logger, retention: Int = Release.defaultRetention, shard: Shard? = nil,
                replicaName: (@Sendable () -> String)? = nil) {
        self.url = url
        self.replicaName = replicaName
        self.shard = shard
        self.retention = retention
        self.materializer = materializer
        self.logger = logger
    }

    deinit { close(wakeup) }

    /// Where reports go from now on, those held first: a replica's service, once it serves.
    /// Attached before `start`, it gets every report.
    public func attach(_ callbacks: Callbacks) {
        reports.attach(callbacks)
        var one: UInt64 = 1
        _ = Glibc.write(wakeup, &one, 8)
    }

    /// Waits until this replica has told the store what it serves (after `attach`), at most
    /// `timeout`; false when it has not. A replica answers as ready only then: a change made the
    /// moment it is ready waits for it too.
    public func awaitReported(timeout: Duration) -> Bool {
        replicaName == nil || reported.wait(timeout: timeout)
    }

    /// Waits until the first sync with the store is done, at most `timeout`; false when it is not.
    public func awaitFirstSync(timeout: Duration) -> Bool {
        synced.wait(timeout: timeout)
    }

    /// Forgets the reports held so far: what they tell is read another way (a replica's first
    /// index reads the folder as the syncs left it, the active theme and assignments from here).
    public func dropHeldReports() {
        reports.dropHeld()
    }

    /// When the store last answered; nil before it ever did.
    public var lastContact: ContinuousClock.Instant? { state.withLock { $0.lastContact } }
    /// Whether the first sync with the store is done.
    public var hasSynced: Bool { synced.isOpen }
    public var failures: [String: String] { state.withLock { $0.failures } }
    /// The active theme the store held at the last sync.
    public var active: String? { state.withLock { $0.active } }
    /// The newest generation of the store this replica has applied (its event ids start there).
    public var generation: Generation { state.withLock { $0.generation } }
    /// The schedules pending at the last sync, soonest first.
    public var schedules: [Schedule] { state.withLock { $0.schedules } }
    /// With a shard: every theme's listing in the store at the last sync (the other shards'
    /// themes are listed from here).
    public var listings: [String: ThemeListing] { state.withLock { $0.listings } }
    /// The aliases and rollouts of the store and the generations this replica serves and keeps,
    /// as of the last sync.
    public var audiences: ReplicaAudiences { state.withLock { $0.audiences } }
    /// The PostgreSQL process of the current connection (tests end it to cut the connection).
    public var backendPID: Int? { state.withLock { $0.backendPID } }

    public func start() {
        materializer.removeLeftovers()
        let thread = Thread { [self] in
            themed_name_this_thread("themed-cluster")
            // A change is applied in bursts between the store's answers: on a saturated host the shortest slice waits least.
            _ = themed_request_short_slices()
            run()
            done.signal()
        }
        thread.start()
    }

    public func stop() {
        stopping.open()
        done.wait()
    }

    private var isStopped: Bool { stopping.isOpen }

    private func run() {
        var delay = Duration.milliseconds(100)
        while !isStopped {
            do {
                let store = try ClusterStore(url: url)
                try store.listen()
                state.withLock { state in (state.backendPID, state.reportedServing) = (store.backendPID, nil) }
                // After every (re)connection, every theme: a notification may have been missed.
                try sync(store, everything: true)
                materializer.removeReplaced()
                delay = .milliseconds(100)
                var sincePing = ContinuousClock.now
                while !isStopped {
                    try reportServing(store)
                    // A schedule falling due wakes the loop at its time: this replica's own timer.
                    let due = state.withLock { $0.nextDue }
                    let wait = due.map { max(.zero, min(.milliseconds(250), $0 - .now)) } ?? .milliseconds(250)
                    let payloads = try store.notifications(waitingUpTo: wait, wakingOn: wakeup)
                    var nudges: UInt64 = 0
                    _ = Glibc.read(wakeup, &nudges, 8)
                    if !payloads.isEmpty || due.map({ ContinuousClock.now >= $0 }) == true {
                        try syncTimed(store)
                    } else if ContinuousClock.now - sincePing > .seconds(1) {
                        try store.ping()
                        sincePing = .now
                        state.withLock { $0.lastContact = .now }
                        if state.withLock({ $0.listingsPending }) { try exchangeListings(store) }
                    }
                }
            } catch {
                logger.warning("cluster store unreachable; serving what is here", metadata: ["error": "\(error)", "retry_in": "\(delay)"])
                state.withLock { $0.backendPID = nil }
                _ = stopping.wait(timeout: delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
    }

    /// A sync woken by the store and the report after it, logged when it moved this replica on:
    /// the time in the store's answers (each waits for a backend's turn) and its own (files, index, purges).
    private func syncTimed(_ store: ClusterStore) throws {
        let (woken, roundTrips, generation) = (ContinuousClock.now, store.roundTrips, self.generation)
        try sync(store)
        try reportServing(store)
        defer { materializer.removeReplaced() }
        guard self.generation != generation else { return }
        let (total, asked) = (ContinuousClock.now - woken, store.roundTrips.since(roundTrips))
        logger.info("change served", metadata: ["generation": "\(self.generation)", "ms": "\(total.milliseconds)", "store_queries": "\(asked.count)",
                                                "store_ms": "\(asked.waited.milliseconds)", "own_ms": "\((total - asked.waited).milliseconds)"])
    }

    /// Tells the store the generation this replica serves, once its service is attached and
    /// whenever a sync moved it: after the service applied the reports (they are given on this
    /// thread) and their purges went out (`settled`).
    private func reportServing(_ store: ClusterStore) throws {
        guard let replicaName, let callbacks = reports.attached else { return }
        let generation = state.withLock { $0.reportedServing == $0.generation ? nil : $0.generation }
        guard let generation else { return }
        callbacks.settled()
        try store.reportServing(replica: replicaName(), generation: generation)
        state.withLock { $0.reportedServing = generation }
        reported.open()
    }

    /// Materializes every release newer than the folder's, removes retired themes, and follows
    /// the active theme. Between reconnections only the releases after the newest generation
    /// applied are read (generations commit in order, so nothing before it can still arrive);
    /// `everything`, or a release this replica could not write yet, reads every theme's newest
    /// (the manifests only of those it writes and does not serve yet).
    private func sync(_ store: ClusterStore, everything: Bool = false) throws {
        let after = state.withLock { $0.failures.isEmpty && !everything ? $0.releasesRead : nil }
        // Every theme's newest release is compared with the folder read once (a platform's
        // 10,000 markers); a few releases, with their markers.
        let inventory = after == nil ? materializer.inventory() : nil
        let generationHere = { (theme: String) in inventory.map { $0.themes[theme] } ?? self.materializer.generation(of: theme) }
        let writes: (StoreSnapshot.LatestRelease) -> Bool = { self.holds($0.theme) && !$0.retired && generationHere($0.theme) != $0.generation }
        var snapshot = try store.snapshot(releasesAfter: after, manifestsWanted: writes)
        if snapshot.scheduleDue, try store.applyDueSchedules(keep: retention) > 0 { snapshot = try store.snapshot(releasesAfter: after, manifestsWanted: writes) }
        var replica = state.withLock { $0.audiences }
        // Aliases and rollouts are decoded again only when they changed (every replica reads at every notification).
        let audiences = try everything || snapshot.audienceGeneration != replica.store.generation ? snapshot.audiences() : replica.store
        if let inventory, everything || !replica.isComplete {
            (replica.served, replica.kept, replica.isComplete) = (inventory.themes, inventory.kept, true)
        }
        var changed: [(theme: String, generation: Generation)] = []
        var newest: Generation = after ?? 0
        for release in snapshot.releases {
            newest = max(newest, release.generation)
            guard holds(release.theme) else {
                // Another shard's theme: assignments name the generation its owners serve.
                replica.served[release.theme] = release.retired ? nil : audiences.servedGeneration(of: release.theme, latest: release.generation)
                continue
            }
            if release.retired {
                guard generationHere(release.theme) != nil else { continue }
                try materializer.remove(release.theme)
                changed.append((release.theme, release.generation))
                continue
            }
            // A theme in a rollout serves the release before it to plain requests.
            let served = audiences.servedGeneration(of: release.theme, latest: release.generation)
            guard generationHere(release.theme) != served else { continue }
            do {
                guard let release = served == release.generation ? try release.release() : try store.release(of: release.theme, generation: served) else {
                    throw ClusterError.generationNotKept(release.theme, served)
                }
                try write(release, from: store)
                state.withLock { _ = $0.failures.removeValue(forKey: release.theme) }
                changed.append((release.theme, release.generation))
                logger.info("release materialized", metadata: ["theme": "\(release.theme)", "generation": "\(release.generation)"])
            } catch {
                // Bad bytes in the store stay out of the folder: the previous release keeps serving.
                // Each refused generation is reported once, not at every later sync.
                let reported = state.withLock { state -> Bool in
                    defer { state.failures[release.theme] = "generation \(release.generation): \(error)" }
                    return state.failures[release.theme]?.hasPrefix("generation \(release.generation):") == true
                }
                guard !reported else { continue }
                logger.error("release refused; the previous one keeps serving", metadata: ["theme": "\(release.theme)", "generation": "\(release.generation)", "error": "\(error)"])
                reports.releaseRefused(release.theme, release.generation, "\(error)")
            }
        }
        if let shard, everything || !changed.isEmpty { changed += try holdAncestors(of: shard, store) }
        changed += try followAudiences(audiences, previous: replica.store, into: &replica, from: store)
        for (theme, _) in changed where ThemeName.pin(in: theme) == nil { replica.served[theme] = materializer.generation(of: theme) }
        let active = snapshot.active
        let previous = state.withLock { state -> String? in
            state.schedules = snapshot.schedules
            state.nextDue = snapshot.schedules.first.map { .now + .milliseconds(Int(max(0, $0.secondsUntilDue) * 1000)) }
            state.lastContact = .now
            state.generation = max(state.generation, newest, active?.generation ?? 0, audiences.generation)
            state.releasesRead = newest
            defer { state.active = active?.theme }
            return state.active
        }
        synced.open()
        // Changes in the order of their generations: the event ids they become only grow.
        if !changed.isEmpty { reports.themesChanged(changed.sorted { $0.generation < $1.generation }) }
        if let active, active.theme != previous { reports.activeChanged(active.theme, active.generation) }
        (replica.store, replica.active) = (audiences, active?.theme)
        let (before, generation) = state.withLock { state in
            defer { state.audiences = replica }
            return (state.audiences, state.generation)
        }
        if replica != before { reports.audiencesChanged(replica, generation) }
        try exchangeListings(store)
    }

    /// Rollouts and aliases: each theme in a rollout (or just out of one) holds the generation
    /// its plain URLs serve, and each generation a client may be pinned to that its theme does not
    /// serve is kept in a folder of its own (`brand@43`); those nothing points at any more go.
    private func followAudiences(_ audiences: StoreAudiences, previous: StoreAudiences, into replica: inout ReplicaAudiences,
                                 from store: ClusterStore) throws -> [(theme: String, generation: Generation)] {
        var changed: [(theme: String, generation: Generation)] = []
        for theme in Set(audiences.rollouts.keys).union(previous.rollouts.keys).sorted() {
            guard let latest = try store.latestRelease(of: theme), !latest.retired else { continue }
            let served = audiences.servedGeneration(of: theme, latest: latest.generation)
            guard holds(theme) else {
                replica.served[theme] = served
                continue
            }
            guard materializer.generation(of: theme) != served else { continue }
            do {
                guard let release = served == latest.generation ? latest : try store.release(of: theme, generation: served) else {
                    throw ClusterError.generationNotKept(theme, served)
                }
                try write(release, from: store)
                changed.append((theme, audiences.generation))
            } catch {
                logger.error("rollout's release refused; the theme keeps serving what it has", metadata: ["theme": "\(theme)", "generation": "\(served)", "error": "\(error)"])
            }
        }
        let wanted = audiences.pinnedGenerations.filter { holds($0.theme) && materializer.generation(of: $0.theme) != $0.generation }
        for pin in wanted.subtracting(replica.kept).sorted(by: { ($0.theme, $0.generation) < ($1.theme, $1.generation) }) {
            do {
                guard let release = try store.release(of: pin.theme, generation: pin.generation), !release.retired else {
                    throw ClusterError.generationNotKept(pin.theme, pin.generation)
                }
                try write(release, kept: true, from: store)
                replica.kept.insert(pin)
                changed.append((ThemeName.pinned(pin.theme, generation: pin.generation), audiences.generation))
            } catch {
                logger.error("pinned generation not kept here", metadata: ["theme": "\(pin.theme)", "generation": "\(pin.generation)", "error": "\(error)"])
            }
        }
        for pin in replica.kept.subtracting(wanted) {
            let folder = ThemeName.pinned(pin.theme, generation: pin.generation)
            try materializer.remove(folder)
            replica.kept.remove(pin)
            changed.append((folder, audiences.generation))
        }
        return changed
    }

    /// Writes a release into the folder (`kept`: beside the theme's, for a pinned generation).
    private func write(_ release: Release, kept: Bool = false, from store: ClusterStore) throws {
        // Each blob the store sends is contact: a large release takes long, not silence.
        try materializer.materialize(release, kept: kept) { hash in
            defer { state.withLock { $0.lastContact = .now } }
            return try store.blob(hash)
        }
    }

    /// With a shard: lists this replica's own themes in the store where their listing is older
    /// than the release it serves, and reads every theme's listing back.
    private func exchangeListings(_ store: ClusterStore) throws {
        guard let shard else { return }
        var listed = try store.listings()
        let stale = materializer.inventory().themes.filter { theme, generation in shard.owns(theme) && listed[theme]?.generation != generation }
            .map { (theme: $0.key, generation: $0.value) }
        let described = stale.isEmpty ? [] : reports.listings(stale)
        for listing in described {
            try store.record(listing)
            listed[listing.name] = listing
        }
        state.withLock { state in
            state.listings = listed
            state.listingsPending = described.count < stale.count
        }
    }

    /// Whether this replica writes `theme`'s releases: every theme without a shard; with one, its
    /// own themes and the ancestors it holds for them.
    public func holds(_ theme: String) -> Bool {
        guard let shard else { return true }
        return shard.owns(theme) || materializer.generation(of: theme) != nil
    }

    /// With a shard: the ancestors of the themes held are written when missing (read by name:
    /// the releases read so far skipped them), one generation of parents a pass, and themes no
    /// held theme needs any more are removed.
    private func holdAncestors(of shard: Shard, _ store: ClusterStore) throws -> [(theme: String, generation: Generation)] {
        var changed: [(theme: String, generation: Generation)] = []
        var unavailable = Set<String>()
        while true {
            let held = Set(materializer.inventory().themes.keys)
            let needed = shard.themesToHold(among: held, parent: materializer.parent(of:))
            let missing = needed.subtracting(held).subtracting(unavailable)
            guard !missing.isEmpty else {
                for theme in held.subtracting(needed).sorted() {
                    let generation = materializer.generation(of: theme) ?? 0
                    try materializer.remove(theme)
                    changed.append((theme, generation))
                }
                return changed
            }
            for theme in missing.sorted() {
                // A parent with no release yet (or a bad one) leaves the child's chain broken
                // until it comes, as on a single replica.
                unavailable.insert(theme)
                guard let release = try store.latestRelease(of: theme), !release.retired else { continue }
                do {
                    try write(release, from: store)
                    changed.append((theme, release.generation))
                    logger.info("ancestor materialized", metadata: ["theme": "\(theme)", "generation": "\(release.generation)"])
                } catch {
                    logger.error("ancestor refused", metadata: ["theme": "\(theme)", "generation": "\(release.generation)", "error": "\(error)"])
                }
            }
        }
    }
}
