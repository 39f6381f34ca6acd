import DoogitMerge
import DoogitStore
import DoogitSupport

/// What a todo.txt line brings to the todo that is here already (the same UUID). todo.txt keeps
/// no time of a change, so the line is read beside the line the export writes for the todo now:
/// each field the file says otherwise (done or open, the text, the priority, the due date, the
/// `@context`s as tags, one by one) is the user's newer intent, a change of this machine made
/// now; a field the file says as the export would changes nothing, so an export imported back
/// changes nothing. The repository (`+project`) and the issue link stay (a todo is moved with
/// `todo move`), and the note has no place in todo.txt. A done line without a priority keeps the
/// todo's: todo.sh's `do` drops the `(A)` of the line it marks done.
enum TodoTxtUpdate {
    static func update(of todo: TodoRecord, by line: ForeignTodo, at now: Timestamp,
                       namesRepository: (String) -> Bool) -> TodoUpdate? {
        let written = TodoTxtExport.line(todo, repository: todo.repositoryFullName)
        // Read as the file's line is: a word of the text that reads as a field reads so on both sides.
        guard let shown = try? TodoTxtImport.line(written, place: line.place, namesRepository: namesRepository)?.todo else {
            return nil
        }
        var update = TodoUpdate(id: todo.id)
        if line.done != shown.done {
            update.done = line.done ? DoneState(doneAt: doneAt(line.doneAt, now: now)) : .open
        }
        let link = shown.issue?.word
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
        update.details.removeTags = todo.tags.filter { tag in
            let key = TagSet.key(TodoTxtExport.words(tag))
            return ours.contains(key) && !theirs.contains(key)
        }
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
