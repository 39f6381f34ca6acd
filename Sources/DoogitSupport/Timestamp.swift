#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A moment in UTC with millisecond precision, written as RFC 3339 (`2026-11-29T21:23:15.123Z`),
/// which also sorts correctly as text in the database.
public struct Timestamp: Comparable, Hashable, Sendable {
    public var millisecondsSinceEpoch: Int64

    public init(millisecondsSinceEpoch: Int64) {
        self.millisecondsSinceEpoch = millisecondsSinceEpoch
    }

    /// Saturates instead of overflowing: a server may send any number.
    public init(secondsSinceEpoch: Int64) {
        let (product, overflow) = secondsSinceEpoch.multipliedReportingOverflow(by: 1000)
        self.millisecondsSinceEpoch = overflow ? (secondsSinceEpoch < 0 ? .min : .max) : product
    }

    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(millisecondsSinceEpoch: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    public var rfc3339: String {
        let (seconds, millis) = millisecondsSinceEpoch.floorDivided(by: 1000)
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        guard (0...9999).contains(year) else {
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
                + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
                + ".\(pad(millis, 3))Z"
        }
        // The usual case, written straight into the string's storage.
        return String(unsafeUninitializedCapacity: 24) { bytes in writeRFC3339(into: bytes) ? 24 : 0 }
    }

    /// Writes the RFC 3339 form into the first 24 of `bytes`, when the year has four digits (the
    /// usual case; false otherwise). A `--json` list writes two for every todo, so they go straight
    /// into the output, with no String made for each.
    public func writeRFC3339(into bytes: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        let (seconds, millis) = millisecondsSinceEpoch.floorDivided(by: 1000)
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let (year, month, day) = Self.civil(fromDays: days)
        guard (0...9999).contains(year), bytes.count >= 24 else { return false }
        func put(_ value: Int64, _ digits: Int, at offset: Int) {
            var value = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                bytes[index] = UInt8(0x30 + value % 10)
                value /= 10
            }
        }
        put(year, 4, at: 0); bytes[4] = 0x2D
        put(month, 2, at: 5); bytes[7] = 0x2D
        put(day, 2, at: 8); bytes[10] = 0x54
        put(secondOfDay / 3600, 2, at: 11); bytes[13] = 0x3A
        put(secondOfDay / 60 % 60, 2, at: 14); bytes[16] = 0x3A
        put(secondOfDay % 60, 2, at: 17); bytes[19] = 0x2E
        put(millis, 3, at: 20); bytes[23] = 0x5A
        return true
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fff]Z` or with a `±HH:MM` offset; nil for anything else.
    public init?(rfc3339 text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    /// The same, from UTF-8 bytes (a database column), without making a String first.
    public init?(rfc3339UTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let parsed = Self.parse(bytes) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        if let canonical = parseCanonical(bytes) { return canonical }
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " "),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...Self.daysInMonth(year, month)).contains(day),
              hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var millis: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale: Int64 = 100
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                millis += Int64(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offsetSeconds: Int64 = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                  let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6),
                  hours < 24, minutes < 60
            else { return nil }
            offsetSeconds = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        default:
            return nil
        }
        let days = Self.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Timestamp(millisecondsSinceEpoch: seconds * 1000 + millis)
    }

    /// `YYYY-MM-DDTHH:MM:SS.fffZ`, the form doogit writes (a list reads thousands), digit by
    /// digit; nil for anything else, which `parse` then reads in full.
    private static func parseCanonical(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard bytes.count == 24, let b = bytes.baseAddress, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A,
              b[16] == 0x3A, b[19] == 0x2E, b[23] == 0x5A else { return nil }
        var bad = false
        func number(_ offset: Int, _ count: Int) -> Int64 {
            var value: Int64 = 0
            for index in offset..<offset + count {
                let digit = b[index] &- 0x30
                bad = bad || digit > 9
                value = value &* 10 &+ Int64(digit)
            }
            return value
        }
        let year = number(0, 4), month = number(5, 2), day = number(8, 2)
        let hour = number(11, 2), minute = number(14, 2), second = number(17, 2), millis = number(20, 3)
        guard !bad, (1...12).contains(month), (1...daysInMonth(year, month)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second
        return Timestamp(millisecondsSinceEpoch: seconds * 1000 + millis)
    }

    static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days-from-civil algorithms, valid far beyond any date doogit meets.
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The time of day in the machine's local time zone, `HH:MM`, for messages such as
    /// "try again after 14:05".
    public var localTimeOfDay: String {
        var seconds = time_t(millisecondsSinceEpoch / 1000)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return rfc3339 }
        return "\(pad(Int64(parts.tm_hour), 2)):\(pad(Int64(parts.tm_min), 2))"
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
