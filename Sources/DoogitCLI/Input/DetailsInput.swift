import DoogitMerge
import DoogitStore
import DoogitSupport

/// A todo's details as a command takes them: the options of `todo add` and `todo edit`, and the
/// words of TEXT that Taskwarrior users type (`+tag`, `due:WHEN`, `pri:X`).
enum DetailsInput {
    static let whenHelp = "YYYY-MM-DD, today, tomorrow, a weekday (mon, friday), +3d or +2w"

    static let addOptions = [
        OptionSpec("due", value: "WHEN", help: "the date to do it by: \(whenHelp)"),
        OptionSpec("priority", value: "H|M|L", help: "how pressing it is: H (high), M or L", values: .choices(["H", "M", "L"])),
        OptionSpec("tag", value: "TAG", help: "a tag (repeat it for several)", values: .tag),
        OptionSpec("note", value: "TEXT", help: "a note (several lines allowed)"),
        OptionSpec("note-file", value: "FILE", help: "the note from FILE ('-': standard input)"),
        OptionSpec("raw", help: "keep every word as text: no +tag, due: or pri: fields"),
        OptionSpec("assignee", value: "LOGIN", help: "the GitHub login it is assigned to (@me: yours)"),
        OptionSpec("private", help: "keep it yours: never shared, though its repository's todos are"),
    ]

    static let editOptions = [
        addOptions[0], OptionSpec("no-due", help: "clear the due date"),
        addOptions[1], OptionSpec("no-priority", help: "clear the priority"),
        addOptions[2], OptionSpec("untag", value: "TAG", help: "remove a tag, or a label of its issue (repeat it for several)",
                                   values: .tag),
        addOptions[3], addOptions[4], OptionSpec("no-note", help: "clear the note"),
        addOptions[5], addOptions[6], OptionSpec("no-assignee", help: "assign it to nobody"),
        addOptions[7], OptionSpec("no-private", help: "share it again with its repository's todos"),
    ]

    static let shorthandHelp = """
        In TEXT, a word '+tag' is a tag, 'due:WHEN' the due date and 'pri:H' (or 'priority:H') the \
        priority, as Taskwarrior takes them; --raw keeps every word as text. WHEN is \(whenHelp): \
        a weekday is its next one after today, and dates are the local calendar's (TZ), in the years \
        1970 to 9999. Two different due dates or priorities in one command are refused, naming both.
        """

    /// The date WHEN names, seen from `today`; nil when it names none.
    static func date(_ when: String, today: CalendarDate) -> CalendarDate? { DoogitMerge.Shorthand.date(when, today: today) }

    /// The due date WHEN names: a date of `CalendarDate.dueYears`.
    static func due(_ when: String, today: CalendarDate, topic: [String]) throws -> CalendarDate {
        guard let date = date(when, today: today) else {
            throw UsageError(message: "'\(TerminalText.sanitize(when))' is not a date: use \(whenHelp)", topic: topic)
        }
        guard date.isDueDate else {
            let years = CalendarDate.dueYears
            throw UsageError(message: "'\(TerminalText.sanitize(when))' is not a date a todo can be due on: "
                             + "use a year from \(years.lowerBound) to \(years.upperBound)", topic: topic)
        }
        return date
    }

    static func priority(_ text: String, topic: [String]) throws -> Priority {
        guard let priority = Priority(text: text) else {
            throw UsageError(message: "'\(TerminalText.sanitize(text))' is not a priority: use H, M or L", topic: topic)
        }
        return priority
    }

    /// A GitHub login as a command takes it (`octocat`, `@octocat`), or `@me`: the user's own,
    /// as last seen (`me`).
    static func login(_ text: String, me: () -> String?, topic: [String]) throws -> String {
        if text.lowercased() == "@me" {
            guard let login = me() else { throw unknownLogin }
            return login
        }
        guard let login = GitHubLogin.parse(text) else {
            throw UsageError(message: "'\(TerminalText.sanitize(text))' is not a GitHub login: letters, digits, '-' and '_', "
                             + "at most \(GitHubLogin.maximumLength) characters", topic: topic)
        }
        return login
    }

    /// Why `@me` or `--mine` cannot be told yet, and what tells it.
    static let unknownLogin = CommandFailure(
        message: "doogit does not know your GitHub login yet",
        hint: "run 'doogit auth status' (or 'doogit sync') once with your token, then try again")

    static func tag(_ text: String, topic: [String]) throws -> String {
        guard TagSet.isValid(text) else {
            throw UsageError(message: "'\(TerminalText.sanitize(text))' is not a tag: one word, without spaces or commas, "
                             + "at most 50 characters", topic: topic)
        }
        return text
    }

    /// What the words of TEXT say: the words that are text, and the fields the others set,
    /// with the words that set the due date and the priority (to name them beside an option
    /// that says otherwise).
    struct Shorthand {
        var text: [String] = []
        var edit = DetailsEdit()
        var dueWords: [(word: String, value: CalendarDate?)] = []
        var priorityWords: [(word: String, value: Priority?)] = []
    }

    /// The words of TEXT that are text, and the fields the others set (unless `raw`): read by
    /// `Shorthand`, as the board reads its lines, a mistake named as the command names it.
    static func shorthand(_ words: [String], raw: Bool, today: CalendarDate, topic: [String]) throws -> Shorthand {
        guard !raw else { return Shorthand(text: words) }
        let read: DoogitMerge.Shorthand
        do {
            read = try DoogitMerge.Shorthand.read(words, today: today)
        } catch {
            // Named as the option that takes the same value names it (`--due`, `--priority`, `--tag`).
            switch error {
            case .notADate(let word), .notADueDate(let word): _ = try due(word, today: today, topic: topic)
            case .notAPriority(let word): _ = try priority(word, topic: topic)
            case .notATag(let word): _ = try tag(word, topic: topic)
            }
            throw UsageError(message: "'\(TerminalText.sanitize(words.joined(separator: " ")))' cannot be read", topic: topic)
        }
        var found = Shorthand(text: read.text)
        found.edit.addTags = read.tags
        found.dueWords = read.dueWords.map { ($0.word, $0.value) }
        found.priorityWords = read.priorityWords.map { ($0.word, $0.value) }
        found.edit.due = try single(found.dueWords, of: "due dates", topic: topic)
        found.edit.priority = try single(found.priorityWords, of: "priorities", topic: topic)
        return found
    }

    /// The one value that `given` (each the word or option that gives it, and its value, nil
    /// for a clearing one) sets; nil when none does. Two different ones are a usage error
    /// naming both: a command never takes one of them silently.
    static func single<Value: Equatable>(_ given: [(word: String, value: Value?)], of field: String, topic: [String])
        throws -> Value?? {
        guard let first = given.first else { return nil }
        if let other = given.first(where: { $0.value != first.value }) {
            let both = "'\(TerminalText.sanitize(first.word))' and '\(TerminalText.sanitize(other.word))'"
            if first.value == nil || other.value == nil {
                throw UsageError(message: "\(both) cannot be used together", topic: topic)
            }
            throw UsageError(message: "\(both) are two different \(field); give one", topic: topic)
        }
        return .some(first.value)
    }

    /// The options' fields with what the words of TEXT set (`words`): a due date or a priority
    /// set twice must be the same.
    static func options(_ invocation: Invocation, over words: Shorthand, today: CalendarDate,
                        me: () -> String? = { nil }) throws -> DetailsEdit {
        let topic = invocation.path
        var edit = words.edit
        if invocation.flag("note") && invocation.flag("no-note") {
            throw UsageError(message: "--note and --no-note cannot be used together", topic: topic)
        }
        var dues = words.dueWords
        for when in invocation.options["due"] ?? [] { dues.append(("--due " + when, try due(when, today: today, topic: topic))) }
        if invocation.flag("no-due") { dues.append(("--no-due", nil)) }
        edit.due = try single(dues, of: "due dates", topic: topic)
        var priorities = words.priorityWords
        for text in invocation.options["priority"] ?? [] {
            priorities.append(("--priority " + text, try priority(text, topic: topic)))
        }
        if invocation.flag("no-priority") { priorities.append(("--no-priority", nil)) }
        edit.priority = try single(priorities, of: "priorities", topic: topic)
        for text in invocation.options["tag"] ?? [] { edit.addTags.append(try tag(text, topic: topic)) }
        for text in invocation.options["untag"] ?? [] { edit.removeTags.append(try tag(text, topic: topic)) }
        // --note and --note-file are read by NoteInput.
        if invocation.flag("no-note") { edit.note = .some(nil) }
        var assignees: [(word: String, value: String?)] = []
        for text in invocation.options["assignee"] ?? [] {
            assignees.append(("--assignee " + text, try login(text, me: me, topic: topic)))
        }
        if invocation.flag("no-assignee") { assignees.append(("--no-assignee", nil)) }
        edit.assignee = try single(assignees, of: "assignees", topic: topic)
        if invocation.flag("private") && invocation.flag("no-private") {
            throw UsageError(message: "--private and --no-private cannot be used together", topic: topic)
        }
        if invocation.flag("private") { edit.keptPrivate = true } else if invocation.flag("no-private") { edit.keptPrivate = false }
        return edit
    }

    /// The local calendar's today (TZ), for a command run at `now`.
    static func today(_ runtime: Runtime) throws -> CalendarDate {
        guard let today = CalendarDate.local(at: runtime.now()) else {
            throw CommandFailure(message: "cannot tell today's date from the system clock", hint: "check the clock and TZ")
        }
        return today
    }
}

extension DetailsInput {
    static let filterOptions = [
        OptionSpec("tag", value: "TAG", help: "only todos with this tag or label, without case (repeated: with all of them)",
                   values: .tag),
        OptionSpec("priority", value: "H|M|L", help: "only todos of this priority (repeated: of any of them)",
                   values: .choices(["H", "M", "L"])),
        OptionSpec("due", value: "WHEN", help: "only todos due by then: overdue, today, week or a date (repeated: any)",
                   values: .choices(["overdue", "today", "week"])),
        OptionSpec("mine", help: "only your todos: assigned to you, or assigned to nobody and added by you (or by nobody known)"),
    ]

    /// `--tag`, `--priority`, `--due` and `--mine` of `todo list` and `next`: every `--tag` must
    /// hold, any `--priority`, any `--due`.
    static func filter(_ invocation: Invocation, today: CalendarDate, me: () -> String? = { nil }) throws -> DetailsFilter {
        var filter = DetailsFilter(today: today)
        if invocation.flag("mine") {
            guard let login = me() else { throw unknownLogin }
            filter.mine = login
        }
        for text in invocation.options["tag"] ?? [] { filter.tags.append(try tag(text, topic: invocation.path)) }
        for text in invocation.options["priority"] ?? [] { filter.priorities.append(try priority(text, topic: invocation.path)) }
        for text in invocation.options["due"] ?? [] {
            switch text.lowercased() {
            case "overdue": filter.dues.append(.overdue)
            case "today": filter.dues.append(.by(today))
            case "week": filter.dues += today.adding(days: 6).map { [DueFilter.by($0)] } ?? []
            default: filter.dues.append(.by(try due(text, today: today, topic: invocation.path)))
            }
        }
        return filter
    }
}
