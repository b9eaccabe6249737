/// How the background warming shares the machine with the clients being answered: flat out once
/// no client has been read from for `quiet`, and while they are, one content at most every
/// `busyInterval`. PostgreSQL's autovacuum paces itself the same way (its cost delay).
///
/// Why not priorities alone: the warming already runs at the lowest (idle scheduling), yet a
/// resolved palette asked on a 1,000-brand platform right after a restart took 3-6 ms at the 99th
/// percentile while the warming ran, against 2-2.5 ms with it off (its p50 1 ms either way): it
/// shares more with the requests than a core (a scheduler trace has threads waiting on the memory
/// map's lock and on the file system's reads), which no priority weighs. Paced, it meets them a
/// few times a second, not at every request.
public struct WarmingPace: Sendable {
    /// Clients silent this long: the warming runs without pauses.
    public var quiet: Duration
    /// While clients are answered: the least time from one content's end to the next one's start.
    public var busyInterval: Duration
    /// How long ago the server last read from a client; nil where no server answers (tools,
    /// tests asking in-process), and then the warming never pauses.
    public var sinceLastRead: @Sendable () -> Duration?

    /// 50 ms of silence is a pause between a client's requests, not between two in a burst; 20 ms
    /// between contents warms 50 a second under any load (a changed theme's few hundred in
    /// seconds), each a short overlap with a request now and then.
    public init(quiet: Duration = .milliseconds(50), busyInterval: Duration = .milliseconds(20),
                sinceLastRead: @escaping @Sendable () -> Duration? = { nil }) {
        self.quiet = quiet
        self.busyInterval = busyInterval
        self.sinceLastRead = sinceLastRead
    }

    /// How long to wait before the next content, the last one having ended `sinceLastWork` ago;
    /// nil: start it now. Asked again after the wait: clients may have gone quiet meanwhile.
    public func pause(sinceLastWork: Duration) -> Duration? {
        guard let silence = sinceLastRead(), silence < quiet else { return nil }
        let remaining = busyInterval - sinceLastWork
        return remaining > .zero ? remaining : nil
    }
}
