import DoogitSupport

/// A machine's hybrid logical clock (Kulkarni et al.): stamps for local changes that are later
/// than every stamp this machine has made or seen, even when its wall clock is behind another
/// machine's or goes back. A machine an hour behind that has seen a change stamps its next edit
/// after it, so its later edit wins.
///
/// A wall clock far ahead cannot win forever either: a stamp more than `tolerance` ahead of a
/// reference time (GitHub's `Date` header, read in the same exchange) is clamped to that
/// reference, and the clamp is reported so that sync can warn about the clock.
public struct HybridClock: Equatable, Sendable {
    public let machine: String
    /// The latest stamp this clock has made or seen.
    public private(set) var latest: HybridTimestamp

    /// How far ahead of the reference a stamp may be before it is clamped: clocks a little off
    /// are normal, one set to another year is not.
    public static let tolerance: Int64 = 5 * 60 * 1000

    public init(machine: String, latest: HybridTimestamp = .zero) {
        self.machine = machine
        self.latest = latest
    }

    /// A stamp for a change made here now: later than anything made or seen before.
    public mutating func tick(now: Timestamp) -> HybridTimestamp {
        let physical = min(max(now.millisecondsSinceEpoch, 0), HybridTimestamp.maximumWall)
        if physical > latest.wall {
            latest = HybridTimestamp(wall: physical, counter: 0, machine: machine)
        } else if latest.counter < HybridTimestamp.maximumCounter {
            latest = HybridTimestamp(wall: latest.wall, counter: latest.counter + 1, machine: machine)
        } else if latest.wall < HybridTimestamp.maximumWall {
            // 65,536 changes within one millisecond: borrow the next millisecond.
            latest = HybridTimestamp(wall: latest.wall + 1, counter: 0, machine: machine)
        }
        // (At the last stamp there is none later: it stays, and never steps back.)
        return latest
    }

    /// What became of a stamp the clock was shown.
    public struct Observation: Equatable, Sendable {
        /// The stamp as it counts: the one given, or clamped to the reference.
        public var stamp: HybridTimestamp
        /// How far ahead of the reference the stamp was, when it was clamped.
        public var clampedBy: Int64?

        public init(stamp: HybridTimestamp, clampedBy: Int64?) {
            self.stamp = stamp
            self.clampedBy = clampedBy
        }
    }

    /// Takes in a stamp made elsewhere (or a stamp of this machine's read back), clamped to
    /// `reference` when it is more than `tolerance` ahead of it, so the next tick is later.
    @discardableResult
    public mutating func observe(_ stamp: HybridTimestamp, reference: Timestamp?) -> Observation {
        let observation = Self.clamp(stamp, reference: reference)
        let seen = observation.stamp
        if seen.wall > latest.wall || (seen.wall == latest.wall && seen.counter > latest.counter) {
            latest = HybridTimestamp(wall: seen.wall, counter: seen.counter, machine: machine)
        }
        return observation
    }

    /// Brings the clock itself back when it ran ahead of the reference (a machine whose clock was
    /// set to a later year), so that after an exchange its stamps follow GitHub's time again.
    public mutating func clampLatest(reference: Timestamp) {
        if let clamped = Self.clamp(latest, reference: reference).clampedBy, clamped > 0 {
            latest = HybridTimestamp(wall: reference.millisecondsSinceEpoch, counter: latest.counter, machine: machine)
        }
    }

    /// Whether a wall time is more than `tolerance` ahead of `reference`.
    static func isAhead(_ wall: Int64, of reference: Timestamp) -> Bool {
        wall > reference.millisecondsSinceEpoch + tolerance
    }

    /// The stamp, or, when it is more than `tolerance` ahead of `reference`, the same stamp at
    /// the reference time (same counter and machine, so it stays distinct and ordered).
    public static func clamp(_ stamp: HybridTimestamp, reference: Timestamp?) -> Observation {
        guard let reference, isAhead(stamp.wall, of: reference) else {
            return Observation(stamp: stamp, clampedBy: nil)
        }
        let clamped = HybridTimestamp(wall: reference.millisecondsSinceEpoch, counter: stamp.counter, machine: stamp.machine)
        return Observation(stamp: clamped, clampedBy: stamp.wall - reference.millisecondsSinceEpoch)
    }
}
