import DoogitSupport
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's idea of the UTC calendar time, as RFC 3339 with milliseconds.
private func referenceRFC3339(_ milliseconds: Int64) -> String? {
    var millis = milliseconds % 1000
    var seconds = milliseconds / 1000
    if millis < 0 {
        millis += 1000
        seconds -= 1
    }
    var time = time_t(seconds)
    var parts = tm()
    guard gmtime_r(&time, &parts) != nil else { return nil }
    func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T"
        + "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(Int(millis), 3))Z"
}

@Suite("Timestamp")
struct TimestampTests {
    @Test("known instants are formatted with milliseconds and Z", arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1, "1970-01-01T00:00:00.001Z"),
        (999, "1970-01-01T00:00:00.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-1000, "1969-12-31T23:59:59.000Z"),
        (-1001, "1969-12-31T23:59:58.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (1_709_164_800_123, "2024-02-29T00:00:00.123Z"),
        (1_795_987_395_123, "2026-11-29T21:23:15.123Z"),
        (-14_182_940_000, "1969-07-20T20:17:40.000Z"),
        (-2_208_988_800_000, "1900-01-01T00:00:00.000Z"),
        (-11_676_096_000_000, "1600-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (4_107_542_400_000, "2100-03-01T00:00:00.000Z"),
    ])
    func formatting(milliseconds: Int64, expected: String) {
        #expect(Timestamp(millisecondsSinceEpoch: milliseconds).rfc3339 == expected)
        #expect(Timestamp(rfc3339: expected) == Timestamp(millisecondsSinceEpoch: milliseconds))
    }

    @Test("secondsSinceEpoch is whole seconds")
    func seconds() {
        #expect(Timestamp(secondsSinceEpoch: 86_400).millisecondsSinceEpoch == 86_400_000)
        #expect(Timestamp(secondsSinceEpoch: 86_400).rfc3339 == "1970-01-02T00:00:00.000Z")
        #expect(Timestamp(secondsSinceEpoch: -1).rfc3339 == "1969-12-31T23:59:59.000Z")
    }

    @Test("parsing with Z, z, a lower-case t or a space, and with or without a fraction", arguments: [
        ("2026-11-29T21:23:15.123Z", Int64(1_795_987_395_123)),
        ("2026-11-29T21:23:15Z", 1_795_987_395_000),
        ("2026-11-29t21:23:15.123z", 1_795_987_395_123),
        ("2026-11-29 21:23:15.123Z", 1_795_987_395_123),
        ("2026-11-29T21:23:15.1Z", 1_795_987_395_100),
        ("2026-11-29T21:23:15.12Z", 1_795_987_395_120),
        ("2026-11-29T21:23:15.123456789Z", 1_795_987_395_123),  // digits past milliseconds are dropped
        ("2026-11-29T21:23:15.999999Z", 1_795_987_395_999),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
    ])
    func parsingUTC(text: String, milliseconds: Int64) {
        #expect(Timestamp(rfc3339: text)?.millisecondsSinceEpoch == milliseconds)
    }

    @Test("parsing with offsets gives the same instant", arguments: [
        "2026-11-29T23:23:15.123+02:00",
        "2026-11-29T16:23:15.123-05:00",
        "2026-11-30T02:53:15.123+05:30",
        "2026-11-29T21:23:15.123+00:00",
        "2026-11-29T21:23:15.123-00:00",
        "2026-11-29T11:08:15.123-10:15",
        "2026-11-30T11:08:15.123+13:45",
    ])
    func parsingOffsets(text: String) {
        #expect(Timestamp(rfc3339: text) == Timestamp(millisecondsSinceEpoch: 1_795_987_395_123))
        #expect(Timestamp(rfc3339: text)?.rfc3339 == "2026-11-29T21:23:15.123Z")
    }

    @Test("an offset can move the instant across a day, a year and the epoch")
    func offsetsAcrossBoundaries() {
        #expect(Timestamp(rfc3339: "2025-01-01T01:00:00+02:00")?.rfc3339 == "2024-12-31T23:00:00.000Z")
        #expect(Timestamp(rfc3339: "1969-12-31T19:00:00-05:00")?.millisecondsSinceEpoch == 0)
        #expect(Timestamp(rfc3339: "2024-02-28T23:30:00-01:00")?.rfc3339 == "2024-02-29T00:30:00.000Z")
    }

    @Test("leap days", arguments: [
        "2000-02-29T12:00:00.000Z", "2024-02-29T23:59:59.999Z", "1600-02-29T00:00:00.000Z", "1968-02-29T06:30:00.500Z",
        "1904-02-29T00:00:00.000Z", "2400-02-29T00:00:00.000Z",
    ])
    func leapDays(text: String) throws {
        let timestamp = try #require(Timestamp(rfc3339: text))
        #expect(timestamp.rfc3339 == text)
        let nextDay = Timestamp(millisecondsSinceEpoch: timestamp.millisecondsSinceEpoch + 86_400_000)
        #expect(nextDay.rfc3339.dropFirst(4).hasPrefix("-03-01"))
    }

    @Test("years that are not leap years go from 28 February to 1 March", arguments: ["1900", "2100", "2023", "1970", "1969"])
    func notLeapYears(year: String) throws {
        let timestamp = try #require(Timestamp(rfc3339: year + "-02-28T00:00:00Z"))
        #expect(Timestamp(millisecondsSinceEpoch: timestamp.millisecondsSinceEpoch + 86_400_000).rfc3339
                == year + "-03-01T00:00:00.000Z")
    }

    @Test("round trip and agreement with the C library over a range of instants, before and after 1970")
    func roundTrip() throws {
        var generator = SplitMix64(seed: 2024)
        var values: [Int64] = [0, -1, 1, -86_400_000, 86_400_000 - 1, Int64(Int32.max) * 1000, Int64(Int32.min) * 1000]
        // Every day boundary (and the millisecond either side) from 1896 to 2104.
        let dayStart: Int64 = -2_335_219_200_000  // 1896-01-01
        for day in stride(from: Int64(0), to: 76_000, by: 1) where day % 7 == 0 || day % 365 < 3 {
            let instant = dayStart + day * 86_400_000
            values += [instant, instant - 1, instant + 1]
        }
        // Random instants from 1600 to 9999.
        for _ in 0..<20_000 {
            values.append(Int64.random(in: -11_676_096_000_000...253_402_300_799_999, using: &generator))
        }
        for value in values {
            let timestamp = Timestamp(millisecondsSinceEpoch: value)
            let text = timestamp.rfc3339
            guard Timestamp(rfc3339: text) == timestamp else {
                Issue.record("\(value) -> \(text) does not parse back")
                return
            }
            if let reference = referenceRFC3339(value), reference != text {
                Issue.record("\(value): \(text), the C library says \(reference)")
                return
            }
        }
    }

    @Test("text order matches time order for four-digit years")
    func sortsAsText() {
        var generator = SplitMix64(seed: 5)
        let stamps = (0..<2000).map { _ in
            Timestamp(millisecondsSinceEpoch: Int64.random(in: -30_000_000_000_000...253_402_300_799_999, using: &generator))
        }
        #expect(stamps.sorted().map(\.rfc3339) == stamps.map(\.rfc3339).sorted())
        #expect(stamps.allSatisfy { $0.rfc3339.utf8.count == 24 })
    }

    @Test("Comparable and Hashable")
    func comparable() {
        let a = Timestamp(millisecondsSinceEpoch: -5)
        let b = Timestamp(millisecondsSinceEpoch: 10)
        #expect(a < b)
        #expect(!(b < a))
        #expect(Set([a, b, Timestamp(millisecondsSinceEpoch: 10)]).count == 2)
    }

    @Test("now is close to the system clock")
    func now() {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let reference = Int64(spec.tv_sec) * 1000
        let now = Timestamp.now().millisecondsSinceEpoch
        #expect(abs(now - reference) < 60_000)
        #expect(Timestamp(rfc3339: Timestamp.now().rfc3339) != nil)
    }

    @Test("invalid strings are nil", arguments: [
        "", "garbage", "2026-11-29", "2026-11-29T21:23:15", "2026-11-29T21:23:15.123", "2026-11-29T21:23Z",
        "2026-11-29T21:23:15.Z", "2026-11-29T21:23:15.123ZZ", "2026-11-29T21:23:15Z ", " 2026-11-29T21:23:15Z",
        "2026-11-29T21:23:15+02", "2026-11-29T21:23:15+0200", "2026-11-29T21:23:15+02:0", "2026-11-29T21:23:15+02:000",
        "2026-11-29T21:23:15 +02:00", "2026-11-29T21:23:15+a2:00", "2026-11-29T21:23:15UTC",
        "2026/11/29T21:23:15Z", "2026-11-29X21:23:15Z", "2026-11-29T21-23-15Z", "26-11-29T21:23:15Z",
        "2026-1-29T21:23:15.000Z", "2026-11-9T21:23:15.000Z", "+2026-11-29T21:23:15Z", "2026-11-29T21:23:15,123Z",
        "2026-00-29T21:23:15Z", "2026-13-29T21:23:15Z", "2026-11-00T21:23:15Z", "2026-11-32T21:23:15Z",
        "2026-11-29T24:00:00Z", "2026-11-29T21:60:00Z", "2026-11-29T21:23:61Z", "2026-11-29T2a:23:15Z",
        "2026-11-29T21:23:15.12a3Z", "２０２６-11-29T21:23:15Z", "2026-11-29T21:23:15.123\u{0}",
    ])
    func invalid(text: String) {
        #expect(Timestamp(rfc3339: text) == nil, "\(text.debugDescription) should be refused")
    }

    @Test("the form doogit writes is checked as strictly as any other", arguments: [
        "2026-02-29T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "2026-00-01T00:00:00.000Z", "2026-11-31T00:00:00.000Z",
        "2026-11-00T00:00:00.000Z", "2026-11-29T24:00:00.000Z", "2026-11-29T23:60:00.000Z", "2026-11-29T23:59:61.000Z",
        "2026-11-29T23:59:59.000z ", "2026-11-29T23:59:59.0a0Z", "2026-11-29 23:59:59.000X",
    ])
    func canonicalFormChecked(text: String) {
        #expect(Timestamp(rfc3339: text) == nil, "\(text) should be refused")
    }

    @Test("a non-digit anywhere in a date of the written form is refused")
    func everyDigitChecked() {
        let text = Array("2026-11-29T21:23:15.123Z".utf8)
        for index in text.indices where (0x30...0x39).contains(text[index]) {
            for replacement in [UInt8(ascii: "a"), UInt8(ascii: "/"), UInt8(ascii: ":"), 0x00, 0xFF] {
                var bad = text
                bad[index] = replacement
                let string = String(decoding: bad, as: UTF8.self)
                #expect(Timestamp(rfc3339: string) == nil, "\(string.debugDescription)")
            }
        }
        // The written form and the same instant written another way are read alike.
        #expect(Timestamp(rfc3339: "2026-11-29T21:23:15.123Z") == Timestamp(rfc3339: "2026-11-29T21:23:15.123+00:00"))
        #expect(Timestamp(rfc3339: "2024-02-29T00:00:00.000Z") == Timestamp(rfc3339: "2024-02-29t00:00:00.000z"))
    }

    @Test("dates that do not exist on the calendar are nil", arguments: [
        "2026-02-29T00:00:00Z", "2026-02-30T00:00:00Z", "2024-02-30T00:00:00Z", "1900-02-29T00:00:00Z",
        "2026-04-31T00:00:00Z", "2026-06-31T00:00:00Z", "2026-09-31T00:00:00Z", "2026-11-31T00:00:00Z",
    ])
    func nonexistentDates(text: String) {
        #expect(Timestamp(rfc3339: text) == nil, "\(text) is not a real date (RFC 3339 section 5.7)")
    }

    @Test("offsets outside ±23:59 are nil", arguments: [
        "2026-11-29T21:23:15+24:00", "2026-11-29T21:23:15-99:00", "2026-11-29T21:23:15+05:60", "2026-11-29T21:23:15+00:99",
    ])
    func offsetsOutOfRange(text: String) {
        #expect(Timestamp(rfc3339: text) == nil, "\(text) has an offset outside RFC 3339's time-numoffset")
    }
}
