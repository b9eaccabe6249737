import Foundation

/// A count that any thread may add to.
public final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    public init() {}
    public func add() { lock.lock(); count += 1; lock.unlock() }
    public var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
