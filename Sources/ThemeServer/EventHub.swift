import Foundation
import HTTPServer
import JSON
import Synchronization

/// Change events for `GET /events` (Server-Sent Events): a bounded history, so a client that
/// reconnects with `Last-Event-ID` gets what it missed, and the open streams to push to.
///
/// Ids on the wire are `<source>-<number>`: the number orders this hub's events, the source names
/// the numbering. Behind a balancer a client may reconnect to another replica, whose numbers
/// mean other events; its id then names a source this hub is not, and it gets a resync instead
/// of a replay of the wrong events. (A hub without a source sends bare numbers.)
public final class EventHub: Sendable {
    public struct Event: Sendable {
        public var id: Int
        public var type: String
        public var data: JSONValue
    }

    private struct State {
        var nextID = 1
        var history: [Event] = []
        var subscribers: [Int: any ResponseStream] = [:]
        var observers: [@Sendable (Event) -> Void] = []
        var nextSubscriber = 0
    }

    private let state: Mutex<State>
    public let historyLimit: Int
    public let source: String
    /// Told each id as it is used, so that the numbering can survive a restart.
    private let idUsed: @Sendable (Int) -> Void

    /// `firstID` continues the numbering of an earlier run: a client reconnecting after a
    /// restart with its `Last-Event-ID` then misses nothing that happened since.
    public init(historyLimit: Int = 256, source: String = "", firstID: Int = 1, idUsed: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.historyLimit = historyLimit
        self.source = source
        self.idUsed = idUsed
        state = Mutex(State(nextID: max(1, firstID)))
    }

    /// Records an event and sends it to every open stream.
    @discardableResult
    public func publish(_ type: String, _ data: JSONValue) -> Event {
        let (event, subscribers, observers) = state.withLock { state -> (Event, [any ResponseStream], [@Sendable (Event) -> Void]) in
            let event = Event(id: state.nextID, type: type, data: data)
            state.nextID += 1
            state.history.append(event)
            if state.history.count > historyLimit { state.history.removeFirst(state.history.count - historyLimit) }
            return (event, Array(state.subscribers.values), state.observers)
        }
        idUsed(event.id)
        for subscriber in subscribers { subscriber.write(wireFormat(event)) }
        for observer in observers { observer(event) }
        return event
    }

    /// Calls `observer` with every event published from now on (in the publisher's thread: it
    /// must return quickly).
    public func observe(_ observer: @escaping @Sendable (Event) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Events after `lastID` still in the history.
    public func events(after lastID: Int) -> [Event] {
        state.withLock { $0.history.filter { $0.id > lastID } }
    }

    func wireID(_ number: Int) -> String { source.isEmpty ? String(number) : "\(source)-\(number)" }

    func wireFormat(_ event: Event) -> [UInt8] {
        Array("id: \(wireID(event.id))\nevent: \(event.type)\ndata: \(event.data.serialized())\n\n".utf8)
    }

    /// The number of an id this hub sent, or nil when it is not one (another source, or not an id).
    func number(ofWireID text: String) -> Int? {
        guard !source.isEmpty else { return Int(text) }
        let prefix = source + "-"
        guard text.hasPrefix(prefix) else { return nil }
        return Int(text.dropFirst(prefix.count))
    }

    /// Attaches a stream: first the events it missed, then every new one, until it closes.
    ///
    /// When the events after `lastID` are no longer all in the history (or `lastID` is one this
    /// hub never gave, from another server or numbering), the stream starts with a `resync`
    /// event instead: the client cannot catch up event by event and must fetch what it shows again.
    func subscribe(_ stream: any ResponseStream, after lastID: String?) {
        let (key, missed) = state.withLock { state -> (Int, [Event]) in
            let key = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[key] = stream
            guard let lastID else { return (key, []) }
            func resync(_ reason: String) -> (Int, [Event]) {
                (key, [Event(id: state.nextID - 1, type: "resync", data: ["reason": .string(reason)])])
            }
            guard let last = number(ofWireID: lastID), last < state.nextID else { return resync("unknown event id \(lastID)") }
            let oldestKept = state.history.first?.id ?? state.nextID
            if last + 1 < oldestKept { return resync("events after \(lastID) are no longer kept") }
            return (key, state.history.filter { $0.id > last })
        }
        stream.write(Array("retry: 1000\n\n".utf8))
        for event in missed { stream.write(wireFormat(event)) }
        stream.onClose { [weak self] in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
    }

    /// A comment line to every stream, so that proxies do not close idle connections.
    public func heartbeat() {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.write(Array(": heartbeat\n\n".utf8)) }
    }

    /// Before a drain: tells every stream how soon to reconnect; the server then ends them.
    public func closing(retryMilliseconds: Int) {
        let subscribers = state.withLock { Array($0.subscribers.values) }
        for subscriber in subscribers { subscriber.write(Array("retry: \(retryMilliseconds)\n\n".utf8)) }
    }

    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }
}
