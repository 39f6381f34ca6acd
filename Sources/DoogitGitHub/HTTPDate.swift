import DoogitSupport

/// HTTP's `Date` header (RFC 9110 IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`): GitHub's
/// clock, against which a machine's clock can be checked.
public enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func parse(_ text: String) -> Timestamp? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]), (1970...9999).contains(year)
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              hour < 24, minute < 60, second < 61
        else { return nil }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return Timestamp(rfc3339: "\(year)-\(two(month + 1))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z")
    }
}
