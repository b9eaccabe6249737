#if canImport(Glibc)
import Glibc
#endif

/// A reading of the monotonic clock, in nanoseconds: when a request arrived, when a connection
/// was last active. Differences are `Duration`s.
///
/// Why not `ContinuousClock.Instant`: the standard library keeps the right to change its layout
/// (it is resilient), so every value that holds one, a request's head, the connection's deadlines,
/// an optional of it, is copied, tested and destroyed through the runtime's generic witnesses
/// (about 2% of the server's time on a kept answer). A moment is an `Int64` the compiler sees.
public struct Moment: Comparable, Hashable, Sendable {
    let nanoseconds: Int64

    /// The clock now (`CLOCK_MONOTONIC`, read through the vDSO: no system call).
    public static var now: Moment {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Moment(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    public static func - (later: Moment, earlier: Moment) -> Duration {
        .nanoseconds(later.nanoseconds - earlier.nanoseconds)
    }

    public static func + (moment: Moment, duration: Duration) -> Moment {
        let (seconds, attoseconds) = duration.components
        return Moment(nanoseconds: moment.nanoseconds + seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    public static func < (left: Moment, right: Moment) -> Bool { left.nanoseconds < right.nanoseconds }
}
