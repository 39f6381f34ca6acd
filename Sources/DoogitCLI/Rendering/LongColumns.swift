import DoogitStore
import DoogitSupport

/// The columns `todo list --long` shows between a todo's ID and its text: how long ago it was
/// created (`3d`), and the state of the GitHub issue it is linked to (a column that takes no room
/// when no todo shown is linked).
struct LongColumns {
    var now: Timestamp
    /// The state of a todo's issue (`open`, `closed`), or nil when it has none.
    var issueState: (TodoRecord) -> String? = { $0.issue.map { $0.state?.rawValue ?? "linked" } }

    /// The cells of many todos laid out in columns: ages right-aligned, states left-aligned, a
    /// column in which every cell is empty left out.
    struct Layout {
        private var ages: [Int64: String] = [:]
        private var states: [Int64: String] = [:]
        private var ageWidth = 0
        private var stateWidth = 0

        init(_ columns: LongColumns, _ todos: [TodoRecord]) {
            for todo in todos {
                let age = Age.short(from: todo.createdAt, to: columns.now)
                ages[todo.id] = age
                ageWidth = max(ageWidth, age.count)
                if let state = columns.issueState(todo).map(TerminalText.sanitize), !state.isEmpty {
                    states[todo.id] = state
                    stateWidth = max(stateWidth, DisplayWidth.of(state))
                }
            }
        }

        /// The cells of one todo, each followed by two spaces.
        func cells(id: Int64) -> String {
            let age = ages[id] ?? ""
            var out = String(repeating: " ", count: max(0, ageWidth - age.count)) + age + "  "
            if stateWidth > 0 { out += TextLayout.padRight(states[id] ?? "", to: stateWidth) + "  " }
            return out
        }
    }
}

/// A duration as the list shows it: the largest whole unit, `45s`, `12min`, `5h`, `3d`, `2w`,
/// `4mo`, `2y` (as Taskwarrior writes ages).
enum Age {
    static func short(from start: Timestamp, to end: Timestamp) -> String {
        let seconds = max(0, (end.millisecondsSinceEpoch - start.millisecondsSinceEpoch) / 1000)
        let days = seconds / 86_400
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)min"
        case ..<86_400: return "\(seconds / 3600)h"
        default: break
        }
        switch days {
        case ..<14: return "\(days)d"
        case ..<61: return "\(days / 7)w"
        case ..<365: return "\(days / 30)mo"
        default: return "\(days / 365)y"
        }
    }
}
