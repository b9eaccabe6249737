import Synchronization

/// The writer a streaming response gets; hands bytes to the connection's loop.
final class StreamWriter: ResponseStream, @unchecked Sendable {
    private weak var connection: Connection?
    private let state = Mutex<(open: Bool, handlers: [@Sendable () -> Void])>((true, []))

    init(connection: Connection) { self.connection = connection }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        guard state.withLock({ $0.open }), let connection else { return false }
        connection.streamWrite(bytes)
        return true
    }

    func close() { finish() }

    func finish() {
        guard state.withLock({ $0.open }) else { return }
        connection?.streamFinish()
    }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let run = state.withLock { state -> Bool in
            if state.open { state.handlers.append(handler) }
            return !state.open
        }
        if run { handler() }
    }

    /// The connection has gone.
    func closed() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            state.open = false
            defer { state.handlers.removeAll() }
            return state.handlers
        }
        for handler in handlers { handler() }
    }
}
