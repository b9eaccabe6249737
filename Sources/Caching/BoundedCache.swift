import Synchronization

/// What `/metrics` reports of a cache.
public struct CacheStatistics: Sendable, Equatable {
    public var bytes = 0
    public var entries = 0
    public var hits = 0
    public var misses = 0
    public var evictions = 0
    public var capacityBytes = 0

    public init() {}
}

/// A thread-safe cache that holds at most `capacityBytes` of values (each value's cost is what
/// `cost` says), evicting the oldest entries first, and counts hits, misses and evictions.
///
/// Every cache of the server is one of these, so each has a budget in the configuration and the
/// same lines in `/metrics`.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var entries: [Key: (value: Value, cost: Int)] = [:]
        /// Keys in insertion order from `head` on; earlier slots are spent.
        var order: [Key] = []
        var head = 0
        @usableFromInline var statistics = CacheStatistics()
    }

    public let name: String
    private let cost: @Sendable (Value) -> Int
    @usableFromInline let state: Mutex<State>

    public init(name: String, capacityBytes: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.name = name
        self.cost = cost
        var state = State()
        state.statistics.capacityBytes = max(0, capacityBytes)
        self.state = Mutex(state)
    }

    /// The value for `key`, counted as a hit or a miss. Inlinable: it is on every request's path,
    /// and specialised for its key and value types it hashes and compares without generic calls.
    @inlinable
    public func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let entry = state.entries[key] else {
                state.statistics.misses += 1
                return nil
            }
            state.statistics.hits += 1
            return entry.value
        }
    }

    /// Whether `key` is cached, without counting a hit or miss.
    public func contains(_ key: Key) -> Bool {
        state.withLock { $0.entries[key] != nil }
    }

    /// Keeps `value`, evicting the oldest entries until the cache is within its budget. A value
    /// larger than a quarter of the budget is not kept at all (it would evict too much).
    public func insert(_ value: Value, for key: Key) {
        let size = cost(value)
        state.withLock { state in
            let capacity = state.statistics.capacityBytes
            guard size <= capacity / 4 else { return }
            if let old = state.entries.updateValue((value, size), forKey: key) {
                state.statistics.bytes -= old.cost
            } else {
                state.order.append(key)
            }
            state.statistics.bytes += size
            while state.statistics.bytes > capacity, state.head < state.order.count {
                let oldest = state.order[state.head]
                state.head += 1
                if let evicted = state.entries.removeValue(forKey: oldest) {
                    state.statistics.bytes -= evicted.cost
                    state.statistics.evictions += 1
                }
            }
            if state.head > 1024 && state.head * 2 > state.order.count {
                state.order.removeFirst(state.head)
                state.head = 0
            }
            state.statistics.entries = state.entries.count
        }
    }

    /// Drops every entry for which `shouldRemove` says so.
    public func removeAll(where shouldRemove: (Key) -> Bool) {
        state.withLock { state in
            for (key, entry) in state.entries where shouldRemove(key) {
                state.entries.removeValue(forKey: key)
                state.statistics.bytes -= entry.cost
            }
            state.order = state.order[state.head...].filter { state.entries[$0] != nil }
            state.head = 0
            state.statistics.entries = state.entries.count
        }
    }

    public var statistics: CacheStatistics { state.withLock { $0.statistics } }

    /// Sets the budget (from the configuration); entries past it go at the next insertion.
    public func setCapacity(_ bytes: Int) {
        state.withLock { $0.statistics.capacityBytes = max(0, bytes) }
    }
}

/// Anything `/metrics` reports as a cache.
public protocol CacheReporting: Sendable {
    var name: String { get }
    var statistics: CacheStatistics { get }
}

extension BoundedCache: CacheReporting {}
