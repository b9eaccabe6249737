/// With a cluster store: how long since it last answered this replica. A replica serves what it
/// has whatever that says (a store outage is not an outage), so it is shown, not acted on: in
/// `/healthz`, in `/metrics`, and in the log when it passes `unreachableAfter`.
public struct StoreContact: Sendable {
    /// Time since the store last answered; nil before it ever has.
    public var silence: @Sendable () -> Duration?
    /// Past this silence the store counts as unreachable (`clusterUnreachableSeconds`).
    public var unreachableAfter: Duration

    public init(silence: @escaping @Sendable () -> Duration?, unreachableAfter: Duration) {
        (self.silence, self.unreachableAfter) = (silence, unreachableAfter)
    }

    /// Whether the store answered within `unreachableAfter`.
    public var isReachable: Bool { silence().map { $0 <= unreachableAfter } ?? false }

    /// Whole seconds since the store last answered; nil before it ever has.
    public var secondsSinceAnswer: Int? { silence().map { Int($0.components.seconds) } }

    /// `secondsSinceAnswer`, -1 before the store ever answered: what /metrics shows.
    public var silentSeconds: Int { secondsSinceAnswer ?? -1 }
}
