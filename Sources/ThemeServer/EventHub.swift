import Foundation
import HTTPServer
import JSON
import Synchronization

/// Change events for `GET /events` (Server-Sent Events): a bounded history, so a client that
/// reconnects with `Last-Event-ID` gets what it missed, and the open streams to push to.
public final class EventHub: Sendable {
    public struct Event: Sendable {
        public var id: Int
        public var type: String
        public var data: JSONValue

        var wireFormat: [UInt8] {
            Array("id: \(id)\nevent: \(type)\ndata: \(data.serialized())\n\n".utf8)
        }
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
    /// Told each id as it is used, so that the numbering can survive a restart.
    private let idUsed: @Sendable (Int) -> Void

    /// `firstID` continues the numbering of an earlier run: a client reconnecting after a
    /// restart with its `Last-Event-ID` then misses nothing that happened since.
    public init(historyLimit: Int = 256, firstID: Int = 1, idUsed: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.historyLimit = historyLimit
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
        for subscriber in subscribers { subscriber.write(event.wireFormat) }
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

    /// Attaches a stream: first the events it missed, then every new one, until it closes.
    ///
    /// When the events after `lastID` are no longer all in the history (or `lastID` is one this
    /// hub never gave), the stream starts with a `resync` event instead: the client cannot
    /// catch up event by event and must fetch what it shows again.
    func subscribe(_ stream: any ResponseStream, after lastID: Int?) {
        let (key, missed) = state.withLock { state -> (Int, [Event]) in
            let key = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[key] = stream
            guard let last = lastID else { return (key, []) }
            let oldestKept = state.history.first?.id ?? state.nextID
            if last >= state.nextID || last + 1 < oldestKept {
                let reason = last >= state.nextID ? "unknown event id \(last)" : "events after \(last) are no longer kept"
                return (key, [Event(id: state.nextID - 1, type: "resync", data: ["reason": .string(reason)])])
            }
            return (key, state.history.filter { $0.id > last })
        }
        stream.write(Array("retry: 1000\n\n".utf8))
        for event in missed { stream.write(event.wireFormat) }
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
