#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point in time on the monotonic clock, which wall-clock changes do not move.
public struct Deadline: Sendable {
    private let milliseconds: Int

    public init(millisecondsFromNow: Int) {
        milliseconds = Deadline.now() + millisecondsFromNow
    }

    /// Milliseconds left; zero or less once passed.
    public var remainingMilliseconds: Int { milliseconds - Deadline.now() }

    private static func now() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int(time.tv_sec) * 1000 + Int(time.tv_nsec) / 1_000_000
    }
}
