import Cluster
import Synchronization

/// Which team's token a request presents, checked against the cluster store, and whether it may
/// do what it asks; failed attempts counted per client address.
public final class TokenCheck: Sendable {
    let connections: StoreConnections
    let attempts = FailedAttempts()

    public init(connections: StoreConnections) {
        self.connections = connections
    }

    /// The token that `Authorization: Bearer <secret>` presents, when it may do `permission` to
    /// `theme`. A secret the store does not know counts against the client (`host`: its address,
    /// behind trusted proxies the one they forwarded); past the limit every attempt from it is
    /// refused until its window ends.
    public func authorize(_ authorization: String?, from host: String, to permission: Token.Permission, theme: String) throws(Refusal) -> Token {
        if let wait = attempts.refusal(for: host) { throw .tooManyAttempts(retryAfterSeconds: wait) }
        guard let authorization, authorization.hasPrefix("Bearer "), case let secret = String(authorization.dropFirst(7)), !secret.isEmpty else {
            throw .unauthorized("this route needs Authorization: Bearer <token> (themed token create)")
        }
        let token: Token?
        do {
            token = try connections.withStore { try $0.token(forSecret: secret) }
        } catch {
            throw .unavailable("the cluster store cannot check the token: \(error)")
        }
        guard let token else {
            attempts.failed(host)
            throw .unauthorized("the token is not known (revoked, or never made)")
        }
        guard token.allows(permission, theme: theme) else {
            throw .forbidden("token \(token.name) may not \(permission.rawValue) theme \(theme)")
        }
        return token
    }
}

/// Failed token attempts per client address: past `limit` in a window, the address is refused
/// until the window ends. The table is bounded: at its size, windows that have ended go first.
final class FailedAttempts: Sendable {
    static let limit = 10
    static let window: Duration = .seconds(60)
    static let capacity = 10_000

    private let table = Mutex<[String: (count: Int, started: ContinuousClock.Instant)]>([:])

    /// Seconds to wait when the address is past the limit; nil when it may try.
    func refusal(for host: String) -> Int? {
        table.withLock { table in
            guard let entry = table[host] else { return nil }
            let elapsed = ContinuousClock.now - entry.started
            if elapsed >= Self.window {
                table[host] = nil
                return nil
            }
            return entry.count >= Self.limit ? Int((Self.window - elapsed).components.seconds) + 1 : nil
        }
    }

    func failed(_ host: String) {
        table.withLock { table in
            let now = ContinuousClock.now
            if table.count >= Self.capacity {
                table = table.filter { now - $0.value.started < Self.window }
                if table.count >= Self.capacity, let oldest = table.min(by: { $0.value.started < $1.value.started }) { table[oldest.key] = nil }
            }
            if let entry = table[host], now - entry.started < Self.window {
                table[host] = (entry.count + 1, entry.started)
            } else {
                table[host] = (1, now)
            }
        }
    }
}
