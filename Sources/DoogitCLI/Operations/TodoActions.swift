import DoogitMerge
import DoogitStore
import DoogitSupport

/// The changes a user makes to todos, for the commands and the interactive view alike: one way
/// to change a todo. Words are read as `todo add` and `todo edit` read them (`+tag`, `due:WHEN`,
/// `pri:H`); a mistake is the command's `UsageError`, with the command's words.
struct TodoActions {
    /// Opened when first needed: a mistake in the words never opens (or makes) the database.
    let store: () throws -> Store
    let now: Timestamp
    let today: CalendarDate
    /// The user's GitHub login as last seen (nil: none yet), asked once the store is open: who
    /// adds and finishes todos here.
    var login: () -> String? = { nil }

    static let addTopic = ["todo", "add"]
    static let editTopic = ["todo", "edit"]

    /// The text of `words` and the fields their shorthand sets, with `options` (a command's
    /// `--due`, `--tag`...) over them.
    func read(_ words: [String], raw: Bool = false, topic: [String],
              options: (DetailsInput.Shorthand) throws -> DetailsEdit = { $0.edit }) throws -> (text: [String], details: DetailsEdit) {
        let shorthand = try DetailsInput.shorthand(words, raw: raw, today: today, topic: topic)
        return (shorthand.text, try options(shorthand))
    }

    /// `text` as `InputValidation.todoText` leaves it.
    func add(text: String, details: DetailsEdit, to repositoryID: Int64) throws -> TodoRecord {
        try store().addTodo(repositoryID: repositoryID, text: text, details: details, author: login(), at: now)
    }

    /// A line typed as `todo add`'s TEXT: its words and their fields.
    func add(line: String, to repositoryID: Int64) throws -> TodoRecord {
        let words = try read(Self.words(line), topic: Self.addTopic)
        return try add(text: InputValidation.todoText(words.text, topic: Self.addTopic), details: words.details, to: repositoryID)
    }

    /// A new text (nil: the text stays) and details for one todo.
    func edit(_ id: Int64, text: [String]?, details: DetailsEdit, topic: [String] = editTopic) throws -> TodoRecord {
        let text = try text.map { try InputValidation.todoText($0, topic: topic) }
        guard text != nil || !details.isEmpty else {
            throw UsageError(message: "'doogit todo edit' needs a new TEXT, or what to change (--due, --priority, --tag, --note...)",
                             topic: topic)
        }
        return try store().editTodo(id: id, text: text, details: details, at: now)
    }

    /// Words that only change fields: `+tag`, `-tag` (removes it), `due:WHEN`, `pri:H`,
    /// `assignee:LOGIN` (`@me` too), and `due:none`, `pri:none`, `assignee:none` (clear them; a
    /// user named none is `assignee:@none`). A word that would be text is refused, so a slip
    /// never replaces the text.
    func editFields(_ id: Int64, words: [String]) throws -> TodoRecord {
        var removals: [String] = [], rest: [String] = []
        var cleared = DetailsEdit()
        for word in words {
            if word.lowercased() == Self.clearDue {
                cleared.due = .some(nil)
            } else if word.lowercased() == Self.clearPriority {
                cleared.priority = .some(nil)
            } else if word.lowercased().hasPrefix(Self.assigneePrefix) {
                let login = String(word.dropFirst(Self.assigneePrefix.count))
                guard cleared.assignee == nil else {
                    throw UsageError(message: "a todo is assigned to one login; give one", topic: Self.editTopic)
                }
                cleared.assignee = .some(login.lowercased() == "none" ? nil
                                         : try DetailsInput.login(login, me: self.login, topic: Self.editTopic))
            } else if word.hasPrefix("-"), word.count > 1 {
                removals.append(try DetailsInput.tag(String(word.dropFirst()), topic: Self.editTopic))
            } else {
                rest.append(word)
            }
        }
        var (text, details) = try read(rest, topic: Self.editTopic)
        if let word = text.first {
            throw UsageError(message: "'\(TerminalText.sanitize(word))' is not a +tag, -tag, due:, pri: or assignee: word", topic: Self.editTopic)
        }
        details.removeTags += removals
        if let due = cleared.due { details.due = due }
        if let priority = cleared.priority { details.priority = priority }
        if let assignee = cleared.assignee { details.assignee = assignee }
        return try edit(id, text: nil, details: details)
    }

    static let clearDue = "due:none"
    static let clearPriority = "pri:none"
    static let assigneePrefix = "assignee:"

    func setDone(_ ids: [Int64], done: Bool) throws -> [TodoRecord] {
        let store = try store()
        return try store.setDone(ids, done: done, by: login(), at: now)
    }

    /// Assigns the todos to a GitHub login (nil: to nobody).
    func assign(_ ids: [Int64], to login: String?) throws -> [TodoRecord] {
        try store().assign(ids, to: login, at: now)
    }

    func remove(_ ids: [Int64]) throws -> [TodoRecord] {
        try store().removeTodos(ids, at: now)
    }

    func restore(_ ids: [Int64]) throws -> [TodoRecord] {
        try store().restoreTodos(ids, at: now)
    }

    /// How a line typed in one piece splits into a command's words.
    static func words(_ line: String) -> [String] {
        line.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

extension TodoActions {
    /// The actions of a command run now.
    init(_ runtime: Runtime) throws {
        self.init(store: runtime.store, now: runtime.now(), today: try DetailsInput.today(runtime),
                  login: { runtime.login(reading: false) })
    }
}
