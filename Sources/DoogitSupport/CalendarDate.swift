#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A day of the calendar, without a time or a zone (a due date): `2026-12-24`, which also sorts
/// correctly as text.
public struct CalendarDate: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A real date from year 1 to 9999; nil otherwise.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...Int(Timestamp.daysInMonth(Int64(year), Int64(month)))).contains(day) else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// Exactly `YYYY-MM-DD`.
    public init?(text: String) {
        var text = text
        guard let date = text.withUTF8({ CalendarDate(utf8: $0) }) else { return nil }
        self = date
    }

    /// Exactly `YYYY-MM-DD`, from UTF-8 bytes (a database column), without making a String first.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`, written digit by digit (a list or an export writes thousands).
    public var text: String {
        String(unsafeUninitializedCapacity: 10) { bytes in
            func put(_ value: Int, _ digits: Int, at offset: Int) {
                var rest = value
                for index in (offset..<offset + digits).reversed() {
                    bytes[index] = 0x30 + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, 4, at: 0)
            bytes[4] = 0x2D
            put(month, 2, at: 5)
            bytes[7] = 0x2D
            put(day, 2, at: 8)
            return 10
        }
    }

    public var description: String { text }

    /// The years a todo may be due in. Before 1970 no peer keeps a date (Taskwarrior keeps a
    /// moment as seconds since then; a year-1 date in its file makes `task import` refuse the
    /// whole file); after 9999 no date has four digits. A date typed or imported outside them is
    /// refused; one stored by an older doogit is kept, but never exported to another program.
    public static let dueYears = 1970...9999

    /// Whether a todo may be due on this date (its year is one of `dueYears`): the one check
    /// every place a date comes in (typed, or read from another program's file) makes.
    public var isDueDate: Bool { Self.dueYears.contains(year) }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Days since 1970-01-01 (the proleptic Gregorian calendar).
    public var dayNumber: Int {
        Int(Timestamp.days(fromCivil: Int64(year), Int64(month), Int64(day)))
    }

    /// The date `dayNumber` days after 1970-01-01; nil outside years 1 to 9999.
    public init?(dayNumber: Int) {
        let (year, month, day) = Timestamp.civil(fromDays: Int64(dayNumber))
        self.init(year: Int(year), month: Int(month), day: Int(day))
    }

    /// `days` later (earlier when negative); nil outside years 1 to 9999.
    public func adding(days: Int) -> CalendarDate? {
        CalendarDate(dayNumber: dayNumber + days)
    }

    /// Days from `self` to `other` (negative when `other` is earlier).
    public func days(to other: CalendarDate) -> Int { other.dayNumber - dayNumber }

    /// 0 for Sunday to 6 for Saturday.
    public var weekday: Int { ((dayNumber % 7) + 7 + 4) % 7 }

    /// The local calendar's date at `moment` (the zone `TZ` names, as `date` shows it).
    public static func local(at moment: Timestamp) -> CalendarDate? {
        var seconds = time_t(moment.millisecondsSinceEpoch / 1000 - (moment.millisecondsSinceEpoch % 1000 < 0 ? 1 : 0))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return nil }
        return CalendarDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    /// The first moment of this day in the local calendar (the zone `TZ` names): its midnight,
    /// or the first hour it has when a clock change skips midnight. nil if the system cannot say.
    public var localStart: Timestamp? {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_isdst = -1  // the zone's rules say whether summer time is on
        var start = Timestamp(secondsSinceEpoch: Int64(mktime(&parts)))
        // A skipped midnight may be read as the hour before the jump, on the day before.
        if CalendarDate.local(at: start) == adding(days: -1) {
            start = Timestamp(secondsSinceEpoch: start.millisecondsSinceEpoch / 1000 + 3600)
        }
        // Also catches mktime's error (-1), which is no moment of this day.
        return CalendarDate.local(at: start) == self ? start : nil
    }
}
