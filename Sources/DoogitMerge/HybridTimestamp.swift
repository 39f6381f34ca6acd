import DoogitSupport

/// A moment in a hybrid logical clock: the machine's wall time in milliseconds, a counter that
/// orders events within one millisecond (or after a clock that went back), and the id of the
/// machine that made it. Stamps are totally ordered by (wall, counter, machine), so two copies of
/// a field always agree on which write is the later one.
///
/// Its text form, `2026-11-29T21:23:15.123Z/0003/3f2a9c1b7d4e`, is fixed-width (RFC 3339 with
/// milliseconds, four hex digits, twelve hex digits) and sorts as text exactly as the stamps
/// compare, so SQLite can compare stamps as text and a diff of the file shows when a change was made.
public struct HybridTimestamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var wall: Int64
    public var counter: Int
    public var machine: String

    /// The latest wall time with a four-digit year (9999-12-31T23:59:59.999Z): the text form stays fixed-width.
    public static let maximumWall: Int64 = 253_402_300_799_999
    public static let maximumCounter = 0xFFFF
    /// Before every real stamp: a field that was never written (a todo never removed).
    public static let zero = HybridTimestamp(wall: 0, counter: 0, machine: "000000000000")

    /// Wall times outside 1970...9999 and counters outside 0...0xFFFF are brought within them.
    public init(wall: Int64, counter: Int, machine: String) {
        self.wall = min(max(wall, 0), Self.maximumWall)
        self.counter = min(max(counter, 0), Self.maximumCounter)
        self.machine = machine
    }

    public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
        if lhs.wall != rhs.wall { return lhs.wall < rhs.wall }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.machine < rhs.machine
    }

    public var timestamp: Timestamp { Timestamp(millisecondsSinceEpoch: wall) }

    public var text: String {
        let hex = String(counter, radix: 16)
        return Timestamp(millisecondsSinceEpoch: wall).rfc3339 + "/" + String(repeating: "0", count: 4 - hex.count) + hex
            + "/" + machine
    }

    public var description: String { text }

    /// Reads the text form; nil unless it is exactly the canonical form.
    public init?(text: String) {
        let utf8 = text.utf8
        guard utf8.count == 42 else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 24, parts[1].utf8.count == 4,
              let wall = Timestamp(rfc3339: String(parts[0])), wall.rfc3339 == parts[0],
              parts[1].utf8.allSatisfy(Self.isLowerHex), let counter = Int(parts[1], radix: 16),
              Self.isMachineID(String(parts[2]))
        else { return nil }
        self.init(wall: wall.millisecondsSinceEpoch, counter: counter, machine: String(parts[2]))
    }

    /// A machine id is twelve lowercase hex digits.
    public static func isMachineID(_ text: String) -> Bool {
        text.utf8.count == 12 && text.utf8.allSatisfy(isLowerHex)
    }

    /// A new random machine id.
    public static func makeMachineID() -> String {
        var generator = SystemRandomNumberGenerator()
        return makeMachineID(using: &generator)
    }

    public static func makeMachineID(using generator: inout some RandomNumberGenerator) -> String {
        let hex = String(UInt64.random(in: 0..<(1 << 48), using: &generator), radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }
}
