/// Listening to a client: its palettes, its status and its errors, each listener told outside the
/// client's lock.
extension ThemedClient {
    /// Calls `handler` with the palette held now, if any, then with every new one (on the
    /// client's threads) until the returned token is cancelled.
    @discardableResult
    public func onUpdate(_ handler: @escaping @Sendable (Update) -> Void) -> UpdateToken {
        let (key, held) = state.withLock { ($0.listeners.add(handler), $0.palette) }
        if let held { handler(Update(palette: held, reason: .current)) }
        return UpdateToken { [weak self] in self?.state.withLock { $0.listeners.remove(key) } }
    }

    /// Calls `handler` with the status now, then with each change of it.
    @discardableResult
    public func onStatus(_ handler: @escaping @Sendable (ThemedClientStatus) -> Void) -> UpdateToken {
        let (key, now) = state.withLock { ($0.statusListeners.add(handler), $0.status) }
        handler(now)
        return UpdateToken { [weak self] in self?.state.withLock { $0.statusListeners.remove(key) } }
    }

    /// Calls `handler` with every error: failed requests and streams, and a cache folder that
    /// cannot be written.
    @discardableResult
    public func onError(_ handler: @escaping @Sendable (ThemedClientError) -> Void) -> UpdateToken {
        let key = state.withLock { $0.errorListeners.add(handler) }
        return UpdateToken { [weak self] in self?.state.withLock { $0.errorListeners.remove(key) } }
    }

    /// Every new palette, as an asynchronous sequence.
    public var updates: AsyncStream<Update> {
        AsyncStream { continuation in
            let token = onUpdate { continuation.yield($0) }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    public final class UpdateToken: Sendable {
        private let cancellation: @Sendable () -> Void
        init(_ cancellation: @escaping @Sendable () -> Void) { self.cancellation = cancellation }
        public func cancel() { cancellation() }
    }
}

/// Listeners by key: added and removed under the client's lock, called outside it.
struct Listeners<Value: Sendable> {
    private var byKey: [Int: @Sendable (Value) -> Void] = [:]
    private var nextKey = 0

    mutating func add(_ listener: @escaping @Sendable (Value) -> Void) -> Int {
        defer { nextKey += 1 }
        byKey[nextKey] = listener
        return nextKey
    }

    mutating func remove(_ key: Int) {
        byKey.removeValue(forKey: key)
    }

    var all: [@Sendable (Value) -> Void] { byKey.sorted { $0.key < $1.key }.map(\.value) }
}
