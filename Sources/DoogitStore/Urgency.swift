import DoogitSupport

/// How urgent an open todo is: the order of `doogit next`. It is Taskwarrior's urgency (`task
/// show urgency`; taskrc(5), "URGENCY") with its default coefficients, for the three terms a
/// todo has of it:
///
///     urgency  = 12.0 × due + priority + 2.0 × age
///     due      = 0 without a due date; else 0.2 + 0.8 × (days overdue + 14) / 21, at least 0.2
///                (due in 14 days or later) and at most 1.0 (7 days overdue or more), where days
///                overdue = today − the due date in days of the local calendar
///     priority = 6.0 for H, 3.9 for M, 1.8 for L, 0 for none
///     age      = whole days since the todo was made, at most 365, over 365
///
/// rounded to hundredths (as Taskwarrior's `next` shows it). A todo due today scores 8.8, one due
/// in two weeks or later (9999-12-31 too) 2.4, below any undated todo of priority H or M: a date
/// far off is no reason to come first. Taskwarrior's other terms are left out: every todo has a
/// repository (its project), nothing waits, blocks or is scheduled, and a tag or a note says what
/// a todo is about, not how pressing it is.
public struct Urgency: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The score in hundredths.
    public let hundredths: Int64

    public init(hundredths: Int64) {
        self.hundredths = hundredths
    }

    public static func < (lhs: Urgency, rhs: Urgency) -> Bool { lhs.hundredths < rhs.hundredths }

    /// `8.80`, `12.00`: two decimals, as a JSON number too.
    public var description: String {
        let whole = hundredths / 100, part = abs(hundredths % 100)
        return (hundredths < 0 && whole == 0 ? "-" : "") + "\(whole)." + (part < 10 ? "0" : "") + "\(part)"
    }

    /// The score of each row of the todos' table `t` in hundredths, computed by SQLite in the query
    /// that picks the todos (one pass, no row read twice); its two parameters are today
    /// (`YYYY-MM-DD`, the local calendar's) and now (RFC 3339), in this order.
    static let sql = """
        CAST(round(100 * (
            CASE WHEN t.due IS NULL THEN 0.0
                 ELSE 12.0 * max(0.2, min(1.0, 0.2 + 0.8 * (julianday(?) - julianday(t.due) + 14.0) / 21.0)) END
            + CASE t.priority WHEN 'H' THEN 6.0 WHEN 'M' THEN 3.9 WHEN 'L' THEN 1.8 ELSE 0.0 END
            + 2.0 * min(365, max(0, CAST(julianday(?) - julianday(t.created_at) AS INTEGER))) / 365.0
        )) AS INTEGER)
        """
}

/// An open todo as `next` lists it: with its urgency.
public struct RankedTodo: Sendable {
    public var todo: TodoRecord
    public var urgency: Urgency
}
