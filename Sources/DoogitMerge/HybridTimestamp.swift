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

    /// The stamp just after this one, made by `machine`: later whatever the machine's id.
    public func next(on machine: String) -> HybridTimestamp {
        counter < Self.maximumCounter
            ? HybridTimestamp(wall: wall, counter: counter + 1, machine: machine)
            : HybridTimestamp(wall: wall + 1, counter: 0, machine: machine)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Written straight into the string's storage: a file of 10,000 todos has 30,000 stamps.
    public var text: String {
        let time = Timestamp(millisecondsSinceEpoch: wall)
        return String(unsafeUninitializedCapacity: 42) { bytes in
            // The wall is within four-digit years (see `init`), so it takes the 24 bytes.
            guard time.writeRFC3339(into: bytes) else { return 0 }
            bytes[24] = UInt8(ascii: "/")
            for digit in 0..<4 { bytes[25 + digit] = Self.hexDigits[(counter >> (12 - 4 * digit)) & 0xF] }
            bytes[29] = UInt8(ascii: "/")
            var index = 30
            for byte in machine.utf8 where index < 42 {
                bytes[index] = byte
                index += 1
            }
            return index
        }
    }

    public var description: String { text }

    /// Reads the text form; nil unless it is exactly the canonical form (which is what
    /// `text` writes: the layout is checked byte by byte, the time by `Timestamp`).
    public init?(text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> HybridTimestamp? {
        guard bytes.count == 42, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z"), bytes[24] == UInt8(ascii: "/"),
              bytes[29] == UInt8(ascii: "/"),
              // Seconds up to 59: a leap second would be written back as the next minute.
              bytes[17] < UInt8(ascii: "6")
        else { return nil }
        for index in [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22] where !(0x30...0x39).contains(bytes[index]) {
            return nil
        }
        var counter = 0
        for index in 25..<29 {
            guard isLowerHex(bytes[index]) else { return nil }
            counter = counter << 4 | Int(bytes[index] <= 0x39 ? bytes[index] - 0x30 : bytes[index] - 0x61 + 10)
        }
        for index in 30..<42 where !isLowerHex(bytes[index]) { return nil }
        guard let wall = Timestamp(rfc3339: String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<24]), as: UTF8.self))
        else { return nil }
        return HybridTimestamp(wall: wall.millisecondsSinceEpoch, counter: counter,
                               machine: String(decoding: UnsafeBufferPointer(rebasing: bytes[30..<42]), as: UTF8.self))
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
