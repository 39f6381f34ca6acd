import DoogitMerge
import DoogitStore
import DoogitSupport

/// What a todo.txt line brings to the todo that is here already (the same UUID). todo.txt keeps
/// no time of a change, so the line is read beside the line the export writes for the todo now:
/// each field the file says otherwise (done or open, the text, the priority, the due date, the
/// `@context`s as tags, one by one) is the user's newer intent, a change of this machine made
/// now; a field the file says as the export would changes nothing, so an export imported back
/// changes nothing. After an update the todo's export says what the line says (a property
/// test holds it to that). The repository (`+project`) and the issue link stay (a todo is moved with
/// `todo move`), and the note has no place in todo.txt. A done line without a priority keeps the
/// todo's: todo.sh's `do` drops the `(A)` of the line it marks done.
enum TodoTxtUpdate {
    static func update(of todo: TodoRecord, by line: ForeignTodo, at now: Timestamp,
                       namesRepository: (String) -> Bool) -> TodoUpdate? {
        // Read as the file's line is: a word of the text that reads as a field reads so on both sides.
        func shown(_ todo: TodoRecord) -> ForeignTodo? {
            let written = TodoTxtExport.line(todo, repository: todo.repositoryFullName)
            return try? TodoTxtImport.line(written, place: line.place, namesRepository: namesRepository)?.todo
        }
        guard var fields = shown(todo) else { return nil }
        let link = fields.issue?.word
        let shownText = text(fields, link: link)
        guard let update = update(todo.id, by: line, over: fields, link: link, at: now) else { return nil }
        guard shownText != TodoTxtExport.text(todo.text) else { return update }
        // The todo's text has words the file reads as fields (`@home`, `due:...`): the line says
        // otherwise, so it becomes what the file says, the text without those words and the
        // fields the todo's own.
        var plain = todo
        plain.text = "-"
        guard let own = shown(plain) else { return nil }
        fields = own
        fields.text = shownText
        var changed = self.update(todo.id, by: line, over: fields, link: link, at: now) ?? TodoUpdate(id: todo.id)
        changed.text = text(line, link: link)
        return changed
    }

    /// The fields of `line` that differ from `shown`'s, as an update of the todo `id`.
    private static func update(_ id: Int64, by line: ForeignTodo, over shown: ForeignTodo, link: String?,
                               at now: Timestamp) -> TodoUpdate? {
        var update = TodoUpdate(id: id)
        if line.done != shown.done {
            update.done = line.done ? DoneState(doneAt: doneAt(line.doneAt, now: now)) : .open
        }
        if text(line, link: link) != text(shown, link: link) { update.text = text(line, link: link) }
        let priority = line.details.priority.flatMap { $0 }
        if priority != shown.details.priority.flatMap({ $0 }), !(line.done && line.details.priority == nil) {
            update.details.priority = .some(priority)
        }
        let due = line.details.due.flatMap { $0 }
        if due != shown.details.due.flatMap({ $0 }) { update.details.due = .some(due) }
        let theirs = Set(line.details.addTags.map(TagSet.key)), ours = Set(shown.details.addTags.map(TagSet.key))
        var added: Set<String> = []
        update.details.addTags = line.details.addTags.filter { !ours.contains(TagSet.key($0)) && added.insert(TagSet.key($0)).inserted }
        update.details.removeTags = shown.details.addTags.filter { !theirs.contains(TagSet.key($0)) }
        return update.isEmpty ? nil : update
    }

    /// A line's text with its `issue:` word, unless that word is the todo's link as the export
    /// writes it (`link`): such a word that is not the link is text, as an import adding it keeps.
    private static func text(_ line: ForeignTodo, link: String?) -> String {
        guard let word = line.issue?.word, word != link else { return line.text }
        return line.text + " " + word
    }

    /// When a todo marked done in the file was done: the day the line says, where it is before
    /// today (UTC, as the file's dates are); else now, which is in that day and more precise.
    private static func doneAt(_ day: Timestamp?, now: Timestamp) -> Timestamp {
        guard let day, day.rfc3339.prefix(10) < now.rfc3339.prefix(10) else { return now }
        return day
    }
}
