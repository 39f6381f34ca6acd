import DoogitStore
import DoogitSupport

/// The due dates an export to another program carries: only those the program takes back. A
/// date outside `CalendarDate.dueYears`, which an older doogit let through and the remote's
/// files keep, is left out of the todo it belongs to (the todo itself is exported), and the
/// export says which todos lost theirs.
enum ExportedDueDate {
    /// Taskwarrior keeps a date as seconds since 1970 and reads such a number back as a date only
    /// from 1980-01-01T00:00:00Z on (libshared's `Datetime::parse_epoch`), so `task import` of an
    /// earlier due fails (2.6 crashes on it).
    static let taskwarriorEarliest = Timestamp(secondsSinceEpoch: 315_532_800)

    /// `due:YYYY-MM-DD` of todo.txt, which `doogit import` takes back.
    static func todoTxt(_ due: CalendarDate?) -> String? {
        guard let due, due.isDueDate else { return nil }
        return due.text
    }

    /// Taskwarrior's due: the moment the date starts here (its local midnight).
    static func taskwarrior(_ due: CalendarDate?) -> Timestamp? {
        guard let due, due.isDueDate, let start = due.localStart, start >= taskwarriorEarliest else { return nil }
        return start
    }

    /// A warning naming the todos whose due date an export in `format` leaves out; nil when none.
    static func warning(_ sections: [TodoSection], format: ImportFormat) -> String? {
        let lost: [Int64] = sections.flatMap(\.todos).filter { todo in
            guard todo.due != nil else { return false }
            switch format {
            case .doogit: return false
            case .todotxt: return todoTxt(todo.due) == nil
            case .taskwarrior: return taskwarrior(todo.due) == nil
            }
        }.map(\.id)
        guard !lost.isEmpty else { return nil }
        let range = format == .taskwarrior ? "takes dates from 1980-01-01"
            : "takes years \(CalendarDate.dueYears.lowerBound) to \(CalendarDate.dueYears.upperBound)"
        let program = format == .taskwarrior ? "Taskwarrior" : "doogit's todo.txt import"
        let todos = lost.count == 1 ? "todo \(lost[0])" : "todos \(IDList.compact(lost))"
        return "warning: the due date of \(todos) is left out (\(program) \(range)); "
            + "set another with 'doogit todo edit ID --due WHEN', or clear it with --no-due"
    }
}
