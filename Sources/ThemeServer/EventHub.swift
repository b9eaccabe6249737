import Foundation
import HTTPServer
import JSON
import Synchronization
import ThemeVocabulary

/// Change events for `GET /events` (Server-Sent Events): a bounded history, so a client that
/// reconnects with `Last-Event-ID` gets what it missed, and the open streams to push to.
///
/// Ids on the wire are `<source>-<number>`; the numbering is one of two kinds:
/// - `.local`: this server counts its own events, and keeps counting across restarts. Behind a
///   balancer, another replica's numbers mean other events; an id of another source gets a
///   resync instead of a replay of the wrong events.
/// - `.cluster`: the number is the cluster store's generation of the change (a release or an
///   active switch; PostgreSQL orders them), so an id means the same on every replica and a
///   client that fails over resumes where it was. A replica keeps the events since it started
///   (`startedAt`) and, recorded before it serves, the store's newest changes before that
///   (`record`): a stream that moves to a replica just restarted (a deploy) is replayed what it
///   missed; only an id older than all of those gets a resync. An id newer than what this replica
///   has applied yet (its stream reached a faster replica) is waited for, not replayed twice.
public final class EventHub: Sendable {
    public struct Event: Sendable {
        public var id: Generation
        public var change: ServerEvent
        /// Over how many milliseconds the streams it reached spread their refetches (set when a
        /// change reaches more streams than `refetchRate`).
        public var refetchWithin: Int?

        public init(id: Generation, _ change: ServerEvent, refetchWithin: Int? = nil) {
            (self.id, self.change, self.refetchWithin) = (id, change, refetchWithin)
        }

        public var type: String { change.name }

        public var data: JSONValue {
            guard let refetchWithin, case .object(let members) = change.data else { return change.data }
            return .object(members + [("refetchWithin", .int(refetchWithin))])
        }
    }

    public enum Numbering: Sendable {
        /// `firstID` continues an earlier run's numbering; `idUsed` is told each id, to keep it.
        case local(source: String, firstID: Generation, idUsed: @Sendable (Generation) -> Void)
        /// Generations of the cluster store, from `startedAt` (what the replica applied before serving).
        case cluster(startedAt: Generation)

        var source: String {
            switch self {
            case .local(let source, _, _): source
            case .cluster: Self.clusterSource
            }
        }

        /// Not hex, so never the source of a local numbering.
        static let clusterSource = "g"
    }

    /// Which changes a stream wants (`/events?theme=`).
    public enum Interest: Sendable {
        /// Every theme's.
        case every
        /// These themes' (a theme and its ancestors: a change to a parent changes the child).
        case themes(Set<String>)
        /// What a name that moves stands for: `current` (the active theme's chain) or an alias
        /// (the chains of the themes it points at, and its own `assignment-changed`). Worked out
        /// at each event, so a switch moves the stream along with it.
        case following(String, themes: @Sendable () -> Set<String>)
    }

    private struct Subscriber {
        var stream: any ResponseStream
        /// Events up to this id were seen elsewhere (cluster numbering): not sent again.
        var seenThrough: Generation
        var interest: Interest

        /// Whether the stream gets `event`: every theme's when it asked for none; else its
        /// themes' (for a name that moves, `followed` says which they are now), and what concerns
        /// every client (a switch of the active theme, a resync).
        func wants(_ event: Event, followed: (String, () -> Set<String>) -> Set<String>) -> Bool {
            let themes: Set<String>
            switch interest {
            case .every: return true
            case .themes(let named): themes = named
            case .following(let name, let current):
                if case .assignmentChanged(let alias, _) = event.change { return alias == name }
                themes = followed(name, current)
            }
            guard !event.change.concernsEveryClient, let theme = event.change.theme else { return true }
            return themes.contains(theme)
        }
    }

    /// The themes each followed name stands for, each worked out once an event.
    private struct FollowedThemes {
        var known: [String: Set<String>] = [:]

        mutating func themes(of name: String, _ current: () -> Set<String>) -> Set<String> {
            if let themes = known[name] { return themes }
            let themes = current()
            known[name] = themes
            return themes
        }
    }

    private struct State {
        var lastID: Generation
        /// Every event after this id is in `history`; a client that saw less gets a resync.
        var replayableAfter: Generation
        var history: [Event] = []
        var subscribers: [Int: Subscriber] = [:]
        var observers: [@Sendable (Event) -> Void] = []
        var nextSubscriber = 0
    }

    private let state: Mutex<State>
    public let historyLimit: Int
    public let numbering: Numbering
    /// How many refetches a second a change may set off: a change that reaches more streams than
    /// this tells them to spread their refetches over `refetchWithin` milliseconds (docs/API.md).
    public let refetchRate: Int
    /// The longest spread asked for, however many streams.
    static let longestSpread = 10_000
    public var source: String { numbering.source }

    public init(historyLimit: Int = 256, numbering: Numbering = .local(source: "", firstID: 1, idUsed: { _ in }), refetchRate: Int = 2_000) {
        self.historyLimit = historyLimit
        self.numbering = numbering
        self.refetchRate = max(1, refetchRate)
        let last = switch numbering {
        case .local(_, let firstID, _): max(1, firstID) - 1
        case .cluster(let startedAt): max(0, startedAt)
        }
        state = Mutex(State(lastID: last, replayableAfter: last))
    }

    /// A local numbering (see `Numbering.local`).
    public convenience init(historyLimit: Int = 256, source: String = "", firstID: Generation = 1, refetchRate: Int = 2_000,
                            idUsed: @escaping @Sendable (Generation) -> Void = { _ in }) {
        self.init(historyLimit: historyLimit, numbering: .local(source: source, firstID: firstID, idUsed: idUsed), refetchRate: refetchRate)
    }

    private var isCluster: Bool {
        if case .cluster = numbering { return true }
        return false
    }

    /// Records an event and sends it to every open stream. With cluster numbering, `generation`
    /// is the change's generation in the store; an event without one (a local rescan, an error)
    /// takes the id of the last change, which it follows.
    @discardableResult
    public func publish(_ change: ServerEvent, generation: Generation? = nil) -> Event {
        let (event, receivers, observers) = state.withLock { state -> (Event, [any ResponseStream], [@Sendable (Event) -> Void]) in
            let id = if isCluster { max(state.lastID, generation ?? state.lastID) } else { state.lastID + 1 }
            var event = Event(id: id, change)
            var followed = FollowedThemes()
            let receivers = state.subscribers.values.filter { subscriber in
                event.id > subscriber.seenThrough && subscriber.wants(event, followed: { followed.themes(of: $0, $1) })
            }.map(\.stream)
            if change.setsOffRefetches, receivers.count > refetchRate {
                event.refetchWithin = min(Self.longestSpread, receivers.count * 1000 / refetchRate)
            }
            state.lastID = id
            state.history.append(event)
            if state.history.count > historyLimit {
                let dropped = state.history.count - historyLimit
                state.replayableAfter = state.history[dropped - 1].id
                state.history.removeFirst(dropped)
            }
            return (event, receivers, state.observers)
        }
        if case .local(_, _, let idUsed) = numbering { idUsed(event.id) }
        // Serialised once for every stream.
        let bytes = wireFormat(event)
        for stream in receivers { stream.write(bytes) }
        for observer in observers { observer(event) }
        return event
    }

    /// Puts events from before this hub started in front of its history (ids no newer than where
    /// its numbering starts, oldest first); every event after `completeAfter` must be among them.
    /// They go to no stream: they are there to be replayed.
    func record(_ past: [Event], completeAfter: Generation) {
        state.withLock { state in
            let older = past.filter { $0.id <= state.replayableAfter }
            state.history = older + state.history
            state.replayableAfter = min(state.replayableAfter, completeAfter)
            if state.history.count > historyLimit {
                let dropped = state.history.count - historyLimit
                state.replayableAfter = max(state.replayableAfter, state.history[dropped - 1].id)
                state.history.removeFirst(dropped)
            }
        }
    }

    /// Calls `observer` with every event published from now on (in the publisher's thread: it
    /// must return quickly).
    public func observe(_ observer: @escaping @Sendable (Event) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Events after `lastID` still in the history.
    public func events(after lastID: Generation) -> [Event] {
        state.withLock { $0.history.filter { $0.id > lastID } }
    }

    /// The id of the newest event (or of where the numbering starts).
    public var lastID: Generation { state.withLock { $0.lastID } }

    func wireID(_ number: Generation) -> String { source.isEmpty ? String(number) : "\(source)-\(number)" }

    func wireFormat(_ event: Event) -> [UInt8] {
        Array("id: \(wireID(event.id))\nevent: \(event.type)\ndata: \(event.data.serialized())\n\n".utf8)
    }

    /// The number of an id this numbering gives, or nil when it is not one (another source, or not an id).
    func number(ofWireID text: String) -> Generation? {
        guard !source.isEmpty else { return Generation(text) }
        let prefix = source + "-"
        guard text.hasPrefix(prefix) else { return nil }
        return Generation(text.dropFirst(prefix.count))
    }

    /// Attaches a stream: first the events it missed, then every new one, until it closes.
    ///
    /// When the events after `lastID` are no longer all in the history (or `lastID` is one this
    /// numbering never gave), the stream starts with a `resync` event instead: the client cannot
    /// catch up event by event and must fetch what it shows again. The opening ends with an `id:`
    /// line and no event (EventSource then records the id without dispatching anything): a client
    /// that has seen no event yet still knows where it is, and a reconnection after a change it
    /// missed replays that change. With `themes`, only their changes come (and what concerns every
    /// client: active switches, resyncs); ids stay the server's, with gaps.
    func subscribe(_ stream: any ResponseStream, after lastID: String?, interest: Interest = .every) {
        let subscriber = Subscriber(stream: stream, seenThrough: Generation.min, interest: interest)
        let (key, missed, position) = state.withLock { state -> (Int, [Event], Generation?) in
            let key = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[key] = subscriber
            guard let lastID else { return (key, [], state.lastID) }
            func resync(_ reason: String) -> (Int, [Event], Generation?) {
                (key, [Event(id: state.lastID, .resync(reason: reason))], state.lastID)
            }
            guard let last = number(ofWireID: lastID) else { return resync("unknown event id \(lastID)") }
            if last > state.lastID {
                // A cluster id this replica has not applied yet: the events up to it come, unsent.
                guard isCluster else { return resync("unknown event id \(lastID)") }
                state.subscribers[key]?.seenThrough = last
                return (key, [], nil)
            }
            if last < state.replayableAfter { return resync("events after \(lastID) are no longer kept") }
            var followed = FollowedThemes()
            return (key, state.history.filter { $0.id > last && subscriber.wants($0, followed: { followed.themes(of: $0, $1) }) }, state.lastID)
        }
        var opening = Array("retry: 1000\n\n".utf8)
        for event in missed { opening += wireFormat(event) }
        if let position { opening += Array("id: \(wireID(position))\n\n".utf8) }
        stream.write(opening)
        stream.onClose { [weak self] in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
    }

    /// A comment line to every stream, so that proxies do not close idle connections.
    public func heartbeat() {
        let subscribers = state.withLock { $0.subscribers.values.map(\.stream) }
        let bytes = Array(": heartbeat\n\n".utf8)
        for subscriber in subscribers { subscriber.write(bytes) }
    }

    /// Before a drain: tells every stream how soon to reconnect, each a random delay in
    /// `retryMilliseconds` (browsers' EventSource waits exactly what it is told: without the spread,
    /// every client of a replica would come back in the same instant); the server then ends them.
    public func closing(retryMilliseconds: ClosedRange<Int>) {
        let subscribers = state.withLock { $0.subscribers.values.map(\.stream) }
        for subscriber in subscribers { subscriber.write(Array("retry: \(Int.random(in: retryMilliseconds))\n\n".utf8)) }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }
}
