import DoogitMerge
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

    /// The score of a todo with these details, seen from `today` (the local calendar's) and `now`.
    /// Computed in Swift from the few columns `next` reads, which costs less than SQLite's date
    /// functions on every open todo; in the order of the formula, rounded half up as SQLite's
    /// `round` does, so the bench's SQL computes the same scores.
    public init(due: CalendarDate?, priority: Priority?, made: Timestamp, today: CalendarDate, now: Timestamp) {
        var score = 0.0
        if let due {
            score = 12.0 * max(0.2, min(1.0, 0.2 + 0.8 * (Double(today.dayNumber - due.dayNumber) + 14.0) / 21.0))
        }
        switch priority {
        case .high?: score += 6.0
        case .medium?: score += 3.9
        case .low?: score += 1.8
        case nil: break
        }
        // Whole days since it was made (a todo made after now has none), at most a year.
        let days = (now.millisecondsSinceEpoch - made.millisecondsSinceEpoch) / 86_400_000
        score += 2.0 * Double(min(365, max(0, days))) / 365.0
        hundredths = Int64(100 * score + 0.5)
    }
}

/// An open todo as `next` lists it: with its urgency.
public struct RankedTodo: Sendable {
    public var todo: TodoRecord
    public var urgency: Urgency
}
